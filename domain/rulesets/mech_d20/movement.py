"""Moves and other plain actions (L92–136, L361–376), and the two standard manoeuvres 突撃 and
防御専念 (L82–90). What a move costs, whether it provokes and what 伏せ and 動けない forbid are
checked here; on a battle map (grid.py) where the unit goes too (routes.py): the path's length
and squares, a 突撃's distance and approach (L87–88). Without a map, squares and paths are the
table's (declared mode).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.model.audience import GM
from domain.model.commands import Command
from domain.model.errors import KirokuError, RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.model.table import Table

from . import actions, conditions, geometry, guards, mapped, routes, sight, uses
from .actions import ActionKind
from .changes import EffectIds, effects, with_units
from .grid import check_square
from .manoeuvres import CHARGE_MODIFIERS, TOTAL_DEFENCE, TOTAL_DEFENCE_EFFECT
from .powers import Declaration, check_declared, declared, power_of, targets_of, weapon_for
from .rules import MECH_D20
from .sheet import MELEE_BASIC, Power, Weapon
from .state import Encounter, Grid, MechState, Position, Route, Square, Turn, Unit
from .terms import term
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
GOES = ("通常移動", "シフト", "這い進み", "瞬間移動", "飛行移動")  # a square to go to, on a map
SquareField = Field(default=None, min_length=2, max_length=2, description="[x, y] on the map")


def _own_turn(
    t: Table[MechState], unit_id: str, actor: str
) -> tuple[MechState, Encounter, Unit, Turn]:
    state, current = guards.playing(t)
    unit = guards.controlled(state, unit_id, actor)
    turn = guards.started_turn(current, unit)
    if turn is None:
        raise RuleViolation("not_your_turn", "It is not {unit}'s turn.", params={"unit": unit.name})
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
    to: list[int] | None = SquareField
    path: list[list[int]] = Field(
        default_factory=list, max_length=60, description="each square stepped on (else found)"
    )
    altitude: int | None = Field(default=None, ge=0, le=99, description="飛行移動, 立ち上がる")


@MECH_D20.event
class Moved(Event):
    unit: str
    kind: MoveKind
    action: str
    slot: str
    provokes: bool
    text: str = ""
    route: Route | None = None  # on the map, in the open
    secret: Route | None = None  # a hidden unit's, until revealed


@MECH_D20.decides(Move)
def move(t: Table[MechState], command: Move, actor: str) -> list[Draft]:
    _, _, unit, turn = _own_turn(t, command.unit, actor)
    has = conditions.conditions(unit)
    kind = command.kind
    if "伏せ" in has and kind in NEEDS_FEET:
        raise RuleViolation(
            "prone",
            "{unit} is 伏せ: it can only crawl or stand (L363).",
            params={"unit": unit.name},
        )
    if "動けない" in has and kind in IMMOBILE:
        raise RuleViolation(
            "immobilized",
            "{unit} is 動けない: no move but teleport (L374).",
            params={"unit": unit.name},
        )
    if kind in ("這い進み", "立ち上がる") and "伏せ" not in has:
        raise RuleViolation("not_prone", "{unit} is not 伏せ.", params={"unit": unit.name})
    if kind == "伏せる" and "伏せ" in has:
        raise RuleViolation("prone", "{unit} is already 伏せ.", params={"unit": unit.name})
    action, provokes = MOVES[kind]
    slot = _spend(unit, turn, action)
    route = _route(t.rules, unit, command, actor)
    event = Moved(
        unit=unit.id,
        kind=kind,
        action=action,
        slot=slot,
        provokes=provokes,
        text=command.text,
        route=None if unit.hidden else route,
        secret=route if unit.hidden else None,
    )
    return [Draft(event, audience=(GM,) if unit.hidden and route else ())]


def _route(state: MechState, unit: Unit, command: Move, actor: str) -> Route | None:
    """On a map: the checked route of the move (None without a map, or for 伏せる)."""
    grid = state.grid
    if grid is None or unit.position is None:
        return None
    here = unit.position
    if command.kind == "立ち上がる":  # L371: stand up on the ground or flying
        return Route(to=here.model_copy(update={"altitude": command.altitude or 0}))
    if command.kind not in GOES:
        return None
    if command.altitude is not None and command.kind != "飛行移動":
        raise KirokuError("bad_altitude", "高度を変えられるのは飛行移動だけである (L110)。")
    altitude = here.altitude if command.altitude is None else command.altitude
    if command.kind == "瞬間移動":
        return _teleport(state, grid, unit, command, altitude)
    if any(len(s) != 2 for s in command.path):
        raise KirokuError("bad_path", "経路のマスは [x, y] で示すこと。")
    given = [(s[0], s[1]) for s in command.path]
    squares = given or _found(state, grid, unit, command, actor)
    if command.to is not None and squares[-1] != (command.to[0], command.to[1]):
        raise KirokuError("bad_path", "経路の最後のマスが移動先と違う。")
    routes.check_route(state, grid, unit, squares, command.kind)
    end = squares[-1]
    return Route(path=tuple(squares), to=Position(x=end[0], y=end[1], altitude=altitude))


def _found(state: MechState, grid: Grid, unit: Unit, command: Move, actor: str) -> list[Square]:
    """The cheapest path to `to`, found from what `actor` knows (never from a hidden unit)."""
    if command.to is None:
        raise KirokuError("square_needed", "戦場マップ上の移動: 移動先のマス (to) を示すこと。")
    to = (command.to[0], command.to[1])
    known = routes.reachable(state, grid, unit, command.kind, actor)
    if to not in known:
        raise RuleViolation(
            "unreachable",
            "{unit}は{kind}でそのマスへ行けない (移動力 {budget}、移動困難地形、壁、敵のいるマス: "
            "L101–105, L364, L373)。",
            params={
                "unit": unit.name,
                "kind": command.kind,
                "budget": routes.budget(unit, command.kind),
            },
        )
    return known[to]


def _teleport(state: MechState, grid: Grid, unit: Unit, command: Move, altitude: int) -> Route:
    """瞬間移動 (L108–109): to a free square it sees, within its 移動力 (ruling MD-025)."""
    if command.to is None:
        raise KirokuError("square_needed", "瞬間移動: 移動先のマス (to) を示すこと。")
    to = (command.to[0], command.to[1])
    far = geometry.from_square(unit, to)
    if far is None or far > routes.speed(unit):
        raise RuleViolation(
            "too_far",
            "{unit}の瞬間移動は{speed}マス以内 (ruling MD-025)。",
            params={"unit": unit.name, "speed": routes.speed(unit)},
        )
    if not sight.sees_square(grid, unit, to):
        raise RuleViolation(
            "cannot_see_square", "瞬間移動は目標のマスを見ることができなくては行なえない (L109)。"
        )
    check_square(state, grid, unit, to, f"{unit.name}の瞬間移動先")
    return Route(path=(to,), to=Position(x=to[0], y=to[1], altitude=altitude))


def _spent(state: MechState, unit: str, slot: str, seq: int, provokes: bool) -> MechState:
    current = state.encounter
    if current is None or current.turn is None or current.turn.unit != unit:
        return state
    turn = current.turn
    turn = turn.model_copy(update={slot: getattr(turn, slot) - 1, "taken": turn.taken + 1})
    encounter = current.model_copy(
        update={
            "turn": turn,
            "last_action": seq,
            "last_actor": unit,
            "last_provokes": provokes,
            "last_left": (),
        }
    )
    return state.model_copy(update={"encounter": encounter})


@MECH_D20.folds(Moved)
def _moved(state: MechState, event: Moved, seq: int) -> MechState:
    state = _spent(state, event.unit, event.slot, seq, event.provokes)
    unit = state.units.get(event.unit)
    if unit is None:
        return state
    update: dict[str, object] = {}
    if event.kind in ("立ち上がる", "伏せる"):
        update["prone"] = event.kind == "伏せる"
        if event.kind == "伏せる" and unit.position is not None:  # L369: it falls
            update["position"] = unit.position.model_copy(update={"altitude": 0})
    route = event.route or event.secret
    if route is not None:
        update.update(position=route.to, position_seq=seq)
        if state.encounter is not None and unit.position is not None:
            left = (unit.position.square, *route.path[:-1]) if event.provokes else ()
            encounter = state.encounter.model_copy(update={"last_left": left})
            state = state.model_copy(update={"encounter": encounter})
    return with_units(state, unit.model_copy(update=update))


@MECH_D20.says_named(Moved)
def _moved_line(e: Moved, names: Names) -> Message:
    moved = {"unit": names.of(e.unit), "kind": term(e.kind)}
    if e.text:
        return Message(N_("{unit}: {kind} {text}"), {**moved, "text": e.text})
    return Message(N_("{unit}: {kind}"), moved)


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
                "turn_over_after_charge",
                "{unit} charged: its turn is over (L85).",
                params={"unit": unit.name},
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


@MECH_D20.says_named(ActionTaken)
def _action_taken_line(e: ActionTaken, names: Names) -> Message:
    return Message(
        N_("{unit} [{action}]: {what}"),
        {"unit": names.of(e.unit), "action": term(e.action), "what": term(e.what)},
    )


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
    attack and damage; the turn ends with it. On a map the move is checked (≥ 2 squares away,
    every step closer: L87–88) and `to`/`path` say where it goes; without one, the table's."""

    power: str = Field(default=MELEE_BASIC, max_length=60)
    to: list[int] | None = SquareField
    path: list[list[int]] = Field(default_factory=list, max_length=60)


@MECH_D20.decides(Charge)
def charge(t: Table[MechState], command: Charge, actor: str) -> list[Draft]:
    state, current, unit, turn = _own_turn(t, command.unit, actor)
    power = power_of(unit, command.power)
    if not power.melee_basic:
        raise RuleViolation(
            "not_a_melee_basic_attack",
            "突撃 makes a 近接基礎攻撃 (L84); {power} is not one.",
            params={"power": power.name},
        )
    if len(command.targets) != 1:
        raise KirokuError("no_target", "突撃 has one target.")
    slot = _spend(unit, turn, "標準")
    uses.check(unit, power, dominated=guards.dominated(unit))
    mapped.known_targets(state, actor, list(command.targets))
    targets = targets_of(state, current, power, command.targets)
    weapon = weapon_for(unit, power, command.weapon)
    route = _charge_route(state, unit, targets[0], power, weapon, command, actor)
    moved = unit if route is None else unit.model_copy(update={"position": route.to})
    command = mapped.check(state, moved, power, weapon, targets, command)
    check_declared(unit, command)
    event = declared(
        command,
        unit,
        power,
        targets,
        weapon,
        route=route,
        extra_modifiers=CHARGE_MODIFIERS,
        action="標準",
        slot=slot,
        charge=True,
        provokes=True,  # its move away provokes like any normal move (L188)
        pending=True,
    )
    return [Draft(event)]


def _charge_route(
    state: MechState,
    unit: Unit,
    target: Unit,
    power: Power,
    weapon: Weapon | None,
    command: Charge,
    actor: str,
) -> Route | None:
    """The charge's move on a map (L82–88), or None without one."""
    grid = state.grid
    if grid is None or unit.position is None or target.position is None:
        return None
    if "動けない" in conditions.conditions(unit) or "伏せ" in conditions.conditions(unit):
        raise RuleViolation(
            "cannot_charge",
            "{unit}は移動できないため突撃できない (L363, L374)。",
            params={"unit": unit.name},
        )
    reach = mapped.reach(unit, power, weapon) or 1
    if any(len(s) != 2 for s in command.path):
        raise KirokuError("bad_path", "経路のマスは [x, y] で示すこと。")
    path: list[Square] | None = [(s[0], s[1]) for s in command.path]
    if not path:
        routes.far_enough(unit, target)
        path = routes.approach(state, grid, unit, target, reach, actor)
        if command.to is not None and path is not None and path[-1] != tuple(command.to):
            path = None
        if path is None:
            raise RuleViolation(
                "charge_unreachable",
                "{unit}は移動力の範囲で{target}へ突撃できない (1マスごとに近づく経路、L88)。",
                params={"unit": unit.name, "target": target.name},
            )
    routes.check_approach(unit, target, path, reach)
    routes.check_route(state, grid, unit, path, "通常移動")
    end = path[-1]
    return Route(path=tuple(path), to=Position(x=end[0], y=end[1], altitude=unit.position.altitude))
