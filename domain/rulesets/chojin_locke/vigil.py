"""4.2's quiet ending: 「Evilの勝利宣言を行ったキャラクターが1000ターン生存し、なおかつ
1000ターンの間1度も移動しなかった時」. Which turns count and what is a move: docs/rulings.md."""

from __future__ import annotations

from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.state import Cell, ChojinState, Player, Position

Location = tuple[Position | None, Cell | None, bool]


def _location(player: Player) -> Location | None:
    spot = (player.position, player.cell, player.outside)
    return None if spot == (None, None, False) else spot


def start(state: ChojinState, seat: int) -> ChojinState:
    """An Evil victory declaration starts the count; a later one keeps the earlier count."""
    if seat in state.vigils:
        return state
    return state.model_copy(update={"vigils": {**state.vigils, seat: 0}})


def turn_begun(state: ChojinState) -> ChojinState:
    if not state.vigils:
        return state
    return state.model_copy(update={"vigils": {s: n + 1 for s, n in state.vigils.items()}})


@CHOJIN_LOCKE.after_fold
def watch(before: ChojinState, after: ChojinState) -> ChojinState:
    """After any event: a declarer who died loses its vigil, one whose piece moved starts over.
    Being placed on a board (entering it, or a new stage's set-up) is not a move."""
    if not after.vigils:
        return after
    vigils = dict(after.vigils)
    for seat in after.vigils:
        player = after.players[seat]
        if not player.alive:
            del vigils[seat]
            continue
        was = _location(before.players[seat])
        if before.stage == after.stage and was is not None and _location(player) != was:
            vigils[seat] = 0
    if vigils == after.vigils:
        return after
    return after.model_copy(update={"vigils": vigils})


def due(state: ChojinState) -> int | None:
    """The declarer whose count has reached the vigil, when a turn ends."""
    for seat, turns in sorted(state.vigils.items()):
        if turns >= state.vigil_turns:
            return seat
    return None
