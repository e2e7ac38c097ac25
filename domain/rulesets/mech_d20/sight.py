"""Sight on the battle map (L109, L204, L207, L261, L341, L378–381).

A line of sight runs from the centre of a square of the looker to the centre of a square of
what it looks at; a wall (a blocking square, L262 「壁などの障害物」) on the way stops it; one
clear line is enough (ruling MD-026). 盲目 sees nothing (L378) but within its 超視覚X (L380); a
不可視 unit is seen only within 超視覚 (ruling MD-026). Blocking terrain stops effects as it stops
sight (the seed's 効果線, L341): an attack needs a clear line to its target.
"""

from __future__ import annotations

import math

from . import conditions, geometry
from .state import Grid, Square, Unit


def clear(grid: Grid, a: Square, b: Square) -> bool:
    """No blocking square strictly between the centres of `a` and `b`."""
    blocking = set(grid.blocking)
    if not blocking:
        return True
    steps = 4 * max(geometry.distance(a, b), 1)
    for i in range(1, steps):
        t = i / steps
        x = a[0] + 0.5 + (b[0] - a[0]) * t
        y = a[1] + 0.5 + (b[1] - a[1]) * t
        square = (math.floor(x), math.floor(y))
        if square not in (a, b) and square in blocking:
            return False
    return True


def line(grid: Grid, a: list[Square], b: list[Square]) -> bool:
    """Some clear line between any square of `a` and any square of `b`."""
    return any(clear(grid, p, q) for p in a for q in b)


def sees_square(grid: Grid, looker: Unit, square: Square) -> bool:
    """L109: a teleport's end, L261: an area's origin, as seen from `looker`."""
    near = geometry.from_square(looker, square)
    if near is None:
        return False
    if "盲目" in conditions.conditions(looker) and near > looker.sheet.super_sight:
        return False
    return line(grid, geometry.squares_of(looker), [square])


def sees(grid: Grid, looker: Unit, target: Unit) -> bool:
    """Whether `looker` sees `target` on the map (L378–380)."""
    apart = geometry.unit_distance(looker, target)
    if apart is None:
        return False
    in_super = apart <= looker.sheet.super_sight
    if "盲目" in conditions.conditions(looker) and not in_super:
        return False
    if "不可視" in conditions.conditions(target) and not in_super:
        return False
    return line(grid, geometry.squares_of(looker), geometry.squares_of(target))


def reaches(grid: Grid, user: Unit, target: Unit) -> bool:
    """An effect reaches the target: a clear line, whatever the user sees (L341)."""
    return line(grid, geometry.squares_of(user), geometry.squares_of(target))
