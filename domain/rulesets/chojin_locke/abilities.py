"""Using an ability card from hand: turned face up, timed by its tags."""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.game import GameState
from domain.records import Draft
from domain.rulesets.chojin_locke.commands import UseAbilityCard
from domain.rulesets.chojin_locke.events import (
    AbilityCardUsed,
)
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.turn import in_phase, my_turn


def use_card(game: GameState, command: UseAbilityCard, actor: str) -> list[Draft]:
    state = playing(game)
    turn, player = my_turn(state, actor)
    if command.card not in player.abilities:
        raise RuleViolation("not_in_hand", "You hold no such ability card.")
    card = state.catalog.ability_card(command.card)
    tags = card.tags if card else ()
    if "戦闘" in tags:
        raise RuleViolation("combat_only", "This card is used in combat, which is not run yet.")
    main = "主要" in tags or "先制" in tags
    if main:
        in_phase(turn, "main")
        if turn.main is not None:
            raise RuleViolation(
                "main_action_used", "You have already taken this turn's main action."
            )
    elif "支援" in tags:
        in_phase(turn, "support")
    event = AbilityCardUsed(
        seat=player.seat, card=command.card, tags=tags, text=card.text if card else "", main=main
    )
    return [Draft(event)]
