"""Recursive descent for sums: term (('+'|'-') term)* [comparison]."""

from __future__ import annotations

from .budget import DiceBudget, check_count, check_sides
from .compare import parse_comparison
from .errors import DICE_SYNTAX, DICE_UNSUPPORTED, DiceError
from .sums import ConstantTerm, DiceTerm, SumCommand, Term
from .tokens import ARITHMETIC_UNSUPPORTED, Cursor, Kind

IMPLICIT_SIDES = 6


def _term(cursor: Cursor, negative: bool, budget: DiceBudget) -> Term:
    value, position = cursor.number("a number or a dice term such as 2D6")
    word = cursor.peek
    if word.kind is not Kind.WORD:
        return ConstantTerm(negative=negative, value=value)
    if word.text == "B":
        raise DiceError(
            DICE_SYNTAX, "B pools (5B6) cannot be mixed with summed D dice", word.position
        )
    if word.text != "D":
        raise DiceError(DICE_UNSUPPORTED, f"'{word.text}' dice are not supported", word.position)
    cursor.take()
    if cursor.peek.kind is Kind.INT:
        sides, sides_at = cursor.number("the number of sides after 'D'")
    else:
        # BCDice's preprocessor reads a bare `2D` as `2D6` (sides_implicit_d).
        sides, sides_at = IMPLICIT_SIDES, word.position
    check_count(value, position)
    check_sides(sides, sides_at)
    budget.spend(value, position)
    return DiceTerm(negative=negative, count=value, sides=sides)


def parse_sum(cursor: Cursor, budget: DiceBudget) -> SumCommand:
    negative = cursor.accept(Kind.PUNCT, "-") is not None
    start = cursor.peek
    terms = [_term(cursor, negative, budget)]
    while True:
        sign = cursor.accept(Kind.PUNCT, "+") or cursor.accept(Kind.PUNCT, "-")
        if sign is None:
            break
        terms.append(_term(cursor, sign.text == "-", budget))
    if not any(isinstance(t, DiceTerm) for t in terms):
        cursor.fail("a roll needs at least one dice term such as 2D6", start)
    slash = cursor.peek
    if slash.kind is Kind.PUNCT and slash.text == "/":
        raise DiceError(DICE_UNSUPPORTED, ARITHMETIC_UNSUPPORTED, slash.position)
    comparison = parse_comparison(cursor, allow_negative=True)
    cursor.end()
    return SumCommand(terms=tuple(terms), comparison=comparison)
