"""The damage roll (L279–301): once for every target of the power (L17, L289), the normal dice
at their maximum for a critical target (L297–299) and the crit-only dice rolled (L300–301);
half on a miss where the power says so (L281). Each target's hp then changes in its own event,
and the power's riders reach the targets it hit."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from domain.model.commands import Command
from domain.model.events import Event
from domain.model.lifecycle_events import RollRecord
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.model.table import Table

from . import attack_roll, damage, guards, health
from .attacks import own_rolls, public_numbers
from .bonuses import DAMAGE, for_roll
from .changes import EffectIds, effects
from .changes import damage as damage_draft
from .resolution import completion, popped, waiting_power
from .rules import MECH_D20
from .sheet import Power, Weapon
from .state import Attack, MechState, Unit
from .terms import term
from .words import bracketed, commas, noted, roll_words, semicolons

Faces = Field(default=None, max_length=20)
Entropy = Field(default="", max_length=64)


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


def damage_terms(
    attack: Attack, attacker: Unit, power: Power, weapon: Weapon | None
) -> damage.DamageTerms:
    """The one damage roll of a waiting attack (L279–301): the power's dice, the declared
    class-feature and crit-only dice, and the damage modifiers as they stack."""
    if power.hit is None:
        return NO_DAMAGE
    return damage.terms(
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


@MECH_D20.decides(DamageRoll)
def damage_roll(t: Table[MechState], command: DamageRoll, actor: str) -> list[Draft]:
    state, attack, attacker, power, weapon = waiting_power(t, actor, "rolled")
    assert power.attack is not None
    terms = damage_terms(attack, attacker, power, weapon)
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
    return popped(state)


@MECH_D20.says_named(DamageRolled)
def _damage_rolled_line(e: DamageRolled, names: Names) -> Message:
    dealt: list[object] = []
    for d in e.dealt:
        said: object = Message(
            N_("{target} {amount}"), {"target": names.of(d.target), "amount": d.amount}
        )
        for note, on in (
            (N_("クリティカル"), d.critical),
            (N_("半減"), d.half),
            (N_("無効化"), d.negated),
        ):
            if on:
                said = noted(said, note)
        dealt.append(said)
    shown: list[object] = [roll_words(e.roll)]
    if e.maximised and e.maximum is not None:
        shown.append(
            Message(
                N_("{expression} の最大値 {maximum}"),
                {"expression": e.expression, "maximum": e.maximum},
            )
        )
    shown.append(roll_words(e.crit_roll))
    line = Message(
        N_("{unit} {power} ダメージ: {dealt}"),
        {"unit": names.of(e.unit), "power": term(e.power), "dealt": commas(dealt)},
    )
    rolls = [x for x in shown if x]
    return bracketed(line, semicolons(rolls)) if rolls else line
