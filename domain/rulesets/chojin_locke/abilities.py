"""Using a special ability of the sheet or an ability card from hand, timed by their tags."""

from __future__ import annotations

from pydantic import Field

from domain.commands import Command
from domain.errors import RuleViolation
from domain.records import Draft
from domain.rulesets.chojin_locke.actions import must_pass
from domain.rulesets.chojin_locke.card_events import AbilityCardUsed, AbilityUsed
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.turn import in_phase, my_turn


@CHOJIN_LOCKE.command("use_ability")
class UseAbility(Command):
    """Use a special ability of your sheet by naming it (checked against the sealed sheet)."""

    ability: str = Field(min_length=1, max_length=60)


@CHOJIN_LOCKE.decides(UseAbility)
def use_ability(t: ChojinTable, command: UseAbility, actor: str) -> list[Draft]:
    """3.1: an ability is used by naming it. Naming one the sheet lacks is refused, and only the
    caller hears of it; [常動] abilities are always on and [戦闘] ones wait for combat."""
    state = playing(t)
    turn, player = my_turn(state, actor)
    assert player.sheet is not None
    ability = next((a for a in player.sheet.abilities if a.name == command.ability), None)
    if ability is None:
        raise RuleViolation("no_such_ability", "Your character has no ability by that name.")
    tags = ability.tags
    if "常動" in tags:
        raise RuleViolation("always_on", "That ability is always on; it is not used.")
    if "戦闘" in tags:
        raise RuleViolation("combat_only", "That ability is used in combat, which is not run yet.")
    main = "主要" in tags or "先制" in tags
    if main:
        in_phase(turn, "main")
        must_pass(turn)
        if turn.main is not None:
            raise RuleViolation("main_action_used", "This turn's main action is taken.")
    elif "支援" in tags:
        in_phase(turn, "support")
        if ability.name in turn.supported:
            raise RuleViolation("used_this_turn", "A [支援] ability is used once per turn.")
    event = AbilityUsed(seat=player.seat, ability=ability.name, tags=tags, main=main)
    return [Draft(event)]


@CHOJIN_LOCKE.command("use_ability_card")
class UseAbilityCard(Command):
    """Turn an ability card from your hand face up and use it (its effect is the table's)."""

    card: str = Field(min_length=1, max_length=60)


@CHOJIN_LOCKE.decides(UseAbilityCard)
def use_card(t: ChojinTable, command: UseAbilityCard, actor: str) -> list[Draft]:
    state = playing(t)
    turn, player = my_turn(state, actor)
    if command.card not in player.abilities:
        raise RuleViolation("not_in_hand", "You hold no such ability card.")
    if player.abilities.count(command.card) <= player.face_up.count(command.card):
        # 4.7, lines 844–845: using a card turns it face up; it is turned face down again only
        # at the end of a combat its holder took part in (docs/rulings.md)
        raise RuleViolation(
            "card_face_up", "That card is already face up: it is used by turning it face up."
        )
    card = state.catalog.ability_card(command.card)
    tags = card.tags if card else ()
    if "戦闘" in tags:
        raise RuleViolation("combat_only", "This card is used in combat, which is not run yet.")
    main = "主要" in tags or "先制" in tags
    if main:
        in_phase(turn, "main")
        must_pass(turn)
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
