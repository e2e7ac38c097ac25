"""Characters outside the combat sequence: adding, adjusting, checks."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.model.audience import GM, seat_number
from domain.model.commands import Command
from domain.model.errors import Forbidden, KirokuError, RuleViolation
from domain.model.records import Draft
from domain.rulesets.naming import OptionalId, id_from_name

from . import checks, guards
from .difficulty import Modifier
from .events import CharacterAdded, CharacterAdjusted, CheckRolled
from .fields import DICE_BOUND, CharacterId, Entropy, Faces
from .rolls import PATTERN, Pool, matches
from .rules import NINJA_SLAYER, NinjaTable
from .sheet import Kind, Sheet, StatName
from .state import Character, Current, NinjaState, Status
from .stats import value

NO_REACTION = ("table", "damage")
CONCENTRATION = Modifier(name="集中状態", delta=-1)
DKK_LIMIT = 12


@NINJA_SLAYER.command("add_character")
class AddCharacter(Command):
    """A PC (owned by a seat; a seat may add its own) or an NPC (GM; sheet sealed to the GM)."""

    id: str = OptionalId
    name: str = Field(min_length=1, max_length=60)
    kind: Kind = "pc"
    owner: str | None = Field(default=None, description="seat:<n> for a PC")
    sheet: Sheet


@NINJA_SLAYER.decides(AddCharacter)
def add(t: NinjaTable, command: AddCharacter, actor: str) -> list[Draft]:
    state = t.not_ended()
    if not command.id:
        derived = id_from_name(command.name, state.characters, command.kind)
        command = command.model_copy(update={"id": derived})
    if command.id in state.characters:
        raise RuleViolation(
            "duplicate_character",
            "{name} has already entered the game.",
            params={"name": guards.label(state, command.id)},
        )
    if command.kind == "pc":
        owner = command.owner or actor
        number = seat_number(owner)
        if number is None or t.seat(number) is None:
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
    t.referee_only(actor, "add NPCs")
    event = CharacterAdded(
        id=command.id, name=command.name, owner=GM, kind=command.kind, secret=command.sheet
    )
    return [Draft(event, audience=(GM,))]


@NINJA_SLAYER.command("adjust")
class Adjust(Command):
    """GM: change a character's current values or status, with the reason (table, ruling)."""

    character: str = CharacterId
    changes: dict[str, int] = Field(default_factory=dict, max_length=12)
    status: Status | None = None
    reason: str = Field(min_length=1, max_length=500)


@NINJA_SLAYER.decides(Adjust)
def adjust(t: NinjaTable, command: Adjust, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "adjust a character")
    guards.character(state, command.character)
    unknown = sorted(set(command.changes) - set(Current.model_fields))
    if unknown:
        raise KirokuError(
            "unknown_value", "Cannot adjust {unknown}.", params={"unknown": ", ".join(unknown)}
        )
    if "dkk" in command.changes:
        dkk_within_limit(state.characters[command.character], command.changes["dkk"])
    event = CharacterAdjusted(
        character=command.character,
        changes=command.changes,
        status=command.status,
        reason=command.reason,
    )
    return [Draft(event)]


def dkk_within_limit(found: Character, delta: int) -> None:
    """2-15: 「【DKK】値は上昇してゆく(上限12)」 — and it is never below 0."""
    after = found.now.dkk + delta
    if not 0 <= after <= DKK_LIMIT:
        raise RuleViolation(
            "dkk_limit",
            "{found}'s 【DKK】 goes from 0 to 12 (上限12); {delta} would make it {after}.",
            params={"found": found.name, "delta": format(delta, "+d"), "after": after},
        )


def injured(character: Character) -> list[Modifier]:
    """2-13: 「『●部位損傷』が1箇所でも残った状態で次のシナリオを開始した場合、あらゆる判定に
    難易度+1ペナルティを受けてしまう。2箇所以上残っている場合は、難易度+2ペナルティ」: those the
    sheet was entered with, and those marked in this game that were still there when this
    scenario began and are not treated yet (injuries.py)."""
    count = character.sheet.injuries + sum(1 for p in character.carried if p in character.injuries)
    if count == 0:
        return []
    return [Modifier(name="部位損傷", delta=min(count, 2))]


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


@NINJA_SLAYER.command("check")
class Check(Command):
    """A check: stat dice + bonus dice + declared 即応ダイス against a modified difficulty."""

    character: str = CharacterId
    stat: StatName | None = Field(default=None, description="None: fixed dice (bonus only)")
    difficulty: str = "N"
    modifiers: list[Modifier] = Field(default_factory=list, max_length=12)
    bonus_dice: int = Field(default=0, ge=-20, le=20)
    reaction_dice: int = Field(default=0, ge=0, le=DICE_BOUND)
    purpose: Literal["check", "resistance", "opposed", "table", "damage"] = "check"
    pattern: str | None = Field(
        default=None,
        pattern=PATTERN,
        description="A 【】 face pattern the check looks for: 【6,5+】, or 【4】 (that very face)",
    )
    faces: list[int] | None = Faces
    entropy: str = Entropy


@NINJA_SLAYER.decides(Check)
def check(t: NinjaTable, command: Check, actor: str) -> list[Draft]:
    state = t.started()
    character = guards.controlled(state, command.character, actor)
    if command.purpose != "resistance":  # rolled even by a character who cannot act
        guards.able(character)
    if command.reaction_dice and (command.purpose in NO_REACTION or command.stat is None):
        raise RuleViolation(
            "reaction_dice_not_allowed",
            "即応ダイス cannot be added to random tables, damage or fixed-dice checks.",
        )
    if command.reaction_dice and state.stage != "本編":
        # 「即応ダイスとは、シナリオ本編内で起こる『回避判定』以外のあらゆる判定に追加できる」
        raise RuleViolation(
            "reaction_dice_not_allowed",
            "即応ダイスはシナリオ本編の判定にだけ使える (いまは{stage})。",
            params={"stage": state.stage},
        )
    guards.spend(
        "即応ダイス", "not_enough_reaction_dice", command.reaction_dice, character.now.reaction
    )
    modifiers = list(command.modifiers)
    if command.purpose == "check":
        modifiers += concentration(state, character.id)
    if command.purpose not in NO_REACTION:  # tables and damage are not 判定
        modifiers += injured(character)
    pool = Pool(
        stat=command.stat,
        stat_value=value(character, command.stat),
        bonus=command.bonus_dice,
        reaction=command.reaction_dice,
    )
    detail = checks.run(
        t.dice, pool, command.difficulty, modifiers, faces=command.faces, entropy=command.entropy
    )
    shown, sealed, audience = checks.placed(character, detail)
    event = CheckRolled(
        character=character.id,
        purpose=command.purpose,
        stat=command.stat,
        success=checks.successes(detail) > 0,
        successes=checks.successes(detail),
        pattern=command.pattern,
        pattern_met=matches(command.pattern, checks.faces(detail)) if command.pattern else None,
        detail=shown,
        secret=sealed,
    )
    return [Draft(event, audience=audience)]
