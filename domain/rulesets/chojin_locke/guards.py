"""Who may act and when: the refusals every command shares (the table's own, plus this game's
victory window, stages and living characters)."""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.rulesets.chojin_locke.rules import ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState, Player


def playing(t: ChojinTable) -> ChojinState:
    state = t.started()
    if state.victory is not None:
        raise RuleViolation(
            "victory_pending", "A victory declaration is waiting for every player's answer."
        )
    return state


def stage(state: ChojinState, *stages: str) -> None:
    if state.stage not in stages:
        raise RuleViolation(
            "wrong_stage", f"This is not possible now (the game is at: {state.stage})."
        )


def living(state: ChojinState, number: int) -> Player:
    player = state.players.get(number)
    if player is None or player.sheet is None:
        seats = ", ".join(str(s) for s, p in sorted(state.players.items()) if p.sheet)
        raise RuleViolation(
            "no_character", f"Seat {number} has no character (the seats: {seats or 'none'})."
        )
    if not player.alive:
        raise RuleViolation("character_dead", "A dead character cannot act.")
    return player
