"""秘密基地編's base: 6×6 squares, 4-way adjacency, no wrap at any edge."""

from __future__ import annotations

from collections.abc import Iterator

from domain.rulesets.chojin_locke.state import Cell

SIZE = 6
STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def cell_key(cell: Cell) -> str:
    return f"{cell.row}:{cell.col}"


def is_outer(cell: Cell) -> bool:
    """One of the 20 squares on the base's edge, where explorers enter."""
    return cell.row in (0, SIZE - 1) or cell.col in (0, SIZE - 1)


def neighbours(cell: Cell) -> Iterator[Cell]:
    for dr, dc in STEPS.values():
        row, col = cell.row + dr, cell.col + dc
        if 0 <= row < SIZE and 0 <= col < SIZE:
            yield Cell(row=row, col=col)


def step_to(cell: Cell, direction: str) -> Cell | None:
    dr, dc = STEPS[direction]
    row, col = cell.row + dr, cell.col + dc
    return Cell(row=row, col=col) if 0 <= row < SIZE and 0 <= col < SIZE else None


def reachable(start: Cell, target: Cell, steps: int) -> bool:
    """Is there a route of exactly `steps` squares from start to target that may turn but never
    enters a square twice (the start included)?"""

    def search(at: Cell, left: int, seen: frozenset[str]) -> bool:
        if left == 0:
            return at == target
        distance = abs(at.row - target.row) + abs(at.col - target.col)
        if distance > left:
            return False
        return any(
            search(nxt, left - 1, seen | {cell_key(nxt)})
            for nxt in neighbours(at)
            if cell_key(nxt) not in seen
        )

    return search(start, steps, frozenset({cell_key(start)}))
