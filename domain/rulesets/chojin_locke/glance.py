"""The game at a glance, as the table's pane shows it (panes/chojin_locke.js: its status line
and the pieces on the board), for a reader with no pane: the terminal replay
(replay/text.py)."""

from __future__ import annotations

from domain.model.audience import seat_number
from domain.model.glimpse import Glimpse
from domain.model.logline import Names
from domain.model.messages import N_, Message

from .rules import CHOJIN_LOCKE
from .words import CONDITIONS, ENDINGS, PHASES, SIDES, named, seat_words

STAGES = {  # the game's stages as the pane names them
    "deal": N_("キャラクターシート配布"),
    "silhouettes": N_("シルエット選択"),
    "rebalance": N_("人数の是正"),
    "ambush": N_("惑星編の準備"),
    "planet": N_("惑星編"),
    "keys": N_("秘密基地編の準備"),
    "base": N_("秘密基地編"),
    "over": N_("終了"),
}
UNKNOWN = N_("不明")


@CHOJIN_LOCKE.glances
def at_a_glance(rules: Glimpse, names: Names, audience: str) -> list[object]:
    """The stage, whose turn and its phase, how the game ended; then each player by name with
    what the audience may read of them: the character (its sheet's name), the silhouette
    shown, the side, the condition (4.4) and the 情報 held."""
    stage = rules.text("stage") or ""
    lines: list[object] = [Message(N_("段階: {stage}"), {"stage": STAGES.get(stage, UNKNOWN)})]
    turn = rules.part("turn")
    if turn and stage in ("planet", "base"):
        lines.append(
            Message(
                N_("ターン{number}: {name}・{phase}"),
                {
                    "number": turn.number("number") or "?",
                    "name": seat_words(turn.number("seat"), names),
                    "phase": PHASES.get(turn.text("phase") or "", UNKNOWN),
                },
            )
        )
    reason = rules.part("ending").text("reason")
    if reason:
        lines.append(Message(N_("終了: {reason}"), {"reason": ENDINGS.get(reason, UNKNOWN)}))
    # a seat reads its own sheet in its secrets (`me`), the others' only once shown
    mine = seat_number(audience), rules.part("me").part("sheet").text("name")
    lines += [_player(player, names, mine) for player in rules.parts("players")]
    return lines


def _player(player: Glimpse, names: Names, mine: tuple[int | None, str | None]) -> Message:
    seat = player.number("seat")
    character = player.part("sheet").text("name") or (mine[1] if seat == mine[0] else None)
    silhouette = player.text("silhouette")
    side = player.text("side")
    return Message(
        N_(
            "{name}（{character}）: シルエット {silhouette}、{side}、{condition}、"
            "情報 {information}"
        ),
        {
            "name": seat_words(seat, names),
            "character": named(character) if character else N_("キャラクター非公開"),
            "silhouette": named(silhouette) if silhouette else N_("未選択"),
            "side": SIDES.get(side, UNKNOWN) if side else N_("陣営未定"),
            "condition": CONDITIONS.get(player.text("condition") or "", UNKNOWN),
            "information": player.number("information") or 0,
        },
    )
