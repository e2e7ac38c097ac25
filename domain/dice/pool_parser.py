"""Recursive descent for pools: group ('+' group)* [comparison], group = NBS."""

from __future__ import annotations

from .budget import DiceBudget, check_count, check_sides
from .compare import parse_comparison
from .errors import DICE_SYNTAX, DiceError
from .pools import PoolCommand
from .request import DiceRequest
from .tokens import Cursor, Kind


def _group(cursor: Cursor, budget: DiceBudget) -> DiceRequest:
    count, position = cursor.number("a pool such as 3B6")
    letter = cursor.peek
    if letter.kind is Kind.WORD and letter.text == "D":
        raise DiceError(
            DICE_SYNTAX, "summed D dice cannot be mixed with B pools (5B6)", letter.position
        )
    cursor.expect(Kind.WORD, "'B' (as in 3B6)", "B")
    sides, sides_at = cursor.number("the number of sides after 'B'")
    check_count(count, position)
    check_sides(sides, sides_at)
    budget.spend(count, position)
    return DiceRequest(count, sides)


def parse_pool(cursor: Cursor, budget: DiceBudget) -> PoolCommand:
    groups = [_group(cursor, budget)]
    while cursor.accept(Kind.PUNCT, "+"):
        groups.append(_group(cursor, budget))
    comparison = parse_comparison(cursor, allow_negative=False)
    cursor.end()
    return PoolCommand(groups=tuple(groups), comparison=comparison)
