"""強制移動 (L400–416): 押しやる, 引き寄せる and 横滑り, on a battle map.

A power with forced movement (its sheet's `forced`: kind and X) moves a target it hit, up to X
squares (「最大でXマス」, L404): 押しやる every square farther from the user (L406–407),
引き寄せる every square closer (L408–409), 横滑り by any path (L410). 動けない does not stop it
(L374). The path crosses no wall and no unit, and ends on a free square (ruling MD-029). Pushed
towards a 危険な地帯 (a hazardous square), the target makes one saving throw (L414): on a
success the movement stops on the square before it and the target falls 伏せ (L415); on a
failure it enters; what the hazard does then is the GM's (L416).
"""

from __future__ import annotations

from pydantic import Field

from domain.model.audience import GM
from domain.model.commands import Command
from domain.model.errors import KirokuError, RuleViolation
from domain.model.events import Event
from domain.model.lifecycle_events import RollRecord
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.model.table import Table

from . import geometry, guards, saves
from .changes import with_units
from .grid import check_square, occupant
from .powers import power_of
from .rules import MECH_D20
from .sheet import ForcedKind
from .state import MechState, Position, Route, Square
from .terms import term
from .units import UnitId
from .words import noted


@MECH_D20.command("force_move")
class ForceMove(Command):
    """Move `target` by `unit`'s `power` (its forced movement) along `path`; `faces`: the
    hazard save's d20, where manual dice are allowed."""

    unit: str = UnitId
    power: str = Field(min_length=1, max_length=60)
    target: str = UnitId
    path: list[list[int]] = Field(min_length=1, max_length=20)
    faces: list[int] | None = Field(default=None, max_length=1)
    entropy: str = Field(default="", max_length=64)


@MECH_D20.event
class ForcedMoved(Event):
    unit: str
    power: str
    target: str
    kind: ForcedKind
    route: Route
    hazard: bool = False  # it was pushed towards a 危険な地帯
    save: RollRecord | None = None
    saved: bool = False  # stopped before it, 伏せ (L415)


@MECH_D20.decides(ForceMove)
def force_move(t: Table[MechState], command: ForceMove, actor: str) -> list[Draft]:
    state, _ = guards.playing(t)
    user = guards.controlled(state, command.unit, actor)
    target = guards.unit(state, command.target)
    grid = state.grid
    if grid is None or user.position is None or target.position is None:
        raise RuleViolation("no_map", "強制移動の経路は戦場マップ上で扱う (マップなしでは宣言で)。")
    power = power_of(user, command.power)
    forced = power.forced
    if forced is None:
        raise RuleViolation(
            "no_forced_movement", "{power}には強制移動がない (L402)。", params={"power": power.name}
        )
    if target.hidden and actor != GM:
        raise RuleViolation(
            "unknown_square", "{target}の位置はわからない。", params={"target": target.name}
        )
    if any(len(s) != 2 for s in command.path):
        raise KirokuError("bad_path", "経路のマスは [x, y] で示すこと。")
    path: list[Square] = [(s[0], s[1]) for s in command.path]
    if len(path) > forced.squares:
        raise RuleViolation(
            "too_far",
            "{power}の{kind}は最大{squares}マス (L404)。",
            params={"power": power.name, "kind": forced.kind, "squares": forced.squares},
        )
    mine = geometry.squares_of(user)
    here = target.position.square
    hazardous = set(grid.hazardous)
    hazard = False
    for square in path:
        if geometry.distance(here, square) != 1:
            raise RuleViolation("bad_path", "強制移動は隣接するマスへ1マスずつ行なう。")
        before = geometry.between(geometry.footprint(here, target.sheet.size), mine)
        after = geometry.between(geometry.footprint(square, target.sheet.size), mine)
        if forced.kind == "押しやる" and after <= before:
            raise RuleViolation(
                "not_away",
                "押しやる: 1マスごとに使用者からの距離が離れていかなければならない (L407)。",
            )
        if forced.kind == "引き寄せる" and after >= before:
            raise RuleViolation(
                "not_closer",
                "引き寄せる: 1マスごとに使用者との距離が縮んでいかなければならない (L409)。",
            )
        footprint = geometry.footprint(square, target.sheet.size)
        if square != path[-1]:
            if not all(geometry.inside(grid, s) for s in footprint) or set(footprint) & set(
                grid.blocking
            ):
                raise RuleViolation("path_blocked", "強制移動の経路に壁がある。")
            if occupant(state, footprint, target.id) is not None:
                raise RuleViolation("path_blocked", "強制移動の経路に機体がいる (ruling MD-029)。")
        if set(footprint) & hazardous:
            hazard = True
        here = square
    check_square(state, grid, target, here, f"{target.name}の強制移動先")
    save = None
    saved = False
    route_path = tuple(path)
    if hazard:
        rolled = t.dice.roll(f"1D20>={saves.SAVE_TARGET}", command.faces, command.entropy)
        save = rolled.record
        saved = rolled.success
        if saved:  # L415: it stops on the square before the hazard
            entered = next(
                i
                for i, s in enumerate(path)
                if set(geometry.footprint(s, target.sheet.size)) & hazardous
            )
            route_path = tuple(path[:entered])
    start = target.position
    end = route_path[-1] if route_path else start.square
    to = Position(x=end[0], y=end[1], altitude=start.altitude)
    event = ForcedMoved(
        unit=user.id,
        power=power.name,
        target=target.id,
        kind=forced.kind,
        route=Route(path=route_path, to=to),
        hazard=hazard,
        save=save,
        saved=saved,
    )
    return [Draft(event)]


@MECH_D20.folds(ForcedMoved)
def _forced(state: MechState, event: ForcedMoved, seq: int) -> MechState:
    target = state.units.get(event.target)
    if target is None:
        return state
    update: dict[str, object] = {"position": event.route.to, "position_seq": seq, "hidden": False}
    if event.saved:
        update["prone"] = True
        update["position"] = event.route.to.model_copy(update={"altitude": 0})
    return with_units(state, target.model_copy(update=update))


@MECH_D20.says_named(ForcedMoved)
def _says(e: ForcedMoved, names: Names) -> Message:
    said = {
        "unit": names.of(e.unit),
        "power": term(e.power),
        "target": names.of(e.target),
        "kind": term(e.kind),
        "to": f"({e.route.to.x}, {e.route.to.y})",
    }
    if e.saved:
        return Message(
            N_("{unit}の{power}: {target}を{kind} — 危険な地帯の手前で踏みとどまり伏せ {to}"), said
        )
    line = Message(N_("{unit}の{power}: {target}を{kind} → {to}"), said)
    return noted(line, N_("危険な地帯へ")) if e.hazard else line
