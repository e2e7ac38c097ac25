"""Integer arithmetic as BCDice reads it: `+ - * /`, parentheses, unary minus, and division
with a rounding suffix (`/2U` or `/2C` up, `/2R` to nearest, `/2F` or none down).

Every node knows three things: its canonical text (`render`), the span of values it can take
whatever the faces (`span`, checked against MAX_VALUE and for division by zero while
parsing), and how it evaluates (`evaluate`: its value and the BCDice-style text showing it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple, Protocol

from .faces import Roller
from .request import DiceRequest

D20 = 20  # the die whose natural 20 and natural 1 Kiroku marks

Span = tuple[int, int]


class Shown(NamedTuple):
    value: int
    text: str
    """BCDice's middle step: `8[5,3]+(4[4]+3)*3`."""


@dataclass
class Tally:
    """What evaluating a sum noticed besides its value."""

    roller: Roller
    dice: int = 0
    """Dice values rolled (a d66 counts once): BCDice shows a lone die without a middle step."""
    d20s: list[int] = field(default_factory=list)
    """Faces of the d20s rolled, for Kiroku's natural 20 / natural 1 marks."""

    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        """`count` dice of `sides`, counted, their d20 faces noted."""
        faces = self.roller.roll(count, sides)
        self.dice += count
        if sides == D20:
            self.d20s.extend(faces)
        return faces


class Node(Protocol):
    def render(self) -> str: ...

    def span(self) -> Span: ...

    def has_dice(self) -> bool: ...

    def requests(self) -> tuple[DiceRequest, ...]: ...

    def evaluate(self, tally: Tally) -> Shown: ...


class Rounding(Enum):
    """Division's rounding; the value is the suffix written after the divisor."""

    DOWN = ""  # DiceBot's default: toward minus infinity, like Ruby's Integer#/
    UP = "U"  # BCDice reads C the same way and writes it U
    NEAREST = "R"  # halves away from zero, like Ruby's Float#round
    FLOOR = "F"


def divide(dividend: int, divisor: int, rounding: Rounding) -> int:
    """Exact integer division with BCDice's rounding (divisor never 0: the parser refuses)."""
    if rounding is Rounding.UP:
        return -((-dividend) // divisor)
    if rounding is Rounding.NEAREST:
        quotient, remainder = divmod(abs(dividend), abs(divisor))
        if 2 * remainder >= abs(divisor):
            quotient += 1
        return -quotient if (dividend < 0) != (divisor < 0) else quotient
    return dividend // divisor


@dataclass(frozen=True, slots=True)
class Number:
    value: int

    def render(self) -> str:
        return str(self.value)

    def span(self) -> Span:
        return (self.value, self.value)

    def has_dice(self) -> bool:
        return False

    def requests(self) -> tuple[DiceRequest, ...]:
        return ()

    def evaluate(self, tally: Tally) -> Shown:
        return Shown(self.value, str(self.value))


@dataclass(frozen=True, slots=True)
class Negate:
    body: Node

    def render(self) -> str:
        return f"-{self.body.render()}"

    def span(self) -> Span:
        low, high = self.body.span()
        return (-high, -low)

    def has_dice(self) -> bool:
        return self.body.has_dice()

    def requests(self) -> tuple[DiceRequest, ...]:
        return self.body.requests()

    def evaluate(self, tally: Tally) -> Shown:
        inner = self.body.evaluate(tally)
        return Shown(-inner.value, f"-{inner.text}")


@dataclass(frozen=True, slots=True)
class Parenthesis:
    inner: Node

    def render(self) -> str:
        return f"({self.inner.render()})"

    def span(self) -> Span:
        return self.inner.span()

    def has_dice(self) -> bool:
        return self.inner.has_dice()

    def requests(self) -> tuple[DiceRequest, ...]:
        return self.inner.requests()

    def evaluate(self, tally: Tally) -> Shown:
        inner = self.inner.evaluate(tally)
        return Shown(inner.value, f"({inner.text})")


def _corners(left: Span, right: Span, combine: _Combine) -> Span:
    values = [combine(a, b) for a in left for b in right]
    return (min(values), max(values))


class _Combine(Protocol):
    def __call__(self, left: int, right: int, /) -> int: ...


_APPLY: dict[str, _Combine] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
}


@dataclass(frozen=True, slots=True)
class Binary:
    left: Node
    op: str
    """`+`, `-` or `*`."""
    right: Node

    def render(self) -> str:
        return f"{self.left.render()}{self.op}{self.right.render()}"

    def span(self) -> Span:
        return _corners(self.left.span(), self.right.span(), _APPLY[self.op])

    def has_dice(self) -> bool:
        return self.left.has_dice() or self.right.has_dice()

    def requests(self) -> tuple[DiceRequest, ...]:
        return self.left.requests() + self.right.requests()

    def evaluate(self, tally: Tally) -> Shown:
        left = self.left.evaluate(tally)
        right = self.right.evaluate(tally)
        return Shown(_APPLY[self.op](left.value, right.value), f"{left.text}{self.op}{right.text}")


@dataclass(frozen=True, slots=True)
class Divide:
    left: Node
    right: Node
    rounding: Rounding

    def render(self) -> str:
        return f"{self.left.render()}/{self.right.render()}{self.rounding.value}"

    def span(self) -> Span:
        rounding = self.rounding
        return _corners(self.left.span(), self.right.span(), lambda a, b: divide(a, b, rounding))

    def has_dice(self) -> bool:
        return self.left.has_dice() or self.right.has_dice()

    def requests(self) -> tuple[DiceRequest, ...]:
        return self.left.requests() + self.right.requests()

    def evaluate(self, tally: Tally) -> Shown:
        left = self.left.evaluate(tally)
        right = self.right.evaluate(tally)
        value = divide(left.value, right.value, self.rounding)
        return Shown(value, f"{left.text}/{right.text}{self.rounding.value}")


def constant(node: Node) -> int:
    """The value of a node without dice (counts, sides, targets, thresholds, `C(...)`)."""
    low, high = node.span()
    if low != high:  # pragma: no cover - the parsers only call this on dice-free nodes
        raise AssertionError("constant() on a node with dice")
    return low
