"""What the battle map says about a declared power (L18, L224–263, L340–354, L378–381, L396).

Without a map (or for a unit not on it) the declaration stands as the table states it. On a map:
- an area power's targets come from its template (areas.py);
- each target is within reach or range: 近接 1 square, 近接X X (L228), 遠隔X X, 遠隔・武器 the
  weapon's 射程 (a weapon without one is not checked) (L226, L251);
- an effect needs a clear line to each target (効果線, L341, ruling MD-026);
- which targets the user cannot see follows from sight (L378–381), not from the declaration;
- 挟撃 follows from positions (flanking.py); とどめの一撃 needs an adjacent target (L396).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from domain.model.errors import KirokuError, RuleViolation

from . import areas, conditions, flanking, geometry, sight
from .advantage import FLANKING
from .grid import knows
from .sheet import Power, Weapon
from .state import MechState, Square, Unit

if TYPE_CHECKING:
    from .powers import Declaration

D = TypeVar("D", bound="Declaration")


def _square(value: list[int] | None) -> Square | None:
    if value is None:
        return None
    if len(value) != 2:
        raise KirokuError("bad_square", "マスは [x, y] で示すこと。")
    return (value[0], value[1])


def reach(unit: Unit, power: Power, weapon: Weapon | None) -> int | None:
    """How far a single-target power reaches, in squares (None: not checked)."""
    if power.distance is not None:
        return power.distance
    if power.range == "近接":
        return 1
    if power.range == "遠隔":
        return None if weapon is None else weapon.range
    return None


def known_targets(state: MechState, actor: str, ids: list[str]) -> None:
    """A unit whose square is the GM's secret is no player's target until revealed: an attack
    on it would tell the whole table where it is (its range, its sight)."""
    for uid in ids:
        target = state.units.get(uid)
        if target is not None and not knows(actor, target):
            raise RuleViolation(
                "hidden_target",
                "{target}の位置はわからない: 目標にはできない (GMの公開待ち)。",
                params={"target": target.name},
            )


def area_targets(
    state: MechState, actor: str, unit: Unit, power: Power, command: Declaration
) -> list[str]:
    """The declaration's targets: for an area on a map, checked against (or taken from) its
    template, from the units whose squares `actor` knows (ruling MD-028)."""
    known_targets(state, actor, list(command.targets))
    grid = state.grid
    if grid is None or unit.position is None or not power.area:
        return list(command.targets)
    area, sources = areas.template(
        grid,
        unit,
        power,
        _square(command.origin),
        _square(command.direction),
        _square(command.side),
    )
    current = state.encounter
    fighting = current.participants if current is not None else ()
    inside = [
        u.id
        for u in state.units.values()
        if u.id != unit.id
        and u.id in fighting
        and u.position is not None
        and knows(actor, u)
        and u.status == "active"
        and areas.inside(area, u)
        and areas.reached(grid, sources, u)
    ]
    if not command.targets:
        if power.attack is not None and not inside:
            raise RuleViolation(
                "no_target", "{power}の範囲内に目標がいない。", params={"power": power.name}
            )
        return inside
    for uid in command.targets:
        target = state.units.get(uid)
        if target is None or target.position is None:
            continue  # unknown units are refused by targets_of; unplaced ones are declared
        if not areas.inside(area, target):
            raise RuleViolation(
                "not_in_area",
                "{target}は{power}の範囲外にいる。",
                params={"target": target.name, "power": power.name},
            )
        if not areas.reached(grid, sources, target):
            raise RuleViolation(
                "no_line_of_effect",
                "{target}には障害物で効果線が通らない (L341)。",
                params={"target": target.name},
            )
    return list(command.targets)


def check(
    state: MechState,
    unit: Unit,
    power: Power,
    weapon: Weapon | None,
    targets: list[Unit],
    command: D,
    *,
    coup_de_grace: bool = False,
) -> D:
    """The declaration as the map makes it (unseen targets, 挟撃), or a refusal."""
    grid = state.grid
    if grid is None or unit.position is None:
        return command
    placed = [t for t in targets if t.position is not None]
    if not power.area:
        far = reach(unit, power, weapon)
        for target in placed:
            apart = geometry.unit_distance(unit, target)
            if far is not None and apart is not None and apart > far:
                kind = "間合い" if power.range == "近接" else "射程"
                raise RuleViolation(
                    "out_of_range",
                    "{target}は{power}の{kind} ({far}マス) の外にいる ({apart}マス: L18, "
                    "L226–228, L251)。",
                    params={
                        "target": target.name,
                        "power": power.name,
                        "kind": kind,
                        "far": far,
                        "apart": apart,
                    },
                )
            if not sight.reaches(grid, unit, target):
                raise RuleViolation(
                    "no_line_of_effect",
                    "{target}には障害物で効果線が通らない (L341)。",
                    params={"target": target.name},
                )
    if coup_de_grace and any(not geometry.adjacent(unit, t) for t in placed):
        raise RuleViolation(
            "not_adjacent", "とどめの一撃は自身に隣接する無防備状態の機体が目標である (L396)。"
        )
    unseen = [
        t.id
        for t in targets
        if (t.position is not None and not sight.sees(grid, unit, t))
        or (t.position is None and t.id in command.unseen)
    ]
    advantage: list[str] = [a for a in command.advantage if a != FLANKING]
    flanked = [flanking.flanks(state, grid, unit, t) for t in placed]
    if FLANKING in command.advantage and not (placed and all(flanked)):
        raise RuleViolation(
            "cannot_flank",
            "{unit}は目標を挟撃していない (目標の向かい合う辺か対角に、挟撃できる味方と隣接する: "
            "L350–354)。",
            params={"unit": unit.name},
        )
    if placed and len(placed) == 1 and all(flanked) and not conditions.conditions(unit) & {"盲目"}:
        advantage.append(FLANKING)
    return command.model_copy(update={"unseen": unseen, "advantage": advantage})
