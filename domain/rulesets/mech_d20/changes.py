"""Events every mechanic shares: a unit's hp changes, an effect starts, effects end.

An hp change is one event per unit, so each unit's number goes to its own audience: a public
PC's hp is public, an NPC's (and a private PC's) is sealed; 半壊 and the status are public
(L438). Dropping to 戦闘不能 ends the unit's harmful effects in the same event (L444).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pydantic import BaseModel, ConfigDict

from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Items, Message
from domain.model.records import Draft

from . import durations, health
from .bonuses import applies_words
from .effects import Effect
from .guards import sealed_to
from .rules import MECH_D20
from .state import Applied, Ending, MechState, Status, Unit
from .terms import term
from .words import bracketed, commas


class HpSecret(BaseModel):
    model_config = ConfigDict(frozen=True)

    hp: int


@MECH_D20.event
class HpChanged(Event):
    unit: str
    change: int  # −damage, +healing actually applied (from 0 when hp was ≤ 0, L461)
    cause: str
    bloodied: bool
    status: Status
    out: bool
    prone: bool = False  # back from 戦闘不能 (L463)
    surge: bool = False  # a 回復力 was spent for it (L448)
    ended: tuple[int, ...] = ()  # harmful effects that end on dropping (L444)
    hp: int | None = None  # a public unit's hp
    secret: HpSecret | None = None


@MECH_D20.folds(HpChanged)
def _hp_changed(state: MechState, event: HpChanged, seq: int) -> MechState:
    found = state.units.get(event.unit)
    if found is None:
        return state
    hp = event.hp if event.hp is not None else event.secret.hp if event.secret else found.hp
    update: dict[str, object] = {"hp": hp, "status": event.status}
    if event.prone:
        update["prone"] = True
    if event.surge:
        update["surges"] = max(0, found.surges - 1)
    changed = durations.without(found, event.ended).model_copy(update=update)
    return with_units(state, changed)


@MECH_D20.says_named(HpChanged)
def _hp_changed_line(e: HpChanged, names: Names) -> Message:
    hp = e.hp if e.hp is not None else e.secret.hp if e.secret else None
    flags: list[object] = [f for f, on in ((BLOODIED, e.bloodied), (OUT, e.out)) if on]
    if e.status != "active":
        flags.append(term(e.status))
    line = Message(
        N_("{unit} {change} ({cause})"),
        {
            "unit": names.of(e.unit),
            "change": f"{e.change:+d}",
            "cause": cause_words(e.cause, names),
        },
    )
    if hp is not None:
        line = Message(N_("{line} hp {hp}"), {"line": line, "hp": hp})
    return bracketed(line, commas(flags)) if flags else line


BLOODIED = N_("半壊")  # L437
OUT = N_("脱落")  # out of the fight for good (health.out)
# The causes the rules write (turns.py, units.py), each in the reader's language; any other is
# 「<attacker>の<power>」 (damage_rolls.py) or a power's or a GM's words.
CAUSES = {
    "継続的ダメージ": N_("継続的ダメージ"),
    "継続的ダメージ (遅延)": N_("継続的ダメージ (遅延)"),
    "戦闘不能セーヴ 20": N_("戦闘不能セーヴ 20"),
    "heal": N_("GMの回復"),  # the GM's heal without a reason (units.py)
}


def cause_words(cause: str, names: Names) -> object:
    """An hp change's cause as the line says it: 「<attacker>の<power>」 with the attacker's
    name (one of the units the reader knows by name) apart from its power, so each reads in
    the reader's language."""
    if cause in CAUSES:
        return CAUSES[cause]
    for name in sorted(set(names.people.values()), key=len, reverse=True):
        if cause.startswith(f"{name}の") and len(cause) > len(name) + 1:
            power = cause[len(name) + 1 :]
            return Message(N_("{unit}の{power}"), {"unit": name, "power": term(power)})
    return term(cause)


def damage(state: MechState, target: Unit, amount: int, cause: str) -> Draft:
    change = health.damaged(target, amount)
    ended = durations.harmful(target) if change.dropped else ()
    return _draft(state, target, -amount, cause, change, ended)


def healing(
    state: MechState, target: Unit, amount: int, cause: str, *, surge: bool = False
) -> Draft:
    change = health.healed(target, amount)
    return _draft(state, target, change.hp - max(target.hp, 0), cause, change, (), surge=surge)


def _draft(
    state: MechState,
    target: Unit,
    delta: int,
    cause: str,
    change: health.HpChange,
    ended: tuple[int, ...],
    *,
    surge: bool = False,
) -> Draft:
    after = target.model_copy(update={"hp": change.hp, "status": change.status})
    audience = sealed_to(state, target)
    event = HpChanged(
        unit=target.id,
        change=delta,
        cause=cause,
        bloodied=change.bloodied,
        status=change.status,
        out=health.out(after),
        prone=change.revived,
        surge=surge,
        ended=ended,
        hp=None if audience else change.hp,
        secret=HpSecret(hp=change.hp) if audience else None,
    )
    return Draft(event, audience=audience)


@MECH_D20.event
class EffectApplied(Event):
    unit: str
    id: int
    effect: Effect
    source: str | None = None
    power: str | None = None
    ending: Ending


@MECH_D20.folds(EffectApplied)
def _applied(state: MechState, event: EffectApplied, seq: int) -> MechState:
    found = state.units.get(event.unit)
    if found is None:
        return state
    applied = Applied(
        id=event.id,
        effect=event.effect,
        source=event.source,
        power=event.power,
        ending=event.ending,
    )
    if "伏せ" in event.effect.conditions:  # knocked 伏せ: lies there until it stands (L365)
        found = found.model_copy(update={"prone": True})
        rest = tuple(c for c in event.effect.conditions if c != "伏せ")
        applied = applied.model_copy(
            update={"effect": applied.effect.model_copy(update={"conditions": rest})}
        )
    kept = applied.effect
    if kept.conditions or kept.ongoing or kept.modifiers or kept.aftereffect:
        found = found.model_copy(update={"effects": (*found.effects, applied)})
    changed = found
    return with_units(state, changed).model_copy(
        update={"next_effect": max(state.next_effect, event.id + 1)}
    )


@MECH_D20.says_named(EffectApplied)
def _effect_applied_line(e: EffectApplied, names: Names) -> Message:
    what: list[object] = [term(c) for c in e.effect.conditions]
    if e.effect.ongoing:
        what.append(Message(N_("継続的ダメージ{amount}"), {"amount": e.effect.ongoing}))
    what += [
        Message(
            N_("{applies} {value}"), {"applies": applies_words(m.applies), "value": f"{m.value:+d}"}
        )
        for m in e.effect.modifiers
    ]
    return Message(
        N_("{unit}: {what} ({power})"),
        {
            "unit": names.of(e.unit),
            "what": Items(what) if what else e.effect.text,
            "power": term(e.power or ""),
        },
    )


@MECH_D20.event
class EffectsEnded(Event):
    ids: tuple[int, ...]
    reason: str


@MECH_D20.folds(EffectsEnded)
def _ended(state: MechState, event: EffectsEnded, seq: int) -> MechState:
    return end_effects(state, event.ids)


@MECH_D20.says(EffectsEnded)
def _effects_ended_line(e: EffectsEnded) -> Message:
    reason: object = e.reason
    if e.reason.endswith(ANOTHER_MODE):  # powers.py: a [モード] ends the last one's effects
        reason = Message(N_("{power}: 別の[モード]"), {"power": e.reason[: -len(ANOTHER_MODE)]})
    return Message(
        N_("効果終了 ({ids}): {reason}"), {"ids": ", ".join(map(str, e.ids)), "reason": reason}
    )


ANOTHER_MODE = ": another [モード]"  # as powers.py wrote it


def end_effects(state: MechState, ids: Iterable[int]) -> MechState:
    gone = tuple(ids)
    if not gone:
        return state
    changed = [durations.without(u, gone) for u in state.units.values()]
    return with_units(state, *changed)


class EffectIds:
    """Numbers for the effects one command starts (the state's next, then onwards)."""

    def __init__(self, state: MechState) -> None:
        self._next = state.next_effect

    def take(self) -> int:
        number = self._next
        self._next += 1
        return number


def effects(
    ids: EffectIds,
    riders: Iterable[Effect],
    *,
    user: Unit | None,
    target: Unit,
    power: str | None,
) -> Iterator[Draft]:
    """EffectApplied for each rider the target does not already have (L314–318)."""
    present = target
    for rider in riders:
        if durations.already_has(present, rider):
            continue
        applied = durations.applied(rider, id=ids.take(), user=user, target=present, power=power)
        present = present.model_copy(update={"effects": (*present.effects, applied)})
        yield Draft(
            EffectApplied(
                unit=target.id,
                id=applied.id,
                effect=rider,
                source=applied.source,
                power=power,
                ending=applied.ending,
            )
        )


def with_units(state: MechState, *changed: Unit) -> MechState:
    return state.model_copy(update={"units": {**state.units, **{u.id: u for u in changed}}})
