"""What the host applies by hand: damage and states from what Kiroku does not resolve yet."""

from __future__ import annotations

from domain.game import GameState
from domain.records import Draft
from domain.rulesets.chojin_locke.commands import SetCondition
from domain.rulesets.chojin_locke.ending import end_game
from domain.rulesets.chojin_locke.events import ConditionSet, GameOver
from domain.rulesets.chojin_locke.guards import host, living, playing, stage


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
        drafts += end_game(game, GameOver(reason="all_dead"))
    return drafts
