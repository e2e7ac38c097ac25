"""Comparison against a target: `>=`, `<=`, `>`, `<`, `=`, `!=` (BCDice also reads `=>`, `=<`,
`==`, `<>`, `=!`). A target may be a calculation (`1D6>=1+2` compares with 3)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, cast

from domain.model.messages import N_, Message

from .arithmetic import constant
from .arithmetic_parser import ArithmeticParser
from .errors import DICE_UNSUPPORTED, DiceError
from .tokens import Cursor, Kind

Operator = Literal[">=", "<=", ">", "<", "=", "!="]

_TESTS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "=": operator.eq,
    "!=": operator.ne,
}


def holds(value: int, op: Operator, target: int) -> bool:
    return _TESTS[op](value, target)


@dataclass(frozen=True, slots=True)
class Comparison:
    op: Operator
    target: int

    def holds(self, value: int) -> bool:
        return _TESTS[self.op](value, self.target)

    def render(self) -> str:
        return f"{self.op}{self.target}"


def parse_operator(cursor: Cursor) -> Operator | None:
    token = cursor.accept(Kind.OP)
    return None if token is None else cast(Operator, token.text)


def parse_number(cursor: Cursor, what: str) -> int:
    """A number that may be a calculation (`3+2`), as BCDice allows for targets."""
    if cursor.at(Kind.PUNCT, "?"):
        raise DiceError(
            DICE_UNSUPPORTED, "BCDice's undecided target '?' is not supported", cursor.peek.position
        )
    start = cursor.peek
    if start.kind is Kind.END:
        cursor.fail(Message("expected {what} but found the end of the command", {"what": what}))
    node = ArithmeticParser(cursor, None, f"{what} must be a number, not a roll").add()
    return constant(node)


def parse_comparison(cursor: Cursor, what: str = N_("a target number")) -> Comparison | None:
    """An optional `>=7` (or `>=3+4`)."""
    op = parse_operator(cursor)
    if op is None:
        return None
    return Comparison(op=op, target=parse_number(cursor, f"{what} after the comparison"))
