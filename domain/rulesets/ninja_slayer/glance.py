"""The game at a glance, as the table's pane shows it (panes/ninja_slayer.js: its summary line
and its tracker), for a reader with no pane: the terminal replay (replay/text.py)."""

from __future__ import annotations

from domain.model.glimpse import Glimpse
from domain.model.logline import Names
from domain.model.messages import N_, Message

from .rules import NINJA_SLAYER
from .words import ATMOSPHERE, KINDS, PHASES, STATUSES

REMOVED = N_("マップから取り除かれた")  # L137, L145: 戦闘不能となり、マップから取り除かれる
UNKNOWN = N_("不明")


@NINJA_SLAYER.glances
def at_a_glance(rules: Glimpse, names: Names, audience: str) -> list[object]:
    """The combat's turn and phase (or none), then each character as the tracker's row:
    name, kind, status, 体力 now/max, 精神力 (a value the audience may not see: 「?」)."""
    characters = rules.by_id("characters")
    combat = rules.part("combat")
    lines: list[object] = []
    if combat:
        lines.append(
            Message(
                N_("ターン{turn}・{phase}・アトモスフィア: {atmosphere}・経過ターン数 {elapsed}"),
                {
                    "turn": _number(combat.number("turn")),
                    "phase": PHASES.get(combat.text("phase") or "", UNKNOWN),
                    "atmosphere": ATMOSPHERE.get(combat.number("atmosphere") or 0, UNKNOWN),
                    "elapsed": _number(combat.number("elapsed")),
                },
            )
        )
        actor = combat.text("actor")
        if actor:
            lines.append(Message(N_("手番: {name}"), {"name": _called(characters, actor)}))
        ids = [*combat.texts("order"), *combat.texts("participants")]
    else:
        lines.append(N_("戦闘なし（探索シーケンス）"))
        ids = list(characters)
    for id in dict.fromkeys(ids):
        if id in characters:
            lines.append(_row(characters[id], _called(characters, id)))
    return lines


def _number(value: int | None) -> str:
    return "?" if value is None else str(value)


def _called(characters: dict[str, Glimpse], id: str) -> object:
    character = characters.get(id, Glimpse(None))
    return character.text("label") or character.text("name") or UNKNOWN


def _row(character: Glimpse, name: object) -> Message:
    now, sheet = character.part("now"), character.part("sheet")
    status = character.text("status") or ""
    return Message(
        N_("{name}（{kind}）: {status}、体力 {tairyoku}/{most}、精神力 {seishin}"),
        {
            "name": name,
            "kind": KINDS.get(character.text("kind") or "", UNKNOWN),
            "status": REMOVED if status == "removed" else STATUSES.get(status, UNKNOWN),
            "tairyoku": _number(now.number("tairyoku")),
            "most": _number(sheet.number("tairyoku")),
            "seishin": _number(now.number("seishin")),
        },
    )
