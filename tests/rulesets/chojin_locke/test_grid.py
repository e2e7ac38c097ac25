"""秘密基地編's geometry: 20 outer squares, no wrap, teleport routes that turn but never revisit."""

from __future__ import annotations

from domain.rulesets.chojin_locke.grid import is_outer, reachable, step_to
from domain.rulesets.chojin_locke.state import Cell


def test_twenty_outer_squares() -> None:
    assert sum(is_outer(Cell(row=r, col=c)) for r in range(6) for c in range(6)) == 20


def test_edges_do_not_wrap() -> None:
    assert step_to(Cell(row=0, col=5), "right") is None
    assert step_to(Cell(row=0, col=0), "up") is None
    assert step_to(Cell(row=2, col=2), "down") == Cell(row=3, col=2)


def test_teleport_may_detour_but_not_return() -> None:
    start = Cell(row=2, col=2)
    assert reachable(start, Cell(row=2, col=4), 2)
    assert reachable(start, Cell(row=2, col=4), 4)  # the rules' example: 4 squares to go 2
    assert not reachable(start, Cell(row=2, col=4), 3)  # parity: no route of odd length
    assert not reachable(start, start, 4)  # never back to where it started
    assert reachable(Cell(row=0, col=0), Cell(row=0, col=1), 3)  # round the corner
    assert not reachable(Cell(row=0, col=0), Cell(row=0, col=5), 4)  # too far
    assert reachable(Cell(row=0, col=0), Cell(row=1, col=0), 3)
