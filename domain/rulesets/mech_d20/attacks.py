"""The attack roll against a defence its attacker may not see (L265–277, L6, L16, L296).

The attack total comes from the attacker's sheet and the declared modifiers; the defence from
the target's sheet, sealed for an NPC. Who was hit, missed or critted is public; the defence
and its margin never are: the public roll is `1D20+9`, with no target number (seed notes §3).
An NPC attacker's totals are sealed too (they would give its sheet away).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.model.audience import GM, seat_number
from domain.model.commands import Command
from domain.model.errors import KirokuError, RuleViolation
from domain.model.events import Event
from domain.model.lifecycle_events import RollRecord
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.model.table import Table

from . import advantage, attack_roll, conditions, guards, health
from .attack_roll import Component, Defence
from .bonuses import ATTACK, Modifier, counted, for_roll
from .changes import EffectIds, effects
from .resolution import completion, popped, waiting_power
from .rules import MECH_D20
from .sheet import Power, Weapon
from .state import Attack, MechState, TargetRoll, Unit
from .terms import term
from .words import bracketed, roll_words, semicolons

Faces = Field(default=None, max_length=20)
Entropy = Field(default="", max_length=64)
Outcome = Literal["hit", "miss"]
OUTCOME_WORDS = {"hit": N_("ヒット"), "miss": N_("ミス")}  # as the line says it


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


@MECH_D20.says_named(OwnRolls)
def _own_rolls_line(e: OwnRolls, names: Names) -> Message:
    rolls = "; ".join(roll_words(r) for r in e.secret.rolls) if e.secret else ""
    if not rolls:
        return Message(N_("{unit} の出目 (非公開)"), {"unit": names.of(e.unit)})
    return Message(N_("{unit} の出目: {rolls}"), {"unit": names.of(e.unit), "rolls": rolls})


MECH_D20.ignores(OwnRolls)


class Rolled(BaseModel):
    model_config = ConfigDict(frozen=True)

    shown: PublicRoll
    sealed: SecretRoll
    kept: TargetRoll


class Planned(BaseModel):
    """What one target's attack roll will add up, before the die is cast."""

    model_config = ConfigDict(frozen=True)

    parts: tuple[Component, ...]
    modifiers: tuple[Modifier, ...]
    dice: str  # the dice command it rolls, e.g. 1D20+9 (never the defence)


def plan(
    attack: Attack, attacker: Unit, power: Power, weapon: Weapon | None, target: Unit | None
) -> Planned:
    """The attack roll against one target (L272–276, L335–397): sheet parts, the declared and
    situational modifiers as they stack, and the dice command (the table's pane shows it).
    Without a target, what every target shares (the attacker's side only)."""
    assert power.attack is not None
    parts = attack_roll.components(attacker.sheet, power, weapon)
    wanted = [
        *for_roll(attack.modifiers, ATTACK),
        *attack_roll.effect_modifiers(attacker, ATTACK),
    ]
    if target is not None:
        seen = target.id not in attack.unseen and conditions.sees(attacker, target)
        wanted += attack_roll.situational(target, power, seen=seen)
        found = advantage.sources(attacker, target, power, declared=attack.advantage, seen=seen)
        bonus_for_advantage = advantage.modifier(found)
        if bonus_for_advantage is not None:
            wanted.append(bonus_for_advantage)
    kept = counted(wanted)
    bonus = attack_roll.attack_bonus(parts, kept)
    return Planned(parts=parts, modifiers=kept, dice=f"1D20{bonus:+d}" if bonus else "1D20")


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
    planned = plan(attack, attacker, power, weapon, target)
    parts, kept = planned.parts, planned.modifiers
    rolled = t.dice.roll(planned.dice, None if face is None else [face], entropy)
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


# --------------------------------------------------------------------------- attack roll


@MECH_D20.command("attack_roll")
class AttackRoll(Command):
    """Roll the waiting attack: one d20 per target (L16, L231); `faces` in target order."""

    faces: list[int] | None = Faces
    entropy: str = Entropy


@MECH_D20.decides(AttackRoll)
def attack_roll_(t: Table[MechState], command: AttackRoll, actor: str) -> list[Draft]:
    state, attack, attacker, power, weapon = waiting_power(t, actor, "declared")
    if power.attack is None:
        raise RuleViolation(
            "no_attack_roll",
            "{power} has no attack roll: `resolve` it.",
            params={"power": power.name},
        )
    live = [state.units[u] for u in attack.targets if not health.out(state.units[u])]
    if command.faces is not None and len(command.faces) != len(live):
        raise KirokuError(
            "faces_mismatch",
            "Give one d20 face for each of {n_live} target(s).",
            params={"n_live": len(live)},
        )
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
        return popped(state)
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


@MECH_D20.says_named(AttackRolled)
def _attack_rolled_line(e: AttackRolled, names: Names) -> Message:
    parts: list[object] = []
    for roll in e.rolls:
        shown = roll_words(roll.roll)
        outcome = N_("クリティカル") if roll.critical else OUTCOME_WORDS[roll.outcome]
        target = Message(
            N_("{target} ({defence}): {outcome}"),
            {"target": names.of(roll.target), "defence": term(roll.defence), "outcome": outcome},
        )
        parts.append(bracketed(target, shown) if shown else target)
    said = {"unit": names.of(e.unit), "power": term(e.power), "results": semicolons(parts)}
    if e.reroll:
        return Message(N_("{unit} 振り直し {power} 命中ロール — {results}"), said)
    return Message(N_("{unit} {power} 命中ロール — {results}"), said)


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
