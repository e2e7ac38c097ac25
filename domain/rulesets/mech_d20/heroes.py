"""ヒーローポイント at the table (L418–428): awarded by the GM, given between players, spent on
an extra action on one's own turn or on rerolling one's own attack roll."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import Field

from domain.model.audience import GM, seat_number
from domain.model.commands import Command
from domain.model.errors import Forbidden, KirokuError, RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.model.table import Table

from . import actions, guards, health, hero
from .attacks import AttackRolled, AttackSecret, own_rolls, public_numbers, roll_target
from .resolution import waiting_power
from .rules import MECH_D20
from .state import Hero, MechState, Unit
from .units import UnitId
from .words import seat_called


def _hero(state: MechState, seat: int) -> Hero:
    return state.hero.get(seat, Hero())


@MECH_D20.command("award_hero_point")
class AwardHeroPoint(Command):
    """GM: a hero point for play to a PC's 得意 or 苦手 (L422)."""

    seat: int = Field(ge=1, le=16)
    reason: str = Field(default="", max_length=200)


@MECH_D20.command("give_hero_point")
class GiveHeroPoint(Command):
    """A player gives their hero point to another player (L423)."""

    seat: int = Field(ge=1, le=16)


@MECH_D20.event
class HeroPointGained(Event):
    seat: int
    giver: int | None = None  # a seat, or None: awarded by the GM
    reason: str = ""


@MECH_D20.decides(AwardHeroPoint)
def award(t: Table[MechState], command: AwardHeroPoint, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "award hero points")
    t.known_seat(f"seat:{command.seat}")
    hero.receive(_hero(state, command.seat), command.seat)
    return [Draft(HeroPointGained(seat=command.seat, reason=command.reason))]


@MECH_D20.decides(GiveHeroPoint)
def give(t: Table[MechState], command: GiveHeroPoint, actor: str) -> list[Draft]:
    state = t.started()
    giver = t.seat_of(actor)
    t.known_seat(f"seat:{command.seat}")
    if giver == command.seat:
        raise KirokuError("same_seat", "Give the hero point to another player.")
    if _hero(state, giver).held < 1:
        raise RuleViolation(
            "no_hero_point", "seat:{giver} holds no hero point.", params={"giver": giver}
        )
    hero.receive(_hero(state, command.seat), command.seat)
    return [Draft(HeroPointGained(seat=command.seat, giver=giver))]


@MECH_D20.folds(HeroPointGained)
def _gained(state: MechState, event: HeroPointGained, seq: int) -> MechState:
    points = dict(state.hero)
    points[event.seat] = _hero(state, event.seat).model_copy(
        update={"held": _hero(state, event.seat).held + 1}
    )
    if event.giver is not None:
        points[event.giver] = _hero(state, event.giver).model_copy(
            update={"held": max(0, _hero(state, event.giver).held - 1)}
        )
    return state.model_copy(update={"hero": points})


@MECH_D20.says_named(HeroPointGained)
def _hero_point_gained_line(e: HeroPointGained, seats: Mapping[int, str]) -> Message:
    giver = seat_called(e.giver, seats) if e.giver else "GM"
    return Message(
        N_("ヒーローポイント: {giver} → {seat}"),
        {"giver": giver, "seat": seat_called(e.seat, seats)},
    )


@MECH_D20.event
class HeroPointSpent(Event):
    seat: int
    unit: str
    use: Literal["action", "reroll"]


def _owner_seat(unit: Unit, actor: str) -> int:
    seat = seat_number(unit.owner)
    if seat is None:
        raise RuleViolation("no_hero_points", "Hero points are the players' (L424).")
    if actor not in (GM, unit.owner):
        raise Forbidden("not_your_unit", "{unit} is not your unit.", params={"unit": unit.name})
    return seat


@MECH_D20.command("hero_action")
class HeroAction(Command):
    """Spend the seat's hero point on one more action this turn (L427; 朦朧 may, 支配 not)."""

    unit: str = UnitId


@MECH_D20.decides(HeroAction)
def hero_action(t: Table[MechState], command: HeroAction, actor: str) -> list[Draft]:
    state, current = guards.playing(t)
    unit = guards.unit(state, command.unit)
    seat = _owner_seat(unit, actor)
    if guards.started_turn(current, unit) is None:
        raise RuleViolation("not_your_turn", "A hero point's action is taken on one's own turn.")
    if guards.dominated(unit):
        raise RuleViolation(
            "dominated_no_hero_action",
            "{unit} is 支配状態: no hero point buys it an action (L391).",
            params={"unit": unit.name},
        )
    if unit.status != "active":
        raise RuleViolation(
            "cannot_act", "{unit} is {status}.", params={"unit": unit.name, "status": unit.status}
        )
    hero.spend(_hero(state, seat), seat, state.day)
    return [Draft(HeroPointSpent(seat=seat, unit=unit.id, use="action"))]


@MECH_D20.folds(HeroPointSpent)
def _spent(state: MechState, event: HeroPointSpent, seq: int) -> MechState:
    held = _hero(state, event.seat)
    spent = held.model_copy(update={"held": max(0, held.held - 1), "spent_day": state.day})
    points = {**state.hero, event.seat: spent}
    state = state.model_copy(update={"hero": points})
    current = state.encounter
    if event.use == "action" and current is not None and current.turn is not None:
        turn = actions.hero_action(current.turn)
        state = state.model_copy(update={"encounter": current.model_copy(update={"turn": turn})})
    return state


@MECH_D20.says_named(HeroPointSpent)
def _hero_point_spent_line(e: HeroPointSpent, names: Names) -> Message:
    use = N_("追加のアクション") if e.use == "action" else N_("命中ロールの振り直し")
    return Message(
        N_("{seat} がヒーローポイントを消費 ({unit}: {use})"),
        {"seat": seat_called(e.seat, names), "unit": names.of(e.unit), "use": use},
    )


@MECH_D20.command("hero_reroll")
class HeroReroll(Command):
    """Spend the seat's hero point to reroll its unit's attack roll against `target` (L428),
    after the roll and before the damage."""

    target: str = UnitId
    face: int | None = Field(default=None, ge=1, le=20)
    entropy: str = Field(default="", max_length=64)


@MECH_D20.decides(HeroReroll)
def hero_reroll(t: Table[MechState], command: HeroReroll, actor: str) -> list[Draft]:
    state, attack, attacker, power, weapon = waiting_power(t, actor, "rolled")
    seat = _owner_seat(attacker, actor)
    if command.target not in {r.target for r in attack.rolls}:
        raise KirokuError(
            "bad_target", "{target} was not rolled against.", params={"target": command.target}
        )
    target = state.units[command.target]
    if health.out(target):
        raise RuleViolation(
            "unit_out", "{target} is out of the fight.", params={"target": target.name}
        )
    hero.spend(_hero(state, seat), seat, state.day)
    rolled = roll_target(
        t,
        attack,
        attacker,
        power,
        weapon,
        target,
        face=command.face,
        entropy=command.entropy,
        public=public_numbers(state, attacker),
    )
    event = AttackRolled(
        unit=attacker.id,
        power=power.name,
        rolls=(rolled.shown,),
        complete=False,
        reroll=True,
        secret=AttackSecret(rolls=(rolled.sealed,)),
    )
    return [
        Draft(HeroPointSpent(seat=seat, unit=attacker.id, use="reroll")),
        Draft(event, audience=(GM,)),
        *own_rolls(state, attacker, [rolled.sealed.roll]),
    ]
