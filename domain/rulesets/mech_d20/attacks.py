"""Resolving a declared power: the attack roll against a defence its attacker may not see, the
damage roll, and what follows (L265–301, L16–17, L189–199).

The attack total comes from the attacker's sheet and the declared modifiers; the defence from
the target's sheet, sealed for an NPC. Who was hit, missed or critted is public; the defence
and its margin never are: the public roll is `1D20+9`, with no target number (seed notes §3).
An NPC attacker's totals are sealed too (they would give its sheet away).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.audience import GM, seat_number
from domain.commands import Command
from domain.errors import KirokuError, RuleViolation
from domain.events import Event
from domain.lifecycle_events import RollRecord
from domain.records import Draft
from domain.table import Table

from . import advantage, attack_roll, conditions, damage, guards, health, uses
from .attack_roll import Component, Defence
from .bonuses import ATTACK, DAMAGE, Modifier, counted, for_roll
from .changes import EffectIds, effects, with_units
from .changes import damage as damage_draft
from .powers import power_of, take_effect, waits, weapon_for
from .rules import MECH_D20
from .sheet import Power, Weapon
from .state import Attack, MechState, TargetRoll, Unit

Faces = Field(default=None, max_length=20)
Entropy = Field(default="", max_length=64)
Outcome = Literal["hit", "miss"]


class PublicRoll(BaseModel):
    """One target's attack roll as the table sees it."""

    model_config = ConfigDict(frozen=True)

    target: str
    defence: str  # the defence's name (the power says it); never its value
    outcome: Outcome
    critical: bool
    natural: int | None = None  # the rest only for an attacker whose sheet is public
    total: int | None = None
    roll: RollRecord | None = None
    parts: tuple[Component, ...] = ()
    modifiers: tuple[Modifier, ...] = ()


class SecretRoll(BaseModel):
    """The same roll for the GM: the attacker's numbers and the defence it met."""

    model_config = ConfigDict(frozen=True)

    target: str
    natural: int
    total: int
    roll: RollRecord
    parts: tuple[Component, ...]
    modifiers: tuple[Modifier, ...]
    defence: Defence


class AttackSecret(BaseModel):
    model_config = ConfigDict(frozen=True)

    rolls: tuple[SecretRoll, ...]


@MECH_D20.event
class AttackRolled(Event):
    unit: str
    power: str
    rolls: tuple[PublicRoll, ...]
    complete: bool  # nothing more to roll: the power has resolved
    reroll: bool = False  # a hero point's reroll of one target's roll (L428)
    secret: AttackSecret | None = None


class OwnDice(BaseModel):
    model_config = ConfigDict(frozen=True)

    rolls: tuple[RollRecord, ...]


@MECH_D20.event
class OwnRolls(Event):
    """A private PC's own dice, sealed to its seat (the GM's copy is beside the defences)."""

    unit: str
    secret: OwnDice | None = None


MECH_D20.ignores(OwnRolls)


class Rolled(BaseModel):
    model_config = ConfigDict(frozen=True)

    shown: PublicRoll
    sealed: SecretRoll
    kept: TargetRoll


def roll_target(
    t: Table[MechState],
    attack: Attack,
    attacker: Unit,
    power: Power,
    weapon: Weapon | None,
    target: Unit,
    *,
    face: int | None,
    entropy: str,
    public: bool,
) -> Rolled:
    """One attack roll against one target (L272–276, L335–397, L6, L296)."""
    assert power.attack is not None
    seen = target.id not in attack.unseen and conditions.sees(attacker, target)
    parts = attack_roll.components(attacker.sheet, power, weapon)
    wanted = [
        *for_roll(attack.modifiers, ATTACK),
        *attack_roll.effect_modifiers(attacker, ATTACK),
        *attack_roll.situational(target, power, seen=seen),
    ]
    found = advantage.sources(attacker, target, power, declared=attack.advantage, seen=seen)
    bonus_for_advantage = advantage.modifier(found)
    if bonus_for_advantage is not None:
        wanted.append(bonus_for_advantage)
    kept = counted(wanted)
    bonus = attack_roll.attack_bonus(parts, kept)
    rolled = t.dice.roll(
        f"1D20{bonus:+d}" if bonus else "1D20", None if face is None else [face], entropy
    )
    natural, total = rolled.faces[0], rolled.total
    met = attack_roll.defence(target, power.attack.defence)
    hit = attack_roll.hits(natural, total, met.value)
    critical = attack_roll.critical(natural, hit=hit, coup_de_grace=attack.coup_de_grace)
    shown = PublicRoll(
        target=target.id, defence=met.name, outcome="hit" if hit else "miss", critical=critical
    )
    if public:
        shown = shown.model_copy(
            update={
                "natural": natural,
                "total": total,
                "roll": rolled.record,
                "parts": parts,
                "modifiers": kept,
            }
        )
    sealed = SecretRoll(
        target=target.id,
        natural=natural,
        total=total,
        roll=rolled.record,
        parts=parts,
        modifiers=kept,
        defence=met,
    )
    keep = TargetRoll(
        target=target.id,
        natural=natural,
        total=total,
        defence=met.value,
        hit=hit,
        critical=critical,
    )
    return Rolled(shown=shown, sealed=sealed, kept=keep)


def may_reroll(state: MechState, unit: Unit) -> bool:
    """Can the attacker's player still spend a hero point on its own roll (L428)?"""
    seat = seat_number(unit.owner)
    if seat is None or guards.dominated(unit):  # a 支配 unit's roll is its dominator's
        return False
    held = state.hero.get(seat)
    return held is not None and held.held > 0 and held.spent_day != state.day


def public_numbers(state: MechState, unit: Unit) -> bool:
    return not guards.sealed_to(state, unit)


def own_rolls(state: MechState, unit: Unit, records: list[RollRecord]) -> list[Draft]:
    if unit.kind == "pc" and state.private_pc_sheets and records:
        event = OwnRolls(unit=unit.id, secret=OwnDice(rolls=tuple(records)))
        return [Draft(event, audience=(GM, unit.owner))]
    return []


def attacker_of(
    t: Table[MechState], actor: str, stage: str
) -> tuple[MechState, Attack, Unit, Power, Weapon | None]:
    state, current = guards.playing(t)
    attack = guards.top(current)
    if attack.stage != stage:
        what = "rolled its attack" if attack.stage == "rolled" else "not rolled its attack yet"
        raise RuleViolation("wrong_stage", f"{attack.power} ({attack.unit}) has {what}.")
    attacker = guards.controlled(state, attack.unit, actor)
    power = power_of(attacker, attack.power)
    return state, attack, attacker, power, weapon_for(attacker, power, attack.weapon)


# --------------------------------------------------------------------------- attack roll


@MECH_D20.command("attack_roll")
class AttackRoll(Command):
    """Roll the waiting attack: one d20 per target (L16, L231); `faces` in target order."""

    faces: list[int] | None = Faces
    entropy: str = Entropy


@MECH_D20.decides(AttackRoll)
def attack_roll_(t: Table[MechState], command: AttackRoll, actor: str) -> list[Draft]:
    state, attack, attacker, power, weapon = attacker_of(t, actor, "declared")
    if power.attack is None:
        raise RuleViolation("no_attack_roll", f"{power.name} has no attack roll: `resolve` it.")
    live = [state.units[u] for u in attack.targets if not health.out(state.units[u])]
    if command.faces is not None and len(command.faces) != len(live):
        raise KirokuError("faces_mismatch", f"Give one d20 face for each of {len(live)} target(s).")
    public = public_numbers(state, attacker)
    results = [
        roll_target(
            t,
            attack,
            attacker,
            power,
            weapon,
            target,
            face=None if command.faces is None else command.faces[i],
            entropy=command.entropy,
            public=public,
        )
        for i, target in enumerate(live)
    ]
    kept = tuple(r.kept for r in results)
    complete = power.hit is None or not (any(k.hit for k in kept) or power.miss_half)
    if not all(k.hit for k in kept) and may_reroll(state, attacker):
        complete = False  # the player may spend a hero point on a miss (L428) or go on
    event = AttackRolled(
        unit=attacker.id,
        power=power.name,
        rolls=tuple(r.shown for r in results),
        complete=complete,
        secret=AttackSecret(rolls=tuple(r.sealed for r in results)),
    )
    drafts = [Draft(event, audience=(GM,))]
    drafts += own_rolls(state, attacker, [r.sealed.roll for r in results])
    if complete:
        ids = EffectIds(state)
        for k in kept:
            if k.hit:
                drafts += effects(
                    ids,
                    power.effects,
                    user=attacker,
                    target=state.units[k.target],
                    power=power.name,
                )
        drafts += completion(t, state, drafts, attack)
    return drafts


@MECH_D20.folds(AttackRolled)
def _attack_rolled(state: MechState, event: AttackRolled, seq: int) -> MechState:
    current = state.encounter
    if current is None or not current.attacks:
        return state
    top = current.attacks[-1]
    if event.complete:
        return _pop(state)
    rolls = _kept_rolls(event)
    if rolls is None:
        return state
    if event.reroll:
        changed = {r.target: r for r in rolls}
        merged = tuple(changed.get(r.target, r) for r in top.rolls)
        top = top.model_copy(update={"rolls": merged, "rerolled": True})
    else:
        top = top.model_copy(update={"stage": "rolled", "rolls": rolls})
    attacks = (*current.attacks[:-1], top)
    return state.model_copy(update={"encounter": current.model_copy(update={"attacks": attacks})})


def _kept_rolls(event: AttackRolled) -> tuple[TargetRoll, ...] | None:
    if event.secret is None:
        return None
    shown = {r.target: r for r in event.rolls}
    return tuple(
        TargetRoll(
            target=r.target,
            natural=r.natural,
            total=r.total,
            defence=r.defence.value,
            hit=shown[r.target].outcome == "hit",
            critical=shown[r.target].critical,
        )
        for r in event.secret.rolls
    )


def _pop(state: MechState, seq: int | None = None) -> MechState:
    current = state.encounter
    if current is None or not current.attacks:
        return state
    if seq is None:
        attacks = current.attacks[:-1]
    else:
        attacks = tuple(a for a in current.attacks if a.seq != seq)
    return state.model_copy(update={"encounter": current.model_copy(update={"attacks": attacks})})


# --------------------------------------------------------------------------- damage roll


@MECH_D20.command("damage_roll")
class DamageRoll(Command):
    """Roll the damage once for every target (L17, L289); crit-only dice apart (L300–301).
    A waiting attack whose targets were all missed (or that deals no damage) just resolves."""

    faces: list[int] | None = Faces
    crit_faces: list[int] | None = Faces
    entropy: str = Entropy


class Dealt(BaseModel):
    model_config = ConfigDict(frozen=True)

    target: str
    amount: int
    critical: bool = False
    half: bool = False  # a miss of a power with 半減 on a miss (L281)
    negated: bool = False  # a hit an interrupt turned into a miss (L196)


NO_DAMAGE = damage.DamageTerms(dice=(), flat=0)  # a power that only has riders


class DamageSecret(BaseModel):
    model_config = ConfigDict(frozen=True)

    expression: str
    maximum: int | None = None
    roll: RollRecord | None = None
    crit_roll: RollRecord | None = None


@MECH_D20.event
class DamageRolled(Event):
    unit: str
    power: str
    dealt: tuple[Dealt, ...]
    maximised: bool = False  # a critical: the normal dice counted at their maximum (L297)
    expression: str | None = None  # the rest only for an attacker whose sheet is public
    maximum: int | None = None
    roll: RollRecord | None = None
    crit_roll: RollRecord | None = None
    secret: DamageSecret | None = None


@MECH_D20.decides(DamageRoll)
def damage_roll(t: Table[MechState], command: DamageRoll, actor: str) -> list[Draft]:
    state, attack, attacker, power, weapon = attacker_of(t, actor, "rolled")
    assert power.attack is not None
    terms = NO_DAMAGE
    if power.hit is not None:
        terms = damage.terms(
            attacker.sheet,
            power,
            weapon,
            extra_dice=attack.extra_dice,
            crit_dice=attack.crit_dice,
            modifiers=[
                *for_roll(attack.modifiers, DAMAGE),
                *attack_roll.effect_modifiers(attacker, DAMAGE),
            ],
        )
    verdicts = []
    for kept in attack.rolls:
        target = state.units[kept.target]
        if health.out(target):
            continue
        now = attack_roll.defence(target, power.attack.defence).value  # after any interrupt
        hit = attack_roll.hits(kept.natural, kept.total, now)
        verdicts.append((target, hit, kept.critical and hit, kept.hit and not hit))
    rolled = None
    if power.hit is not None and (
        any(hit and not crit for _, hit, crit, _ in verdicts)
        or (power.miss_half and any(not hit for _, hit, _, _ in verdicts))
    ):
        rolled = t.dice.roll(terms.expression, command.faces, command.entropy)
    crit_rolled = None
    if any(crit for *_, crit, _ in verdicts) and terms.crit_dice:
        crit_rolled = t.dice.roll(
            damage.expression(terms.crit_dice), command.crit_faces, command.entropy
        )
    crit_total = terms.maximum + (crit_rolled.total if crit_rolled else 0)
    dealt = [
        Dealt(
            target=target.id,
            amount=damage.dealt(
                hit=hit,
                critical=crit,
                half_on_miss=power.miss_half,
                rolled=rolled.total if rolled else 0,
                crit_total=crit_total,
            ),
            critical=crit,
            half=not hit and power.miss_half,
            negated=negated,
        )
        for target, hit, crit, negated in verdicts
    ]
    maximised = power.hit is not None and any(d.critical for d in dealt)
    record = rolled.record if rolled else None
    crit_record = crit_rolled.record if crit_rolled else None
    public = public_numbers(state, attacker)
    secret = DamageSecret(
        expression=terms.expression,
        maximum=terms.maximum if maximised else None,
        roll=record,
        crit_roll=crit_record,
    )
    event = DamageRolled(
        unit=attacker.id,
        power=power.name,
        dealt=tuple(dealt),
        maximised=maximised,
        expression=terms.expression if public and power.hit is not None else None,
        maximum=(terms.maximum if maximised else None) if public else None,
        roll=record if public else None,
        crit_roll=crit_record if public else None,
        secret=None if public else secret,
    )
    drafts = [Draft(event, audience=() if public else guards.sealed_to(state, attacker))]
    drafts += own_rolls(state, attacker, [r for r in (record, crit_record) if r is not None])
    after = state
    ids = EffectIds(state)
    for target, hit, _, _ in verdicts:
        amount = next(d.amount for d in dealt if d.target == target.id)
        if amount > 0:
            draft = damage_draft(
                after, after.units[target.id], amount, f"{attacker.name}の{power.name}"
            )
            drafts.append(draft)
            after = MECH_D20.fold(after, draft.event, t.next_seq)
        struck = after.units[target.id]
        dropped_now = target.status == "active" and struck.status != "active"
        if hit and not dropped_now and not health.out(struck):
            drafts += effects(ids, power.effects, user=attacker, target=struck, power=power.name)
    drafts += completion(t, state, drafts, attack)
    return drafts


@MECH_D20.folds(DamageRolled)
def _damage_rolled(state: MechState, event: DamageRolled, seq: int) -> MechState:
    return _pop(state)


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
    state, attack, attacker, power, _ = attacker_of(t, actor, "declared")
    if power.attack is not None:
        raise RuleViolation("needs_attack_roll", f"{power.name} is an attack: `attack_roll`.")
    targets = [state.units[u] for u in attack.targets if not health.out(state.units[u])]
    drafts = [Draft(PowerResolved(unit=attacker.id, power=power.name))]
    drafts += take_effect(state, attacker, power, targets, EffectIds(state))
    drafts += completion(t, state, drafts, attack)
    return drafts


@MECH_D20.folds(PowerResolved)
def _resolved(state: MechState, event: PowerResolved, seq: int) -> MechState:
    return _pop(state)


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
            reason=reason or "",
            waiting=reaction if reason is None and waits(power) else None,
        )
        out.append(Draft(event))
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
