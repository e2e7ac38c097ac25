"""Units: added (a seat's PC, the GM's NPC with its sheet sealed), adjusted, healed, revealed."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from domain.model.audience import GM, seat_number
from domain.model.commands import Command
from domain.model.errors import Forbidden, KirokuError, RuleViolation
from domain.model.events import Event
from domain.model.lifecycle_events import Revealed
from domain.model.logline import Names
from domain.model.messages import N_, Items, Message
from domain.model.records import Draft
from domain.model.table import Table
from domain.rulesets.naming import OptionalId, id_from_name

from . import durations, guards, health
from .changes import EffectIds, effects, end_effects, healing, with_units
from .effects import Effect
from .rules import MECH_D20
from .sheet import Sheet
from .state import Kind, MechState, Status, Unit
from .words import sheet_words

UnitId = Field(min_length=1, max_length=40, pattern=r"^[^\s]+$")


@MECH_D20.command("add_unit")
class AddUnit(Command):
    """A PC unit (owned by a seat; a seat adds its own) or an NPC (GM; its sheet sealed)."""

    id: str = OptionalId
    name: str = Field(min_length=1, max_length=60)
    kind: Kind = "pc"
    owner: str | None = Field(default=None, description="seat:<n> for a PC")
    sheet: Sheet


@MECH_D20.event
class UnitAdded(Event):
    id: str
    name: str
    owner: str
    kind: Kind
    sheet: Sheet | None = None  # public PCs
    secret: Sheet | None = None  # NPCs and private PCs, until revealed


def _check_sheet(state: MechState, sheet: Sheet) -> None:
    names = set(state.defences)
    if set(sheet.defences) != names:
        raise KirokuError(
            "bad_defences",
            "This game's defences are {defences}: give each of them, no other.",
            params={"defences": ", ".join(state.defences)},
        )
    for power in sheet.powers:
        if power.attack is not None and power.attack.defence not in names:
            raise KirokuError(
                "bad_defences",
                "{power} aims at {defence}, not a defence here.",
                params={"power": power.name, "defence": power.attack.defence},
            )


@MECH_D20.decides(AddUnit)
def add_unit(t: Table[MechState], command: AddUnit, actor: str) -> list[Draft]:
    state = t.not_ended()
    if not command.id:
        derived = id_from_name(command.name, state.units, "unit")
        command = command.model_copy(update={"id": derived})
    if command.id in state.units:
        raise RuleViolation(
            "duplicate_unit", "There already is a unit {id}.", params={"id": command.id}
        )
    _check_sheet(state, command.sheet)
    if command.kind == "npc":
        t.referee_only(actor, "add NPC units")
        event = UnitAdded(
            id=command.id, name=command.name, owner=GM, kind="npc", secret=command.sheet
        )
        return [Draft(event, audience=(GM,))]
    owner = command.owner or actor
    number = seat_number(owner)
    if number is None or t.seat(number) is None:
        raise KirokuError("unknown_seat", "A PC unit belongs to a seat of this game (seat:<n>).")
    if actor not in (GM, owner):
        raise Forbidden("not_your_seat", "A player adds only their own units.")
    if state.private_pc_sheets:
        event = UnitAdded(
            id=command.id, name=command.name, owner=owner, kind="pc", secret=command.sheet
        )
        return [Draft(event, audience=(GM, owner))]
    event = UnitAdded(id=command.id, name=command.name, owner=owner, kind="pc", sheet=command.sheet)
    return [Draft(event)]


@MECH_D20.folds(UnitAdded)
def _added(state: MechState, event: UnitAdded, seq: int) -> MechState:
    sheet = event.sheet or event.secret
    if sheet is None:  # a fold without the sealed sheet has nothing to track
        return state
    unit = Unit(
        id=event.id,
        name=event.name,
        owner=event.owner,
        kind=event.kind,
        added_seq=seq,
        revealed=event.sheet is not None,
        sheet=sheet,
        hp=sheet.max_hp,
        surges=sheet.surges,
    )
    return with_units(state, unit)


@MECH_D20.says(UnitAdded)
def _unit_added_line(e: UnitAdded) -> Message:
    """The unit by name and, for a reader who may read it (a PC's public sheet; an NPC's for
    the GM, and for everyone once revealed at the end), its sheet as a sheet."""
    kind = "NPC" if e.kind == "npc" else "PC"
    line = Message(N_("{name} ({kind}) が戦場に"), {"name": e.name, "kind": kind})
    sheet = e.sheet or e.secret
    if sheet is None:
        return line
    return Message(N_("{line} — {sheet}"), {"line": line, "sheet": sheet_words(sheet)})


@MECH_D20.names
def _names(state: MechState, audience: str) -> dict[str, str]:
    """Every unit by its name, for every audience: a unit's name is in the public part of the
    event that adds it (an NPC's sheet is sealed, its name is not; a hidden NPC hides only its
    square), so no reader learns a name from a line it had not read already (ruling MD-030)."""
    return {unit.id: unit.name for unit in state.units.values()}


@MECH_D20.folds(Revealed)
def _revealed(state: MechState, event: Revealed, seq: int) -> MechState:
    for unit in state.units.values():
        if unit.added_seq == event.of_seq:
            return with_units(state, unit.model_copy(update={"revealed": True}))
        if unit.hidden and unit.position_seq == event.of_seq:  # its latest square (grid.py)
            return with_units(state, unit.model_copy(update={"hidden": False}))
    return state


class Numbers(BaseModel):
    """An adjustment's numbers: sealed for an NPC (or a private PC), public otherwise."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hp: int = 0  # added
    surges: int = 0  # added
    max_hp: int | None = None  # the sheet's new value
    defences: dict[str, int] = {}  # the sheet's new values


@MECH_D20.command("adjust")
class Adjust(Command):
    """GM: change a unit's numbers, status or effects, with the reason (a ruling, a power
    whose text Kiroku does not model). An NPC's numbers stay sealed; the audit shows them."""

    unit: str = UnitId
    hp: int = Field(default=0, ge=-999, le=999)
    surges: int = Field(default=0, ge=-99, le=99)
    max_hp: int | None = Field(default=None, ge=1, le=9999)
    defences: dict[str, int] = Field(default_factory=dict, max_length=6)
    status: Status | None = None
    prone: bool | None = None
    end_effects: list[int] = Field(default_factory=list, max_length=20)
    reason: str = Field(min_length=1, max_length=500)


@MECH_D20.event
class UnitAdjusted(Event):
    unit: str
    fields: tuple[str, ...]  # what changed, by name: the values follow the unit's secrecy
    reason: str
    status: Status | None = None
    prone: bool | None = None
    end_effects: tuple[int, ...] = ()
    bloodied: bool
    out: bool
    numbers: Numbers | None = None
    secret: Numbers | None = None


@MECH_D20.decides(Adjust)
def adjust(t: Table[MechState], command: Adjust, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "adjust a unit")
    unit = guards.unit(state, command.unit)
    unknown = sorted(set(command.defences) - set(state.defences))
    if unknown:
        raise KirokuError(
            "bad_defences",
            "No defence named {unknown} here.",
            params={"unknown": ", ".join(unknown)},
        )
    numbers = Numbers(
        hp=command.hp, surges=command.surges, max_hp=command.max_hp, defences=command.defences
    )
    fields = [name for name, value in numbers if value not in (0, None, {})]
    fields += [n for n in ("status", "prone") if getattr(command, n) is not None]
    if command.end_effects:
        fields.append("end_effects")
    if not fields:
        raise KirokuError("nothing_to_adjust", "Say what changes.")
    after = _adjusted(unit, numbers, command.status)
    ended = list(command.end_effects)
    status = command.status
    if status is None and command.hp < 0:  # a loss of hp drops a unit as damage does (L443)
        change = health.damaged(unit.model_copy(update={"sheet": after.sheet}), -command.hp)
        if change.status != unit.status:
            status = change.status
            after = after.model_copy(update={"status": status})
        if change.dropped:
            ended += [e for e in durations.harmful(unit) if e not in ended]
    audience = guards.sealed_to(state, unit)
    event = UnitAdjusted(
        unit=unit.id,
        fields=tuple(fields),
        reason=command.reason,
        status=status,
        prone=command.prone,
        end_effects=tuple(ended),
        bloodied=health.bloodied(after.hp, after.sheet.max_hp),
        out=health.out(after),
        numbers=None if audience else numbers,
        secret=numbers if audience else None,
    )
    return [Draft(event, audience=audience)]


def _adjusted(unit: Unit, numbers: Numbers, status: Status | None) -> Unit:
    sheet = unit.sheet
    if numbers.max_hp is not None or numbers.defences:
        sheet = sheet.model_copy(
            update={
                "max_hp": numbers.max_hp or sheet.max_hp,
                "defences": {**sheet.defences, **numbers.defences},
            }
        )
    return unit.model_copy(
        update={
            "sheet": sheet,
            "hp": unit.hp + numbers.hp,
            "surges": max(0, unit.surges + numbers.surges),
            "status": status or unit.status,
        }
    )


@MECH_D20.folds(UnitAdjusted)
def _unit_adjusted(state: MechState, event: UnitAdjusted, seq: int) -> MechState:
    unit = state.units.get(event.unit)
    numbers = event.numbers or event.secret
    if unit is None or numbers is None:
        return state
    changed = _adjusted(unit, numbers, event.status)
    if event.prone is not None:
        changed = changed.model_copy(update={"prone": event.prone})
    return end_effects(with_units(state, changed), event.end_effects)


# What an adjustment changes, in words (`UnitAdjusted.fields` holds the field names).
ADJUSTED = {
    "hp": "HP",
    "surges": N_("回復力"),
    "max_hp": N_("最大HP"),
    "defences": N_("防御値"),
    "status": N_("状態"),
    "prone": N_("伏せ"),
    "end_effects": N_("効果終了"),
}


@MECH_D20.says_named(UnitAdjusted)
def _unit_adjusted_line(e: UnitAdjusted, names: Names) -> Message:
    changed = Items(ADJUSTED.get(field, field) for field in e.fields)
    return Message(
        N_("GM が {unit} を調整 ({changed}): {reason}"),
        {"unit": names.of(e.unit), "changed": changed, "reason": e.reason},
    )


@MECH_D20.command("heal")
class Heal(Command):
    """GM: healing from outside the modelled powers; `surge` spends a 回復力 for 回復力値 more."""

    unit: str = UnitId
    amount: int = Field(default=0, ge=0, le=999)
    surge: bool = False
    reason: str = Field(default="", max_length=500)


@MECH_D20.decides(Heal)
def heal(t: Table[MechState], command: Heal, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "heal a unit outside a power")
    unit = guards.unit(state, command.unit)
    return [healed(state, unit, command.amount, command.surge, command.reason or "heal")]


def healed(state: MechState, unit: Unit, amount: int, surge: bool, cause: str) -> Draft:
    """One healing, refused where the rules do not let it reach (L447, L455, L464)."""
    refusal = health.may_heal(unit)
    if refusal is not None:
        raise RuleViolation("cannot_heal", refusal)
    if surge and unit.surges < 1:
        raise RuleViolation("no_surges", "{unit} has no 回復力 left.", params={"unit": unit.name})
    total = amount + (unit.sheet.surge_value if surge else 0)
    return healing(state, unit, total, cause, surge=surge)


@MECH_D20.command("add_effect")
class AddEffect(Command):
    """GM: put an effect on a unit that no modelled power gives (a power's text, a ruling)."""

    unit: str = UnitId
    effect: Effect
    source: str | None = Field(default=None, description="the unit whose doing it is")
    reason: str = Field(min_length=1, max_length=500)


@MECH_D20.decides(AddEffect)
def add_effect(t: Table[MechState], command: AddEffect, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "add an effect")
    target = guards.unit(state, command.unit)
    user = guards.unit(state, command.source) if command.source else None
    drafts = list(
        effects(EffectIds(state), (command.effect,), user=user, target=target, power=command.reason)
    )
    if not drafts:
        raise RuleViolation(
            "already_has_effect",
            "{target} already has that effect (L314–318).",
            params={"target": target.name},
        )
    return drafts
