"""Movement on the battle map (L99–111, L361–375): how far a unit may go and by which squares.

- 通常移動 (L99–103): up to the unit's 移動力; a square of 移動困難地形 costs one more to enter,
  nothing more to leave (L103); the move may pass through allies' squares, not enemies', and
  ends on a free square (L101, L19).
- シフト (L105): one square (so never into 移動困難地形: ruling MD-025).
- 這い進み (L364): half the 移動力, rounded down (L11).
- 瞬間移動 (L108–109): straight to a free square the unit sees, within its 移動力 (ruling MD-025).
- 飛行移動 (L110–111): ignores 移動困難地形 and may pass through enemies' squares.
- 減速 (L373): 移動力 2. 動けない (L374): no move but 瞬間移動 (movement.py).

A path is the unit's top-left square after each step; each step goes to one of the eight
neighbouring squares (L18). Diagonal steps past a wall's corner are allowed (ruling MD-025).
"""

from __future__ import annotations

import heapq

from domain.model.errors import RuleViolation

from . import conditions, geometry
from .grid import check_square, occupant, occupants
from .state import Grid, MechState, Square, Unit

SLOWED_SPEED = 2  # L373


def speed(unit: Unit) -> int:
    """The unit's 移動力: its sheet's, or 2 while 減速 (L373)."""
    if "減速" in conditions.conditions(unit):
        return SLOWED_SPEED
    return unit.sheet.speed


def budget(unit: Unit, kind: str) -> int:
    """How many squares' worth of movement a move of `kind` has."""
    if kind == "シフト":
        return 1  # L105
    if kind == "這い進み":
        return speed(unit) // 2  # L364, rounded down (L11)
    return speed(unit)


def _enemy_at(
    state: MechState, unit: Unit, squares: list[Square], known_to: str | None
) -> Unit | None:
    found = occupants(state, squares, unit.id, known_to=known_to)
    return next((other for other in found if geometry.enemies(unit, other)), None)


def step_cost(grid: Grid, unit: Unit, square: Square, kind: str) -> int:
    """One square, or two into 移動困難地形 (L103) unless flying (L110)."""
    if kind == "飛行移動":
        return 1
    entered = set(geometry.footprint(square, unit.sheet.size)) & set(grid.difficult)
    return 2 if entered else 1


def _passable(
    state: MechState, grid: Grid, unit: Unit, square: Square, kind: str, known_to: str | None
) -> bool:
    squares = geometry.footprint(square, unit.sheet.size)
    if not all(geometry.inside(grid, s) for s in squares):
        return False
    if set(squares) & set(grid.blocking):
        return False
    return kind == "飛行移動" or _enemy_at(state, unit, squares, known_to) is None


def check_route(
    state: MechState, grid: Grid, unit: Unit, path: list[Square], kind: str
) -> tuple[Square, ...]:
    """Refuse a path the rules forbid; the squares it leaves (its start and every square but
    the last), for opportunity attacks (L188)."""
    assert unit.position is not None
    here = unit.position.square
    left = [here]
    spent = 0
    for index, square in enumerate(path):
        if geometry.distance(here, square) != 1:
            raise RuleViolation(
                "bad_path",
                "{unit}: 移動は隣接するマスへ1マスずつ行なう (L18)。",
                params={"unit": unit.name},
            )
        last = index == len(path) - 1
        if not last and not _passable(state, grid, unit, square, kind, None):
            raise RuleViolation(
                "path_blocked",
                "{unit}: 経路上のマスは通り抜けられない (壁、または敵のいるマス: L101)。",
                params={"unit": unit.name},
            )
        spent += step_cost(grid, unit, square, kind)
        here = square
        if not last:
            left.append(square)
    allowed = budget(unit, kind)
    if spent > allowed:
        raise RuleViolation(
            "too_far",
            "{unit}の{kind}は{allowed}マス分まで (この経路は{spent}マス分: L103, L105, L364, "
            "L373)。",
            params={"unit": unit.name, "kind": kind, "allowed": allowed, "spent": spent},
        )
    check_square(state, grid, unit, here, f"{unit.name}の移動先")
    return tuple(left)


def reachable(
    state: MechState, grid: Grid, unit: Unit, kind: str, known_to: str | None
) -> dict[Square, list[Square]]:
    """Every square `unit` may end a move of `kind` on, with a cheapest path to it, as far as
    `known_to` knows where the units stand (a seat never learns of a hidden one here)."""
    if unit.position is None:
        return {}
    start = unit.position.square
    allowed = budget(unit, kind)
    best: dict[Square, int] = {start: 0}
    came: dict[Square, Square] = {}
    queue: list[tuple[int, Square]] = [(0, start)]
    while queue:
        spent, here = heapq.heappop(queue)
        if spent > best.get(here, allowed + 1):
            continue
        for nxt in geometry.neighbours(here):
            if not _passable(state, grid, unit, nxt, kind, known_to):
                continue
            cost = spent + step_cost(grid, unit, nxt, kind)
            if cost <= allowed and cost < best.get(nxt, allowed + 1):
                best[nxt] = cost
                came[nxt] = here
                heapq.heappush(queue, (cost, nxt))
    found: dict[Square, list[Square]] = {}
    for square in best:
        if square == start:
            continue
        footprint = geometry.footprint(square, unit.sheet.size)
        if occupant(state, footprint, unit.id, known_to=known_to) is not None:
            continue
        path = [square]
        while path[-1] in came and came[path[-1]] != start:
            path.append(came[path[-1]])
        found[square] = list(reversed(path))
    return found


def apart(unit: Unit, square: Square, target: Unit) -> int:
    """Squares from `unit` standing at `square` to `target`."""
    return geometry.between(
        geometry.footprint(square, unit.sheet.size), geometry.squares_of(target)
    )


def far_enough(unit: Unit, target: Unit) -> None:
    """突撃 (L87): at least 2 squares away at the start."""
    assert unit.position is not None
    if apart(unit, unit.position.square, target) < 2:
        raise RuleViolation(
            "charge_too_close", "突撃の目標とは2マス以上離れていなくてはならない (L87)。"
        )


def check_approach(unit: Unit, target: Unit, path: list[Square], reach: int) -> None:
    """突撃 (L87–88): at least 2 squares away at the start, every step closer, and within
    reach of the target at the end."""
    assert unit.position is not None
    far_enough(unit, target)
    here = unit.position.square
    for square in path:
        if apart(unit, square, target) >= apart(unit, here, target):
            raise RuleViolation(
                "charge_not_closer",
                "突撃では1マス移動するごとに目標との距離が近づかなければならない (L88)。",
            )
        here = square
    if apart(unit, here, target) > reach:
        raise RuleViolation(
            "charge_short",
            "突撃の移動の終わりに{target}が近接基礎攻撃の間合いにない (L84)。",
            params={"target": target.name},
        )


def approach(
    state: MechState, grid: Grid, unit: Unit, target: Unit, reach: int, known_to: str | None
) -> list[Square] | None:
    """A cheapest charge path (every step closer) ending within `reach` of `target`, from
    what `known_to` knows; None if there is none."""
    if unit.position is None:
        return None
    start = unit.position.square
    allowed = speed(unit)
    queue: list[tuple[int, Square, tuple[Square, ...]]] = [(0, start, ())]
    seen: dict[Square, int] = {start: 0}
    while queue:
        spent, here, path = heapq.heappop(queue)
        if path and apart(unit, here, target) <= reach:
            footprint = geometry.footprint(here, unit.sheet.size)
            if occupant(state, footprint, unit.id, known_to=known_to) is None:
                return list(path)
        for nxt in geometry.neighbours(here):
            if apart(unit, nxt, target) >= apart(unit, here, target):
                continue
            if not _passable(state, grid, unit, nxt, "通常移動", known_to):
                continue
            cost = spent + step_cost(grid, unit, nxt, "通常移動")
            if cost <= allowed and cost < seen.get(nxt, allowed + 1):
                seen[nxt] = cost
                heapq.heappush(queue, (cost, nxt, (*path, nxt)))
    return None
