"""Sums: an arithmetic expression with at least one dice term, then an optional comparison."""

from __future__ import annotations

from .arithmetic_parser import ArithmeticParser
from .budget import DiceBudget
from .compare import parse_comparison
from .sums import SumCommand
from .tokens import Cursor


def parse_sum(cursor: Cursor, budget: DiceBudget) -> SumCommand:
    start = cursor.peek
    expression = ArithmeticParser(cursor, budget).add()
    if not expression.has_dice():
        cursor.fail("a roll needs at least one dice term such as 2D6", start)
    comparison = parse_comparison(cursor)
    cursor.end()
    return SumCommand(expression=expression, comparison=comparison)
