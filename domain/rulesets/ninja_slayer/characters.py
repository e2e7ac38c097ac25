"""Deciders for characters outside the combat sequence: adding, adjusting, checks."""

from __future__ import annotations

from domain.audience import GM, seat_number
from domain.errors import Forbidden, KirokuError, RuleViolation
from domain.game import GameState
from domain.records import Draft

from . import checks, guards
from .commands import AddCharacter, Adjust, Check
from .difficulty import Modifier
from .events import CharacterAdded, CharacterAdjusted, CheckRolled
from .numbers import DrawNumbers
from .rolls import Pool
from .state import Current, NinjaState
from .stats import value

NO_REACTION = ("table", "damage")
CONCENTRATION = Modifier(name="集中状態", delta=-1)


def add(game: GameState, command: AddCharacter, actor: str) -> list[Draft]:
    if game.status == "ended":
        raise RuleViolation("game_ended", "The game has ended.")
    state: NinjaState = game.rules
    if command.id in state.characters:
        raise RuleViolation("duplicate_character", f"There already is a character {command.id!r}.")
    if command.kind == "pc":
        owner = command.owner or actor
        number = seat_number(owner)
        if number is None or game.seat(number) is None:
            raise KirokuError("unknown_seat", "A PC belongs to a seat of this game (seat:<n>).")
        if actor not in (GM, owner):
            raise Forbidden("not_your_seat", "A player adds only their own PC.")
        if state.private_pc_sheets:
            event = CharacterAdded(
                id=command.id, name=command.name, owner=owner, kind="pc", secret=command.sheet
            )
            return [Draft(event, audience=tuple(dict.fromkeys((GM, owner))))]
        event = CharacterAdded(
            id=command.id, name=command.name, owner=owner, kind="pc", sheet=command.sheet
        )
        return [Draft(event)]
    guards.require_gm(actor, "add NPCs")
    event = CharacterAdded(
        id=command.id, name=command.name, owner=GM, kind=command.kind, secret=command.sheet
    )
    return [Draft(event, audience=(GM,))]


def adjust(game: GameState, command: Adjust, actor: str) -> list[Draft]:
    state = guards.rules(game)
    guards.require_gm(actor, "adjust a character")
    guards.character(state, command.character)
    unknown = sorted(set(command.changes) - set(Current.model_fields))
    if unknown:
        raise KirokuError("unknown_value", f"Cannot adjust {', '.join(unknown)}.")
    event = CharacterAdjusted(
        character=command.character,
        changes=command.changes,
        status=command.status,
        reason=command.reason,
    )
    return [Draft(event)]


def concentration(state: NinjaState, character_id: str) -> list[Modifier]:
    """集中状態 makes every attack-phase action of its holder one step easier."""
    combat = state.combat
    if (
        combat is not None
        and combat.concentrating
        and combat.phase == "attack"
        and combat.actor == character_id
    ):
        return [CONCENTRATION]
    return []


def check(game: GameState, command: Check, actor: str) -> list[Draft]:
    state = guards.rules(game)
    character = guards.controlled(state, command.character, actor)
    if command.purpose != "resistance":  # rolled even by a character who cannot act
        guards.able(character)
    if command.reaction_dice and (command.purpose in NO_REACTION or command.stat is None):
        raise RuleViolation(
            "reaction_dice_not_allowed",
            "即応ダイス cannot be added to random tables, damage or fixed-dice checks.",
        )
    guards.spend(
        "即応ダイス", "not_enough_reaction_dice", command.reaction_dice, character.now.reaction
    )
    modifiers = list(command.modifiers)
    if command.purpose == "check":
        modifiers += concentration(state, character.id)
    pool = Pool(
        stat=command.stat,
        stat_value=value(character, command.stat),
        bonus=command.bonus_dice,
        reaction=command.reaction_dice,
    )
    detail = checks.run(
        game,
        pool,
        command.difficulty,
        modifiers,
        faces=command.faces,
        entropy=command.entropy,
        number=DrawNumbers(game).take(command.faces),
    )
    fields, audience = checks.placed(character, detail)
    event = CheckRolled(
        character=character.id,
        purpose=command.purpose,
        stat=command.stat,
        success=checks.successes(detail) > 0,
        successes=checks.successes(detail),
        **fields,
    )
    return [Draft(event, audience=audience)]
