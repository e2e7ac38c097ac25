"""The encounter at a glance, as the table's pane shows it (panes/mech_d20.js: the round, whose
turn, each unit's hp and conditions), for a reader with no pane: the terminal replay
(replay/text.py)."""

from __future__ import annotations

from domain.model.glimpse import Glimpse
from domain.model.logline import Names
from domain.model.messages import N_, Message

from .changes import BLOODIED, OUT
from .rules import MECH_D20
from .terms import RULEBOOK_WORDS
from .words import bracketed, commas

ACTIVE = N_("健在")
UNKNOWN = N_("不明")


@MECH_D20.glances
def at_a_glance(rules: Glimpse, names: Names, audience: str) -> list[object]:
    """The round and whose turn it is, then each unit (in initiative order, if an encounter is
    under way): its status, hp where the audience may read it (L430–464), 半壊 and the
    conditions it is under (L356–397)."""
    units = rules.by_id("units")
    encounter = rules.part("encounter")
    lines: list[object] = []
    order: list[str] = []
    if encounter:
        round = encounter.number("round")
        lines.append(Message(N_("ラウンド {round}"), {"round": "?" if round is None else round}))
        up = encounter.part("turn").text("unit") or encounter.text("up")
        if up:
            lines.append(Message(N_("手番: {name}"), {"name": _called(units, up)}))
        order = [unit for entry in encounter.parts("order") if (unit := entry.text("unit"))]
    for id in dict.fromkeys([*order, *units]):
        if id in units:
            lines.append(_row(units[id]))
    return lines


def _called(units: dict[str, Glimpse], id: str) -> object:
    return units.get(id, Glimpse(None)).text("name") or UNKNOWN


def _row(unit: Glimpse) -> object:
    status = unit.text("status") or "active"
    words: dict[str, object] = {
        "name": unit.text("name") or UNKNOWN,
        "kind": "NPC" if unit.text("kind") == "npc" else "PC",
        "status": ACTIVE if status == "active" else RULEBOOK_WORDS.get(status, status),
    }
    hp, most = unit.number("hp"), unit.part("sheet").number("max_hp")
    if hp is not None and most is not None:
        line = Message(
            N_("{name}（{kind}）: {status}、hp {hp}/{most}"), {**words, "hp": hp, "most": most}
        )
    else:  # its hp is the GM's (an NPC's numbers, L430)
        line = Message(N_("{name}（{kind}）: {status}"), words)
    conditions = unit.texts("conditions")
    flags: list[object] = []
    if unit.flag("bloodied"):
        flags.append(BLOODIED)
    if unit.flag("out"):
        flags.append(OUT)
    if unit.flag("prone") and "伏せ" not in conditions:
        flags.append(RULEBOOK_WORDS["伏せ"])
    flags += [RULEBOOK_WORDS.get(c, c) for c in conditions]
    return bracketed(line, commas(flags)) if flags else line
