"""挟撃 from positions (L348–354), on a battle map.

L353 「目標が占めるマスの向かい合う対辺に接するマスを片側ごとに少なくとも1マス以上味方が
占めている」 and L354 「目標が占めるマスの対角線上にあり、目標に隣接している2つのマス」: the
attacker and an ally are both adjacent to the target, on opposite edges or at opposite corners of
its squares (ruling MD-027 draws the missing figure). The ally must be able to flank: active, not
幻惑 or 朦朧, and seeing the target (L351).
"""

from __future__ import annotations

from . import conditions, geometry, sight
from .advantage import NO_FLANKING
from .state import Grid, MechState, Square, Unit


def _side(square: Square, target: Unit) -> tuple[int, int]:
    """Where a square lies around the target's squares: -1, 0 or +1 on each axis."""
    squares = geometry.squares_of(target)
    xs = [s[0] for s in squares]
    ys = [s[1] for s in squares]
    sx = -1 if square[0] < min(xs) else (1 if square[0] > max(xs) else 0)
    sy = -1 if square[1] < min(ys) else (1 if square[1] > max(ys) else 0)
    return sx, sy


def _sides(unit: Unit, target: Unit) -> set[tuple[int, int]]:
    """The sides of `target` that `unit`'s squares touch (adjacent ones only)."""
    near = [
        s
        for s in geometry.squares_of(unit)
        if geometry.between([s], geometry.squares_of(target)) == 1
    ]
    return {_side(s, target) for s in near}


def able_to_flank(grid: Grid, unit: Unit, target: Unit) -> bool:
    if unit.status != "active" or conditions.conditions(unit) & NO_FLANKING:
        return False
    return sight.sees(grid, unit, target)


def flanks(state: MechState, grid: Grid, attacker: Unit, target: Unit) -> bool:
    """Whether `attacker` flanks `target` with some ally (L353–354)."""
    if target.position is None or not geometry.adjacent(attacker, target):
        return False
    if not able_to_flank(grid, attacker, target):
        return False
    mine = _sides(attacker, target)
    for ally in state.units.values():
        if ally.id in (attacker.id, target.id) or ally.position is None:
            continue
        if geometry.enemies(ally, attacker) or not geometry.adjacent(ally, target):
            continue
        if not able_to_flank(grid, ally, target):
            continue
        theirs = _sides(ally, target)
        if any((-x, -y) in theirs for x, y in mine):
            return True
    return False
