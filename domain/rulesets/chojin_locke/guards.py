"""Who may act and when: the refusals every command shares."""

from __future__ import annotations

from domain.audience import GM, seat_number
from domain.errors import Forbidden, RuleViolation
from domain.game import GameState
from domain.rulesets.chojin_locke.state import ChojinState, Player


def rules(game: GameState) -> ChojinState:
    state: ChojinState = game.rules
    return state


def playing(game: GameState) -> ChojinState:
    if game.status == "setup":
        raise RuleViolation("game_not_started", "The game has not started yet.")
    if game.status == "ended":
        raise RuleViolation("game_ended", "The game has ended.")
    state = rules(game)
    if state.victory is not None:
        raise RuleViolation(
            "victory_pending", "A victory declaration is waiting for every player's answer."
        )
    return state


def host(actor: str, what: str) -> None:
    if actor != GM:
        raise Forbidden("host_only", f"Only the host can {what}.")


def seat(actor: str) -> int:
    number = seat_number(actor)
    if number is None:
        raise Forbidden("seat_only", "Only a player (a seat) can do this.")
    return number


def stage(state: ChojinState, *stages: str) -> None:
    if state.stage not in stages:
        raise RuleViolation(
            "wrong_stage", f"This is not possible now (the game is at: {state.stage})."
        )


def living(state: ChojinState, number: int) -> Player:
    player = state.players.get(number)
    if player is None or player.sheet is None:
        raise RuleViolation("no_character", "This seat has no character.")
    if not player.alive:
        raise RuleViolation("character_dead", "A dead character cannot act.")
    return player
