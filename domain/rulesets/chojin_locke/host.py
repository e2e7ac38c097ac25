"""What the host applies by hand: damage and states from what Kiroku does not resolve yet."""

from __future__ import annotations

from domain.game import GameState
from domain.records import Draft
from domain.rulesets.chojin_locke.commands import SetCondition
from domain.rulesets.chojin_locke.ending import end_game
from domain.rulesets.chojin_locke.events import ConditionSet, GameOver
from domain.rulesets.chojin_locke.guards import host, living, playing, stage
from domain.rulesets.chojin_locke.turn import end_turn


def set_condition(game: GameState, command: SetCondition, actor: str) -> list[Draft]:
    host(actor, "set a character's condition")
    state = playing(game)
    stage(state, "planet", "base")
    living(state, command.seat)
    event = ConditionSet(
        seat=command.seat,
        condition=command.condition,
        endurance_damage=command.endurance_damage,
        willpower_damage=command.willpower_damage,
        reason=command.reason,
    )
    drafts = [Draft(event)]
    others_alive = any(
        p.alive for s, p in state.players.items() if s != command.seat and p.sheet is not None
    )
    if command.condition == "dead" and not others_alive:
        return drafts + end_game(game, GameOver(reason="all_dead"))
    turn = state.turn
    if turn is not None and turn.seat == command.seat and command.condition == "dead":
        # the turn player can no longer act: the turn passes on at once
        player = state.players[command.seat].model_copy(update={"condition": command.condition})
        after = state.model_copy(update={"players": {**state.players, command.seat: player}})
        drafts += end_turn(game, after, turn)
    return drafts
