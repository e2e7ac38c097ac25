"""ターン処理 (L44–48) with what happens at its start and end, and イニシアチブの遅延 (L160–168).

Start of a turn: 「次のターンの開始時まで」 effects end (防御専念, L90); ongoing damage (L382),
or, for a unit 戦闘不能 when its turn starts, the death save (L445–448). End of a turn: one
save per (セーヴ・終了) effect (L310–311), then 「次のターンの終了時まで」 effects end. A delay
is declared at the start of the turn (L162): the unit's own end-of-next-turn effects end
(L167) and it takes its ongoing damage now, not again when its delayed turn starts (L168).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from domain.model.commands import Command
from domain.model.errors import KirokuError, RuleViolation
from domain.model.events import Event
from domain.model.lifecycle_events import RollRecord
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.model.table import Table

from . import durations, guards, health, initiative, saves
from .changes import EffectIds, damage, effects, end_effects, healing, with_units
from .encounter import RoundBegan, up
from .health import DeathSaveOutcome
from .rules import MECH_D20
from .state import MechState, Status, Turn, Unit
from .terms import term
from .words import bracketed, commas, noted, roll_words

Faces = Field(default=None, max_length=20)
Entropy = Field(default="", max_length=64)
ONGOING = "継続的ダメージ"


def _encounter(state: MechState, **update: object) -> MechState:
    assert state.encounter is not None
    return state.model_copy(update={"encounter": state.encounter.model_copy(update=update)})


def _next_unit(t: Table[MechState], actor: str, named: str | None) -> tuple[MechState, Unit]:
    state, current = guards.playing(t)
    guards.nothing_pending(current, "the next turn")
    if current.turn is not None:
        holder = state.units[current.turn.unit]
        raise RuleViolation(
            "turn_in_progress", "It is still {holder}'s turn.", params={"holder": holder.name}
        )
    uid = up(state)
    if uid is None:
        raise RuleViolation("no_unit_up", "Nobody is left to take a turn in this encounter.")
    if named is not None and named != uid:
        raise RuleViolation(
            "not_up",
            "It is {uid}'s turn next, not {named}'s.",
            params={"uid": state.units[uid].name, "named": named},
        )
    return state, guards.controlled(state, uid, actor)


# --------------------------------------------------------------------------- start


@MECH_D20.command("start_turn")
class StartTurn(Command):
    """The next unit in the order starts its turn (its controller, or the GM)."""

    unit: str | None = None
    faces: list[int] | None = Field(default=None, max_length=1, description="the death save")
    entropy: str = Entropy


@MECH_D20.event
class TurnStarted(Event):
    unit: str
    round: int
    turn: int  # the unit's turns this encounter, this one included
    ended: tuple[int, ...] = ()


@MECH_D20.event
class DeathSaveRolled(Event):
    unit: str
    roll: RollRecord
    natural: int
    outcome: DeathSaveOutcome
    failures: int
    status: Status


@MECH_D20.decides(StartTurn)
def start_turn(t: Table[MechState], command: StartTurn, actor: str) -> list[Draft]:
    state, unit = _next_unit(t, actor, command.unit)
    assert state.encounter is not None
    number = unit.turns + 1
    started = TurnStarted(
        unit=unit.id,
        round=state.encounter.round,
        turn=number,
        ended=durations.ending_at_start(state.units, unit.id, number),
    )
    if command.faces is not None and unit.status != "戦闘不能":
        raise KirokuError(
            "no_death_save",
            "{unit} is not 戦闘不能: no death save to roll.",
            params={"unit": unit.name},
        )
    drafts = [Draft(started)]
    after = MECH_D20.fold(state, started, t.next_seq)
    unit = after.units[unit.id]
    if unit.status == "戦闘不能":
        drafts += _death_save(t, after, unit, command)
    elif unit.id not in state.encounter.ongoing_taken and durations.ongoing(unit):
        drafts.append(damage(after, unit, durations.ongoing(unit), ONGOING))
    return drafts


def _death_save(
    t: Table[MechState], state: MechState, unit: Unit, command: StartTurn
) -> list[Draft]:
    """L445–448: a raw d20 at the start of the turn."""
    rolled = t.dice.roll("1D20", command.faces, command.entropy)
    natural = rolled.faces[0]
    outcome = health.death_save(natural, unit.surges)
    failures = unit.death_failures + (outcome == "failure")
    status: Status = "修理不能" if health.wrecked(failures) else unit.status
    event = DeathSaveRolled(
        unit=unit.id,
        roll=rolled.record,
        natural=natural,
        outcome=outcome,
        failures=failures,
        status=status,
    )
    drafts = [Draft(event)]
    if outcome == "recovered":  # 回復力を消費してhpを回復力値まで回復し (L448), 伏せ (L463)
        drafts.append(healing(state, unit, unit.sheet.surge_value, "戦闘不能セーヴ 20", surge=True))
    return drafts


@MECH_D20.folds(TurnStarted)
def _turn_started(state: MechState, event: TurnStarted, seq: int) -> MechState:
    unit = state.units.get(event.unit)
    if unit is None or state.encounter is None:
        return state
    state = end_effects(
        with_units(state, unit.model_copy(update={"turns": event.turn})), event.ended
    )
    return _encounter(
        state,
        turn=Turn(unit=event.unit),
        opportunity_used=(),
        free_attack_used=(),
        last_action=None,
        last_actor=None,
        last_provokes=False,
    )


@MECH_D20.says_named(TurnStarted)
def _turn_started_line(e: TurnStarted, names: Names) -> Message:
    return Message(
        N_("{unit} のターン (ラウンド {round})"), {"unit": names.of(e.unit), "round": e.round}
    )


@MECH_D20.folds(DeathSaveRolled)
def _death_saved(state: MechState, event: DeathSaveRolled, seq: int) -> MechState:
    unit = state.units.get(event.unit)
    if unit is None:
        return state
    return with_units(
        state, unit.model_copy(update={"death_failures": event.failures, "status": event.status})
    )


@MECH_D20.says_named(DeathSaveRolled)
def _death_save_rolled_line(e: DeathSaveRolled, names: Names) -> Message:
    outcome = {"failure": FAILURE, "success": SUCCESS, "recovered": N_("20: 回復")}[e.outcome]
    line = Message(
        N_("{unit} 戦闘不能セーヴ {natural}: {outcome} (失敗 {failures})"),
        {
            "unit": names.of(e.unit),
            "natural": e.natural,
            "outcome": outcome,
            "failures": e.failures,
        },
    )
    if e.status == "active":
        return line
    return Message(N_("{line} {status}"), {"line": line, "status": term(e.status)})


SUCCESS, FAILURE = N_("成功"), N_("失敗")


# --------------------------------------------------------------------------- delay


@MECH_D20.command("delay")
class Delay(Command):
    """At the start of its turn a unit lowers its initiative to any lower value (L162–166)."""

    unit: str | None = None
    value: int = Field(ge=-99, le=99)


class DelaySecret(BaseModel):
    model_config = ConfigDict(frozen=True)

    value: int


@MECH_D20.event
class Delayed(Event):
    unit: str
    order: tuple[str, ...]
    ended: tuple[int, ...] = ()  # own 「次のターンの終了時まで」 effects (L167)
    value: int | None = None
    secret: DelaySecret | None = None


@MECH_D20.decides(Delay)
def delay(t: Table[MechState], command: Delay, actor: str) -> list[Draft]:
    state, unit = _next_unit(t, actor, command.unit)
    assert state.encounter is not None
    if unit.status != "active":  # ruling MD-007
        raise RuleViolation(
            "cannot_delay",
            "{unit} is {status} and cannot delay.",
            params={"unit": unit.name, "status": unit.status},
        )
    place = next(p for p in state.encounter.order if p.unit == unit.id)
    if command.value >= place.value:
        raise KirokuError(
            "delay_not_lower", "A delay lowers the initiative value (L163): give a lower one."
        )
    order = initiative.delayed(state.encounter.order, unit.id, command.value)
    sealed = guards.sealed_to(state, unit)
    event = Delayed(
        unit=unit.id,
        order=tuple(p.unit for p in order),
        ended=durations.ending_on_delay(state.units, unit.id),
        value=None if sealed else command.value,
        secret=DelaySecret(value=command.value) if sealed else None,
    )
    drafts = [Draft(event, audience=sealed)]
    after = MECH_D20.fold(state, event, t.next_seq)
    taken = unit.id in state.encounter.ongoing_taken
    if not taken and durations.ongoing(after.units[unit.id]):
        ongoing = durations.ongoing(after.units[unit.id])
        drafts.append(damage(after, after.units[unit.id], ongoing, f"{ONGOING} (遅延)"))
    return drafts


@MECH_D20.folds(Delayed)
def _delayed(state: MechState, event: Delayed, seq: int) -> MechState:
    encounter = state.encounter
    value = event.value if event.value is not None else event.secret.value if event.secret else None
    if encounter is None or value is None:
        return state
    state = end_effects(state, event.ended)
    return _encounter(
        state,
        order=initiative.delayed(encounter.order, event.unit, value),
        ongoing_taken=(*encounter.ongoing_taken, event.unit),
    )


@MECH_D20.says_named(Delayed)
def _delayed_line(e: Delayed, names: Names) -> Message:
    value = e.value if e.value is not None else e.secret.value if e.secret else None
    line = Message(N_("{unit} がイニシアチブを遅延"), {"unit": names.of(e.unit)})
    return noted(line, value) if value is not None else line


# --------------------------------------------------------------------------- end


@MECH_D20.command("end_turn")
class EndTurn(Command):
    """The turn's unit ends it: a save against each (セーヴ・終了) effect, in effect order."""

    faces: list[int] | None = Field(default=None, max_length=20, description="one per save")
    entropy: str = Entropy


class SaveResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    effect: int
    roll: RollRecord
    natural: int
    success: bool
    failed: int  # failed saves against this effect so far


@MECH_D20.event
class TurnEnded(Event):
    unit: str
    saves: tuple[SaveResult, ...] = ()
    ended: tuple[int, ...] = ()


@MECH_D20.decides(EndTurn)
def end_turn(t: Table[MechState], command: EndTurn, actor: str) -> list[Draft]:
    state, current = guards.playing(t)
    guards.nothing_pending(current, "the turn ends")
    if current.turn is None:
        raise RuleViolation("no_turn", "No turn is under way: start one first.")
    unit = guards.controlled(state, current.turn.unit, actor)
    due = saves.saving(unit)
    if command.faces is not None and len(command.faces) != len(due):
        raise KirokuError(
            "faces_mismatch",
            "{unit} saves {n_due} time(s): give one face for each.",
            params={"unit": unit.name, "n_due": len(due)},
        )
    ids = EffectIds(state)
    results: list[SaveResult] = []
    ended: list[int] = []
    started: list[Draft] = []
    for index, applied in enumerate(due):
        faces = None if command.faces is None else [command.faces[index]]
        rolled = t.dice.roll(f"1D20>={saves.SAVE_TARGET}", faces, command.entropy)
        outcome = saves.outcome(applied, rolled.faces[0])
        results.append(
            SaveResult(
                effect=applied.id,
                roll=rolled.record,
                natural=outcome.natural,
                success=outcome.success,
                failed=outcome.failed,
            )
        )
        if outcome.ends:
            ended.append(applied.id)
        user = state.units.get(applied.source) if applied.source else None
        started += effects(ids, outcome.starts, user=user, target=unit, power=applied.power)
    ended += [
        e for e in durations.ending_at_end(state.units, unit.id, unit.turns) if e not in ended
    ]
    event = TurnEnded(unit=unit.id, saves=tuple(results), ended=tuple(ended))
    drafts = [Draft(event), *started]
    after = state
    for draft in drafts:
        after = MECH_D20.fold(after, draft.event, t.next_seq)
    if up(after) is None:
        drafts.append(Draft(RoundBegan(round=current.round + 1)))
    return drafts


@MECH_D20.folds(TurnEnded)
def _turn_ended(state: MechState, event: TurnEnded, seq: int) -> MechState:
    encounter = state.encounter
    unit = state.units.get(event.unit)
    if encounter is None or unit is None:
        return state
    failed = {s.effect: s.failed for s in event.saves if not s.success}
    kept = tuple(
        a.model_copy(update={"failed": failed[a.id]}) if a.id in failed else a for a in unit.effects
    )
    state = end_effects(with_units(state, unit.model_copy(update={"effects": kept})), event.ended)
    return _encounter(
        state, turn=None, done=(*encounter.done, event.unit), last_action=None, last_actor=None
    )


@MECH_D20.says_named(TurnEnded)
def _turn_ended_line(e: TurnEnded, names: Names) -> Message:
    saves = [
        Message(
            N_("セーヴ {natural} {outcome}"),
            {"natural": x.natural, "outcome": SUCCESS if x.success else FAILURE},
        )
        for x in e.saves
    ]
    line = Message(N_("{unit} のターン終了"), {"unit": names.of(e.unit)})
    return noted(line, commas(saves)) if saves else line


# --------------------------------------------------------------------------- extra saves


@MECH_D20.command("extra_save")
class ExtraSave(Command):
    """追加のセーヴィング・スロー (L327–329), granted by a power: a failure never counts."""

    unit: str
    effect: int
    faces: list[int] | None = Field(default=None, max_length=1)
    entropy: str = Entropy


@MECH_D20.event
class ExtraSaveRolled(Event):
    unit: str
    effect: int
    roll: RollRecord
    natural: int
    success: bool


@MECH_D20.decides(ExtraSave)
def extra_save(t: Table[MechState], command: ExtraSave, actor: str) -> list[Draft]:
    state, _ = guards.playing(t)
    unit = guards.controlled(state, command.unit, actor)
    applied = next((a for a in unit.effects if a.id == command.effect), None)
    if applied is None or applied.ending.kind != "save_ends":
        raise RuleViolation(
            "no_such_effect",
            "{unit} has no (セーヴ・終了) effect {effect}.",
            params={"unit": unit.name, "effect": command.effect},
        )
    rolled = t.dice.roll(f"1D20>={saves.SAVE_TARGET}", command.faces, command.entropy)
    outcome = saves.outcome(applied, rolled.faces[0], extra=True)
    event = ExtraSaveRolled(
        unit=unit.id,
        effect=applied.id,
        roll=rolled.record,
        natural=outcome.natural,
        success=outcome.success,
    )
    user = state.units.get(applied.source) if applied.source else None
    after = effects(EffectIds(state), outcome.starts, user=user, target=unit, power=applied.power)
    return [Draft(event), *after]


@MECH_D20.folds(ExtraSaveRolled)
def _extra_saved(state: MechState, event: ExtraSaveRolled, seq: int) -> MechState:
    return end_effects(state, (event.effect,)) if event.success else state


@MECH_D20.says_named(ExtraSaveRolled)
def _extra_save_rolled_line(e: ExtraSaveRolled, names: Names) -> Message:
    shown = roll_words(e.roll)
    saved = Message(
        N_("{unit} 効果{effect}へのセーヴ {natural}: {outcome}"),
        {
            "unit": names.of(e.unit),
            "effect": e.effect,
            "natural": e.natural,
            "outcome": SUCCESS if e.success else FAILURE,
        },
    )
    return bracketed(saved, shown) if shown else saved
