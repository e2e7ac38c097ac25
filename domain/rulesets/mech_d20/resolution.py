"""Resolving a waiting power: the one on top of the stack (the innermost: an opportunity
attack or an interrupt sits above its trigger, L189–190, L195), what a power without an attack
roll does when resolved, and what follows any resolution — the reactions declared while it
waited (L197–199) and the cancelling of a waiting power whose user was knocked out."""

from __future__ import annotations

import re

from pydantic import Field

from domain.model.audience import GM
from domain.model.commands import Command
from domain.model.errors import Forbidden, RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Items, Message
from domain.model.records import Draft
from domain.model.table import Table

from . import conditions, guards, health, uses
from .changes import EffectIds, with_units
from .powers import power_of, self_effects, take_effect, waits, weapon_for
from .rules import MECH_D20
from .sheet import Power, Weapon
from .state import Attack, MechState, Unit
from .terms import term


def waiting_power(
    t: Table[MechState], actor: str, stage: str
) -> tuple[MechState, Attack, Unit, Power, Weapon | None]:
    """The innermost waiting power, at `stage`, with its user (whom `actor` must control)."""
    state, current = guards.playing(t)
    attack = guards.top(current)
    if attack.stage != stage:
        what = "rolled its attack" if attack.stage == "rolled" else "not rolled its attack yet"
        raise RuleViolation(
            "wrong_stage",
            "{power} ({unit}) has {what}.",
            params={"power": attack.power, "unit": attack.unit, "what": what},
        )
    attacker = guards.controlled(state, attack.unit, actor)
    power = power_of(attacker, attack.power)
    return state, attack, attacker, power, weapon_for(attacker, power, attack.weapon)


def popped(state: MechState) -> MechState:
    """The state once the innermost waiting power has resolved."""
    current = state.encounter
    if current is None or not current.attacks:
        return state
    attacks = current.attacks[:-1]
    return state.model_copy(update={"encounter": current.model_copy(update={"attacks": attacks})})


# --------------------------------------------------------------------------- resolve


@MECH_D20.command("resolve")
class Resolve(Command):
    """Resolve a waiting power that has no attack roll (its riders and healing take effect)."""


@MECH_D20.event
class PowerResolved(Event):
    unit: str
    power: str


@MECH_D20.decides(Resolve)
def resolve(t: Table[MechState], command: Resolve, actor: str) -> list[Draft]:
    state, attack, attacker, power, _ = waiting_power(t, actor, "declared")
    if power.attack is not None:
        raise RuleViolation(
            "needs_attack_roll",
            "{power} is an attack: `attack_roll`.",
            params={"power": power.name},
        )
    targets = [state.units[u] for u in attack.targets if not health.out(state.units[u])]
    drafts = [Draft(PowerResolved(unit=attacker.id, power=power.name))]
    drafts += take_effect(state, attacker, power, targets, EffectIds(state))
    drafts += completion(t, state, drafts, attack)
    return drafts


@MECH_D20.folds(PowerResolved)
def _resolved(state: MechState, event: PowerResolved, seq: int) -> MechState:
    return popped(state)


@MECH_D20.says_named(PowerResolved)
def _power_resolved_line(e: PowerResolved, names: Names) -> Message:
    return Message(N_("{unit} の {power} を解決"), _used(e.unit, e.power, names))


def _used(unit: str, power: str, names: Names) -> dict[str, object]:
    """A line's unit by name and its power (a basic attack in the reader's language)."""
    return {"unit": names.of(unit), "power": term(power)}


# --------------------------------------------------------------------------- completion


@MECH_D20.event
class ReactionResolved(Event):
    """A 即応・対応 whose trigger has resolved: it goes ahead (an attack, or a power that
    provokes, waits to be rolled), or is void with nothing spent because the trigger left its
    user unable to act (L199)."""

    unit: str
    power: str
    declared: int  # the seq it was declared at
    voided: bool
    reason: str = ""
    waiting: Attack | None = None


@MECH_D20.event
class PowerCancelled(Event):
    """A waiting power whose user was knocked out before it resolved (by an opportunity attack
    or an interrupt): its action is spent, nothing else happens."""

    unit: str
    power: str
    declared: int


def completion(
    t: Table[MechState], before: MechState, drafts: list[Draft], attack: Attack
) -> list[Draft]:
    """What follows a power's resolution: its queued reactions, then any waiting power whose
    user can no longer act."""
    after = before
    for draft in drafts:
        after = MECH_D20.fold(after, draft.event, t.next_seq)
    out: list[Draft] = []
    ids = EffectIds(after)
    for reaction in attack.reactions:
        reactor = after.units[reaction.unit]
        reason = conditions.cannot_act_off_turn(reactor, self_trigger=True, sees_trigger=True)
        power = power_of(reactor, reaction.power)
        event = ReactionResolved(
            unit=reactor.id,
            power=reaction.power,
            declared=reaction.seq,
            voided=reason is not None,
            reason=str(reason) if reason is not None else "",
            waiting=reaction if reason is None and waits(power) else None,
        )
        out.append(Draft(event))
        if reason is None:  # its use starts now: the user's own effects, then the rest
            out += self_effects(after, reactor, power, ids)
        if reason is None and not waits(power):
            targets = [after.units[u] for u in reaction.targets if not health.out(after.units[u])]
            out += take_effect(after, reactor, power, targets, ids)
    current = after.encounter
    if current is not None:
        for waiting in current.attacks:
            if waiting.seq != attack.seq and after.units[waiting.unit].status != "active":
                cancelled = PowerCancelled(
                    unit=waiting.unit, power=waiting.power, declared=waiting.seq
                )
                out.append(Draft(cancelled))
    return out


@MECH_D20.folds(ReactionResolved)
def _reaction(state: MechState, event: ReactionResolved, seq: int) -> MechState:
    current = state.encounter
    unit = state.units.get(event.unit)
    if current is None or unit is None:
        return state
    if event.voided:  # 「そもそも宣言がされなかったものとして」: the immediate action is back
        used = tuple(u for u in current.immediate_used if u != event.unit)
        return state.model_copy(
            update={"encounter": current.model_copy(update={"immediate_used": used})}
        )
    power = unit.sheet.power(event.power)
    if power is None:
        return state
    state = with_units(state, uses.used(unit, power))
    if event.waiting is None or state.encounter is None:
        return state
    attacks = (*state.encounter.attacks, event.waiting)
    return state.model_copy(
        update={"encounter": state.encounter.model_copy(update={"attacks": attacks})}
    )


@MECH_D20.says_named(ReactionResolved)
def _reaction_resolved_line(e: ReactionResolved, names: Names) -> Message:
    used = _used(e.unit, e.power, names)
    if e.voided:
        return Message(
            N_("{unit} の {power} は無効 (消費なし): {reason}"),
            {**used, "reason": void_reason(e.reason)},
        )
    return Message(N_("{unit} の {power} (即応・対応)"), used)


@MECH_D20.folds(PowerCancelled)
def _cancelled(state: MechState, event: PowerCancelled, seq: int) -> MechState:
    current = state.encounter
    if current is None:
        return state
    waiting = next((a for a in current.attacks if a.seq == event.declared), None)
    freed = {r.unit for r in waiting.reactions} if waiting else set()
    used = tuple(u for u in current.immediate_used if u not in freed)
    attacks = tuple(a for a in current.attacks if a.seq != event.declared)
    return state.model_copy(
        update={
            "encounter": current.model_copy(update={"attacks": attacks, "immediate_used": used})
        }
    )


# Why a reaction was void, as the event records it: `conditions.cannot_act_off_turn`'s message
# in its source words (the catalogs' key), read back so the line says it in the reader's language.
_CONDITIONS_REASON = re.compile(
    r"(?P<unit>.+?) is (?P<conditions>.+)状態 and cannot act outside its turn\."
)
_STATUS_REASON = re.compile(r"(?P<unit>.+?) is (?P<status>.+) and cannot act outside its turn\.")
_UNSEEN_REASON = re.compile(
    r"(?P<unit>.+) cannot see the trigger's source, so cannot act outside its turn\."
)


def void_reason(reason: str) -> object:
    """A void reaction's recorded reason as a message (L199–208), or as written if it is none
    of `cannot_act_off_turn`'s."""
    if found := _CONDITIONS_REASON.fullmatch(reason):
        blocking = Items(term(c) for c in found["conditions"].split("・"))
        return Message(
            N_("{unit}は{conditions}状態で、手番の外では行動できない。"),
            {"unit": found["unit"], "conditions": blocking},
        )
    if found := _STATUS_REASON.fullmatch(reason):
        return Message(
            N_("{unit}は{status}で、手番の外では行動できない。"),
            {"unit": found["unit"], "status": term(found["status"])},
        )
    if found := _UNSEEN_REASON.fullmatch(reason):
        return Message(
            N_("{unit}はトリガーの発生源が見えないため、手番の外では行動できない。"),
            {"unit": found["unit"]},
        )
    return reason


@MECH_D20.says_named(PowerCancelled)
def _power_cancelled_line(e: PowerCancelled, names: Names) -> Message:
    return Message(
        N_("{unit} の {power} は解決されない (使用者が行動不能)"), _used(e.unit, e.power, names)
    )


@MECH_D20.command("withdraw")
class Withdraw(Command):
    """Withdraw the innermost waiting power: its user's player may withdraw a 即応・対応 whose
    trigger did not turn out as its power says (nothing spent, as for a void one, L199); the GM
    may withdraw any waiting power, with the reason (a correction at the table)."""

    reason: str = Field(min_length=1, max_length=300)


@MECH_D20.event
class PowerWithdrawn(Event):
    unit: str
    power: str
    declared: int
    refunded: bool  # a reaction: its immediate action and its use are back
    reason: str


@MECH_D20.decides(Withdraw)
def withdraw(t: Table[MechState], command: Withdraw, actor: str) -> list[Draft]:
    state, current = guards.playing(t)
    attack = guards.top(current)
    user = guards.controlled(state, attack.unit, actor)
    reaction = attack.off_turn == "即応・対応" and attack.stage == "declared"
    if actor != GM and not reaction:
        raise Forbidden(
            "cannot_withdraw",
            "Only a 即応・対応 not yet rolled may be withdrawn by its player; ask the GM.",
        )
    event = PowerWithdrawn(
        unit=user.id,
        power=attack.power,
        declared=attack.seq,
        refunded=reaction,
        reason=command.reason,
    )
    return [Draft(event), *completion(t, state, [Draft(event)], attack)]


@MECH_D20.folds(PowerWithdrawn)
def _withdrawn(state: MechState, event: PowerWithdrawn, seq: int) -> MechState:
    state = popped(state)
    current = state.encounter
    unit = state.units.get(event.unit)
    if not event.refunded or current is None or unit is None:
        return state
    used = tuple(u for u in current.immediate_used if u != event.unit)
    state = state.model_copy(
        update={"encounter": current.model_copy(update={"immediate_used": used})}
    )
    return with_units(state, uses.unused(unit, event.power))


@MECH_D20.says_named(PowerWithdrawn)
def _power_withdrawn_line(e: PowerWithdrawn, names: Names) -> Message:
    said = {**_used(e.unit, e.power, names), "reason": e.reason}
    if e.refunded:
        return Message(N_("{unit} の {power} を取り下げ (消費なし): {reason}"), said)
    return Message(N_("{unit} の {power} を取り下げ: {reason}"), said)
