"""Comparison against a target: `>=`, `<=`, `>`, `<`, `=`, `!=`."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict

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


class Comparison(BaseModel):
    model_config = ConfigDict(frozen=True)

    op: Operator
    target: int

    def holds(self, value: int) -> bool:
        return _TESTS[self.op](value, self.target)

    def render(self) -> str:
        return f"{self.op}{self.target}"


def parse_comparison(cursor: Cursor, allow_negative: bool) -> Comparison | None:
    """An optional `>=7`; a leading minus on the target only where sums allow it."""
    op = cursor.accept(Kind.OP)
    if op is None:
        return None
    negative = allow_negative and cursor.accept(Kind.PUNCT, "-") is not None
    target, _ = cursor.number("a target number after the comparison")
    return Comparison(op=op.text, target=-target if negative else target)
