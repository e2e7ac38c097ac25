"""戦闘遭遇 (L21–42): the encounter begins with initiative, runs in rounds, and ends when the GM
says its victory condition is met (L29–31). A GM `new_day` ends the day (ruling MD-012)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from domain.model.audience import GM
from domain.model.commands import Command
from domain.model.errors import KirokuError, RuleViolation
from domain.model.events import Event
from domain.model.lifecycle_events import RollRecord
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.model.table import Table

from . import guards, health, initiative
from .changes import with_units
from .rules import MECH_D20
from .sheet import AGILITY
from .state import Encounter, MechState, Place, Unit
from .words import arrows

Faces = Field(default=None, max_length=30)


@MECH_D20.command("begin_encounter")
class BeginEncounter(Command):
    """GM: the units that fight; each rolls initiative once (server dice, or `faces` by unit).
    Ties the seed leaves open follow `tie_order`, else the order of `participants` (ruling
    MD-003)."""

    participants: list[str] = Field(min_length=1, max_length=30)
    tie_order: list[str] = Field(default_factory=list, max_length=30)
    faces: dict[str, list[int]] = Field(default_factory=dict, max_length=30)
    entropy: str = Field(default="", max_length=64)


class InitiativeRoll(BaseModel):
    model_config = ConfigDict(frozen=True)

    unit: str
    value: int
    roll: RollRecord


class InitiativeSecret(BaseModel):
    model_config = ConfigDict(frozen=True)

    rolls: tuple[InitiativeRoll, ...]


@MECH_D20.event
class EncounterBegan(Event):
    participants: tuple[str, ...]
    order: tuple[str, ...]
    tie_order: tuple[str, ...]
    rolls: tuple[InitiativeRoll, ...] = ()  # public units' rolls
    secret: InitiativeSecret | None = None  # the others' (their bonus is sheet data)


@MECH_D20.decides(BeginEncounter)
def begin_encounter(t: Table[MechState], command: BeginEncounter, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "begin an encounter")
    if state.encounter is not None:
        raise RuleViolation("encounter_in_progress", "An encounter is already in progress.")
    if len(set(command.participants)) != len(command.participants):
        raise KirokuError("duplicate_participant", "A unit is listed twice.")
    units = [guards.on_field(guards.unit(state, uid)) for uid in command.participants]
    unknown = set(command.faces) - set(command.participants)
    if unknown:
        raise KirokuError(
            "unknown_unit",
            "Faces for units not fighting: {unknown}.",
            params={"unknown": sorted(unknown)},
        )
    shown: list[InitiativeRoll] = []
    sealed: list[InitiativeRoll] = []
    for unit in units:
        bonus = initiative.bonus(unit.sheet)
        rolled = t.dice.roll(f"1D20{bonus:+d}", command.faces.get(unit.id), command.entropy)
        entry = InitiativeRoll(unit=unit.id, value=rolled.total, roll=rolled.record)
        (sealed if guards.sealed_to(state, unit) else shown).append(entry)
    tie = tie_ranks(command.tie_order, command.participants)
    order = initiative.ordered(_place(u, r.value, tie) for u, r in _by_unit(units, shown, sealed))
    event = EncounterBegan(
        participants=tuple(command.participants),
        order=tuple(p.unit for p in order),
        tie_order=tuple(command.tie_order),
        rolls=tuple(shown),
        secret=InitiativeSecret(rolls=tuple(sealed)) if sealed else None,
    )
    return [Draft(event, audience=(GM,) if sealed else ())]


def tie_ranks(tie_order: Sequence[str], participants: Sequence[str]) -> dict[str, int]:
    """Ruling MD-003: the stated tie order, then the participants' order."""
    stated = [*tie_order, *(u for u in participants if u not in tie_order)]
    return {uid: rank for rank, uid in enumerate(stated)}


def _by_unit(units: list[Unit], *rolls: list[InitiativeRoll]) -> list[tuple[Unit, InitiativeRoll]]:
    found = {r.unit: r for group in rolls for r in group}
    return [(u, found[u.id]) for u in units if u.id in found]


def _place(unit: Unit, value: int, tie: dict[str, int]) -> Place:
    return Place(
        unit=unit.id,
        value=value,
        agility=unit.sheet.abilities[AGILITY],
        pc=unit.kind == "pc",
        tie=tie.get(unit.id, len(tie)),
    )


def fresh(unit: Unit) -> Unit:
    """What an encounter's beginning or end clears: its effects (ruling: none outlast the
    encounter), [モード], encounter powers, the 精神コマンド, death-save failures (ruling
    MD-006)."""
    return unit.model_copy(
        update={
            "effects": (),
            "mode": None,
            "used_encounter": (),
            "spirit_used": False,
            "death_failures": 0,
            "turns": 0,
        }
    )


@MECH_D20.folds(EncounterBegan)
def _began(state: MechState, event: EncounterBegan, seq: int) -> MechState:
    rolls = {r.unit: r.value for r in (*event.rolls, *(event.secret.rolls if event.secret else ()))}
    tie = tie_ranks(event.tie_order, event.participants)
    places = [
        _place(state.units[uid], rolls.get(uid, 0), tie)
        for uid in event.order
        if uid in state.units
    ]
    state = with_units(
        state, *(fresh(state.units[u]) for u in event.participants if u in state.units)
    )
    encounter = Encounter(participants=event.participants, order=initiative.ordered(places))
    return state.model_copy(update={"encounter": encounter, "encounters": state.encounters + 1})


@MECH_D20.says_named(EncounterBegan)
def _encounter_began_line(e: EncounterBegan, names: Names) -> Message:
    order = arrows([names.of(unit) for unit in e.order])
    return Message(N_("戦闘遭遇開始 — イニシアチブ順: {order}"), {"order": order})


@MECH_D20.event
class RoundBegan(Event):
    round: int


@MECH_D20.folds(RoundBegan)
def _round(state: MechState, event: RoundBegan, seq: int) -> MechState:
    encounter = state.encounter
    if encounter is None:
        return state
    return state.model_copy(
        update={
            "encounter": encounter.model_copy(
                update={"round": event.round, "done": (), "immediate_used": (), "ongoing_taken": ()}
            )
        }
    )


@MECH_D20.says(RoundBegan)
def _round_began_line(e: RoundBegan) -> Message:
    return Message(N_("ラウンド {round}"), {"round": e.round})


def up(state: MechState) -> str | None:
    """The unit whose turn comes next this round (None once the round is over)."""
    encounter = state.encounter
    if encounter is None or encounter.turn is not None:
        return None
    gone = {u for u in encounter.participants if u in state.units and health.out(state.units[u])}
    return initiative.next_up(encounter.order, encounter.done, gone)


@MECH_D20.command("end_encounter")
class EndEncounter(Command):
    """GM: the encounter is over (its victory condition is the GM's call, L29–31)."""


@MECH_D20.event
class EncounterEnded(Event):
    pass


@MECH_D20.decides(EndEncounter)
def end_encounter(t: Table[MechState], command: EndEncounter, actor: str) -> list[Draft]:
    _, current = guards.playing(t)
    t.referee_only(actor, "end the encounter")
    guards.nothing_pending(current, "the encounter ends")
    return [Draft(EncounterEnded())]


@MECH_D20.folds(EncounterEnded)
def _encounter_ended(state: MechState, event: EncounterEnded, seq: int) -> MechState:
    encounter = state.encounter
    if encounter is None:
        return state
    units = (fresh(state.units[u]) for u in encounter.participants if u in state.units)
    return with_units(state, *units).model_copy(update={"encounter": None})


@MECH_D20.says(EncounterEnded)
def _encounter_ended_line(e: EncounterEnded) -> Message:
    return Message(N_("戦闘遭遇終了"))


@MECH_D20.command("new_day")
class NewDay(Command):
    """GM: a new day: 1日毎 powers come back, and each seat may spend a hero point again."""


@MECH_D20.event
class DayBegan(Event):
    day: int


@MECH_D20.decides(NewDay)
def new_day(t: Table[MechState], command: NewDay, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "begin a new day")
    if state.encounter is not None:
        raise RuleViolation("encounter_in_progress", "End the encounter first.")
    return [Draft(DayBegan(day=state.day + 1))]


@MECH_D20.folds(DayBegan)
def _day(state: MechState, event: DayBegan, seq: int) -> MechState:
    units = (u.model_copy(update={"used_daily": ()}) for u in state.units.values())
    return with_units(state, *units).model_copy(update={"day": event.day})


@MECH_D20.says(DayBegan)
def _day_began_line(e: DayBegan) -> Message:
    return Message(
        N_("{day}日目: 1日毎のパワーが戻り、各席がヒーローポイントをまた使える"), {"day": e.day}
    )
