"""Moves and other plain actions (L92–136, L361–376), and the two standard manoeuvres 突撃 and
防御専念 (L82–90). Kiroku has no map: squares, paths and adjacency are the table's; what a move
costs, whether it provokes and what 伏せ and 動けない forbid are checked here.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.commands import Command
from domain.errors import KirokuError, RuleViolation
from domain.events import Event
from domain.records import Draft
from domain.table import Table

from . import actions, conditions, guards, uses
from .actions import ActionKind
from .changes import EffectIds, effects
from .manoeuvres import CHARGE_MODIFIERS, TOTAL_DEFENCE, TOTAL_DEFENCE_EFFECT
from .powers import Declaration, check_declared, declared, power_of, targets_of, weapon_for
from .rules import MECH_D20
from .sheet import MELEE_BASIC
from .state import Encounter, MechState, Turn, Unit
from .units import UnitId

MoveKind = Literal["通常移動", "シフト", "這い進み", "瞬間移動", "飛行移動", "立ち上がる", "伏せる"]
# kind → (the action it takes, whether it provokes an opportunity attack)
MOVES: dict[str, tuple[ActionKind, bool]] = {
    "通常移動": ("移動", True),  # L100, L188
    "シフト": ("移動", False),  # L105
    "這い進み": ("移動", True),  # L364
    "瞬間移動": ("移動", False),  # L109
    "飛行移動": ("移動", True),  # L111
    "立ち上がる": ("移動", False),  # L365
    "伏せる": ("マイナー", False),  # L366
}
NEEDS_FEET = ("通常移動", "シフト", "飛行移動")  # not while 伏せ (L363)
IMMOBILE = ("通常移動", "シフト", "這い進み", "飛行移動")  # not while 動けない (L374)


def _own_turn(
    t: Table[MechState], unit_id: str, actor: str
) -> tuple[MechState, Encounter, Unit, Turn]:
    state, current = guards.playing(t)
    unit = guards.controlled(state, unit_id, actor)
    turn = guards.started_turn(current, unit)
    if turn is None:
        raise RuleViolation("not_your_turn", f"It is not {unit.name}'s turn.")
    guards.nothing_pending(current, f"{unit.name} acts again")
    return state, current, unit, turn


def _spend(unit: Unit, turn: Turn, kind: ActionKind) -> str:
    _, slot = actions.spend(turn, kind, conditions.action_limit(unit), unit.name)
    return slot


@MECH_D20.command("move")
class Move(Command):
    """A move action (or dropping 伏せ, a minor one): `kind`, and where to, as text."""

    unit: str = UnitId
    kind: MoveKind = "通常移動"
    text: str = Field(default="", max_length=200)


@MECH_D20.event
class Moved(Event):
    unit: str
    kind: MoveKind
    action: str
    slot: str
    provokes: bool
    text: str = ""


@MECH_D20.decides(Move)
def move(t: Table[MechState], command: Move, actor: str) -> list[Draft]:
    _, _, unit, turn = _own_turn(t, command.unit, actor)
    has = conditions.conditions(unit)
    kind = command.kind
    if "伏せ" in has and kind in NEEDS_FEET:
        raise RuleViolation("prone", f"{unit.name} is 伏せ: it can only crawl or stand (L363).")
    if "動けない" in has and kind in IMMOBILE:
        raise RuleViolation("immobilized", f"{unit.name} is 動けない: no move but teleport (L374).")
    if kind in ("這い進み", "立ち上がる") and "伏せ" not in has:
        raise RuleViolation("not_prone", f"{unit.name} is not 伏せ.")
    if kind == "伏せる" and "伏せ" in has:
        raise RuleViolation("prone", f"{unit.name} is already 伏せ.")
    action, provokes = MOVES[kind]
    slot = _spend(unit, turn, action)
    event = Moved(
        unit=unit.id, kind=kind, action=action, slot=slot, provokes=provokes, text=command.text
    )
    return [Draft(event)]


def _spent(state: MechState, unit: str, slot: str, seq: int, provokes: bool) -> MechState:
    current = state.encounter
    if current is None or current.turn is None or current.turn.unit != unit:
        return state
    turn = current.turn
    turn = turn.model_copy(update={slot: getattr(turn, slot) - 1, "taken": turn.taken + 1})
    encounter = current.model_copy(
        update={"turn": turn, "last_action": seq, "last_actor": unit, "last_provokes": provokes}
    )
    return state.model_copy(update={"encounter": encounter})


@MECH_D20.folds(Moved)
def _moved(state: MechState, event: Moved, seq: int) -> MechState:
    state = _spent(state, event.unit, event.slot, seq, event.provokes)
    unit = state.units.get(event.unit)
    if unit is not None and event.kind in ("立ち上がる", "伏せる"):
        prone = event.kind == "伏せる"
        state = state.model_copy(
            update={"units": {**state.units, unit.id: unit.model_copy(update={"prone": prone})}}
        )
    return state


@MECH_D20.command("act")
class Act(Command):
    """Any other action, by its weight: equip or stow a weapon (マイナー, L129), talk (フリー)…"""

    unit: str = UnitId
    action: Literal["標準", "移動", "マイナー", "フリー"]
    what: str = Field(min_length=1, max_length=200)


@MECH_D20.event
class ActionTaken(Event):
    unit: str
    action: str
    slot: str | None
    what: str


@MECH_D20.decides(Act)
def act(t: Table[MechState], command: Act, actor: str) -> list[Draft]:
    if command.action == "フリー":  # free actions need no turn (L156), only a unit
        state, current = guards.playing(t)
        unit = guards.controlled(state, command.unit, actor)
        turn = guards.started_turn(current, unit)
        refusal = conditions.no_free_action(unit, own_turn=turn is not None)
        if refusal:
            raise RuleViolation("cannot_act", refusal)
        if turn is not None and turn.charged:
            raise RuleViolation(
                "turn_over_after_charge", f"{unit.name} charged: its turn is over (L85)."
            )
        event = ActionTaken(unit=unit.id, action="フリー", slot=None, what=command.what)
        return [Draft(event)]
    state, _, unit, turn = _own_turn(t, command.unit, actor)
    slot = _spend(unit, turn, command.action)
    return [Draft(ActionTaken(unit=unit.id, action=command.action, slot=slot, what=command.what))]


@MECH_D20.folds(ActionTaken)
def _acted(state: MechState, event: ActionTaken, seq: int) -> MechState:
    if event.slot is None:
        return state
    return _spent(state, event.unit, event.slot, seq, provokes=False)


@MECH_D20.command("total_defence")
class TotalDefence(Command):
    """防御専念 (L89–90): a standard action, +3 untyped to every defence until the start of the
    unit's next turn."""

    unit: str = UnitId


@MECH_D20.decides(TotalDefence)
def total_defence(t: Table[MechState], command: TotalDefence, actor: str) -> list[Draft]:
    state, _, unit, turn = _own_turn(t, command.unit, actor)
    slot = _spend(unit, turn, "標準")
    taken = ActionTaken(unit=unit.id, action="標準", slot=slot, what=TOTAL_DEFENCE)
    guarded = effects(
        EffectIds(state), (TOTAL_DEFENCE_EFFECT,), user=unit, target=unit, power=TOTAL_DEFENCE
    )
    return [Draft(taken), *guarded]


@MECH_D20.command("charge")
class Charge(Declaration):
    """突撃 (L82–88): a standard action, a move up to speed and a 近接基礎攻撃 at +1 untyped to
    attack and damage; the turn ends with it. Distance (≥ 2 squares) and path are the table's."""

    power: str = Field(default=MELEE_BASIC, max_length=60)


@MECH_D20.decides(Charge)
def charge(t: Table[MechState], command: Charge, actor: str) -> list[Draft]:
    state, current, unit, turn = _own_turn(t, command.unit, actor)
    power = power_of(unit, command.power)
    if not power.melee_basic:
        raise RuleViolation(
            "not_a_melee_basic_attack", f"突撃 makes a 近接基礎攻撃 (L84); {power.name} is not one."
        )
    if len(command.targets) != 1:
        raise KirokuError("no_target", "突撃 has one target.")
    slot = _spend(unit, turn, "標準")
    uses.check(unit, power, dominated=guards.dominated(unit))
    targets = targets_of(state, current, power, command.targets)
    weapon = weapon_for(unit, power, command.weapon)
    check_declared(unit, command)
    event = declared(
        command,
        unit,
        power,
        targets,
        weapon,
        extra_modifiers=CHARGE_MODIFIERS,
        action="標準",
        slot=slot,
        charge=True,
        provokes=True,  # its move away provokes like any normal move (L188)
        pending=True,
    )
    return [Draft(event)]
