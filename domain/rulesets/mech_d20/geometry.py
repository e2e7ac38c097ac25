"""Distance, size and adjacency on the battle map (L18–19, L213–216).

- 「斜めも1マス」 (L18): a diagonal step is one square, so the distance between two squares is
  the larger of the two differences.
- 「同じマスには1体だけ」 (L19): a square holds one unit.
- S and M units cover 1×1 squares, L and LL 2×2 (L216); a unit's position is its top-left square.
- The distance between two units is the shortest between any of their squares; a flying unit's
  altitude counts as a third such difference (ruling MD-024).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .conditions import conditions
from .state import Grid, Position, Square, Unit

STEPS: tuple[Square, ...] = tuple(
    (dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)
)


def side(size: str) -> int:
    """How many squares wide a unit of `size` is (L216)."""
    return 2 if size in ("L", "LL") else 1


def footprint(square: Square, size: str) -> list[Square]:
    x, y = square
    n = side(size)
    return [(x + dx, y + dy) for dy in range(n) for dx in range(n)]


def squares_of(unit: Unit) -> list[Square]:
    """The squares a placed unit covers (none if it is not on the map)."""
    if unit.position is None:
        return []
    return footprint(unit.position.square, unit.sheet.size)


def distance(a: Square, b: Square) -> int:
    """L18: diagonals count one."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def between(a: Iterable[Square], b: Iterable[Square]) -> int:
    """The shortest distance between two sets of squares."""
    bs = list(b)
    return min(distance(p, q) for p in a for q in bs)


def altitude(unit: Unit) -> int:
    """A flying unit's height; one lying 伏せ has fallen to the ground (L369, ruling MD-024)."""
    if unit.position is None or "伏せ" in conditions(unit):
        return 0
    return unit.position.altitude


def unit_distance(a: Unit, b: Unit) -> int | None:
    """Squares between two placed units (None if either is not on the map)."""
    if a.position is None or b.position is None:
        return None
    flat = between(squares_of(a), squares_of(b))
    return max(flat, abs(altitude(a) - altitude(b)))


def adjacent(a: Unit, b: Unit) -> bool:
    return unit_distance(a, b) == 1


def from_square(unit: Unit, square: Square) -> int | None:
    """Squares from a unit to a square on the ground (an area's origin, a teleport's end)."""
    if unit.position is None:
        return None
    return max(between(squares_of(unit), [square]), altitude(unit))


def inside(grid: Grid, square: Square) -> bool:
    return 0 <= square[0] < grid.width and 0 <= square[1] < grid.height


def neighbours(square: Square) -> Iterator[Square]:
    for dx, dy in STEPS:
        yield (square[0] + dx, square[1] + dy)


def at(position: Position | None) -> Square | None:
    return None if position is None else position.square


def enemies(a: Unit, b: Unit) -> bool:
    """PCs fight NPCs (ruling MD-024): a 支配 unit still counts on its own side."""
    return a.kind != b.kind
