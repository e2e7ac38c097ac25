"""Recursive descent for BCDice's arithmetic, with or without dice.

    add   := mul (('+' | '-') mul)*
    mul   := unary ('*' unary | '/' unary [U | C | R | F])*
    unary := ('+' | '-')* dice
    dice  := [atom] 'D' [atom] [KH n | KL n | DH n | DL n | MAX | MIN] | atom   (sums only)
    atom  := NUMBER | '(' add ')'

As BCDice: `a+-b` is written `a-b`, `a--b` is `a+b`, and `--b` is `b`. A bare `D20` is `1D20`
and `2D` is `2D6`. Counts, sides and keep counts may be calculations (`(2+3)D(5+5)KH(5-2)`)
and are written as their values.
"""

from __future__ import annotations

from domain.model.messages import N_

from .arithmetic import Binary, Divide, Negate, Node, Number, Parenthesis, Rounding, constant
from .budget import DiceBudget, check_count, check_sides
from .errors import DICE_LIMIT, DICE_SYNTAX, DICE_UNSUPPORTED, DiceError
from .limits import MAX_DEPTH, MAX_VALUE
from .sum_dice import D66, D66Roll, DiceRoll, KeepDrop, KeepRule
from .tokens import Cursor, Kind, Token, literal

IMPLICIT_SIDES = 6
_ROUNDING = {"U": Rounding.UP, "C": Rounding.UP, "R": Rounding.NEAREST, "F": Rounding.FLOOR}
_KEEP_RULES: tuple[KeepRule, ...] = ("KH", "KL", "DH", "DL")
_OTHER_DICE = {"B": N_("B pools (5B6)"), "R": N_("R dice (3R6)"), "U": N_("U dice (2U6)")}


def _checked(node: Node, token: Token) -> Node:
    low, high = node.span()
    if max(abs(low), abs(high)) > MAX_VALUE:
        raise DiceError(
            DICE_LIMIT,
            "a value here could reach {low}, beyond {MAX_VALUE}",
            token.position,
            params={"low": max(abs(low), abs(high)), "MAX_VALUE": MAX_VALUE},
        )
    return node


class ArithmeticParser:
    """`budget` given: dice terms are allowed (a sum); None: numbers only, and a D is refused
    with `no_dice` (saying what is expected instead)."""

    def __init__(
        self, cursor: Cursor, budget: DiceBudget | None, no_dice: str = N_("only numbers here")
    ) -> None:
        self.cursor = cursor
        self.budget = budget
        self.no_dice = no_dice
        self._depth = 0

    def add(self) -> Node:
        node = self.mul()
        while sign := self.cursor.accept(Kind.PUNCT, "+") or self.cursor.accept(Kind.PUNCT, "-"):
            right = self.mul()
            op = sign.text
            if isinstance(right, Negate):  # BCDice writes 2D10--3 as 2D10+3
                op, right = ("-" if op == "+" else "+"), right.body
            node = _checked(Binary(node, op, right), sign)
        return node

    def mul(self) -> Node:
        node = self.unary()
        while True:
            if star := self.cursor.accept(Kind.PUNCT, "*"):
                node = _checked(Binary(node, "*", self.unary()), star)
            elif slash := self.cursor.accept(Kind.PUNCT, "/"):
                divisor = self.unary(divisor=True)
                rounding = Rounding.DOWN
                letter = self.cursor.peek
                if letter.kind is Kind.LETTER and letter.text in _ROUNDING:
                    rounding = _ROUNDING[self.cursor.take().text]
                low, high = divisor.span()
                if low <= 0 <= high:
                    what = N_("by 0") if low == high else N_("by a value that can be 0")
                    raise DiceError(
                        DICE_SYNTAX, "division {what}", slash.position, params={"what": what}
                    )
                node = _checked(Divide(node, divisor, rounding), slash)
            else:
                return node

    def unary(self, divisor: bool = False) -> Node:
        negative = False
        first = self.cursor.peek
        while sign := self.cursor.accept(Kind.PUNCT, "+") or self.cursor.accept(Kind.PUNCT, "-"):
            negative ^= sign.text == "-"
        node = self.dice(divisor)
        return _checked(Negate(node), first) if negative else node

    def dice(self, divisor: bool = False) -> Node:
        if self.budget is not None and self.cursor.at(Kind.LETTER, "D"):
            return self._dice_after_count(1, self.cursor.peek, bare=True)
        start = self.cursor.peek
        if self.budget is None and self.cursor.at(Kind.LETTER, "D"):
            raise DiceError(DICE_SYNTAX, self.no_dice, start.position)
        node = self.atom()
        letter = self.cursor.peek
        if letter.kind is Kind.LETTER and letter.text == "D":
            if self.budget is None:
                raise DiceError(DICE_SYNTAX, self.no_dice, letter.position)
            return self._dice_after_count(self.number_of(node, start, N_("a dice count")), start)
        mixed = letter.kind is Kind.LETTER and letter.text in _OTHER_DICE and not divisor
        if self.budget is not None and mixed:
            raise DiceError(
                DICE_SYNTAX,
                "{text} cannot be mixed with summed D dice",
                letter.position,
                params={"text": _OTHER_DICE[letter.text]},
            )
        return node

    def atom(self) -> Node:
        opening = self.cursor.accept(Kind.PUNCT, "(")
        if opening is None:
            token = self.cursor.expect(Kind.INT, N_("a number or a dice term such as 2D6"))
            return Number(literal(token))
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise DiceError(
                DICE_LIMIT,
                "parentheses may be nested at most {MAX_DEPTH} deep",
                opening.position,
                params={"MAX_DEPTH": MAX_DEPTH},
            )
        inner = self.add()
        self.cursor.expect(Kind.PUNCT, "')'", ")")
        self._depth -= 1
        return Parenthesis(inner)

    def number_of(self, node: Node, start: Token, what: str) -> int:
        """The value of a count, sides or keep number, which may be a calculation."""
        if node.has_dice():
            raise DiceError(
                DICE_SYNTAX,
                "{what} must be a number, not a roll",
                start.position,
                params={"what": what},
            )
        return constant(node)

    def _dice_after_count(self, count: int, start: Token, bare: bool = False) -> Node:
        assert self.budget is not None
        d = self.cursor.take()
        sides_at = self.cursor.peek
        if self.cursor.at(Kind.INT) or self.cursor.at(Kind.PUNCT, "("):
            sides = self.number_of(self.atom(), sides_at, N_("the number of sides"))
        elif bare:
            self.cursor.fail("a bare D needs its sides, as in D20", sides_at)
        else:
            # BCDice's preprocessor reads a bare `2D` as `2D6` (sides_implicit_d).
            sides, sides_at = IMPLICIT_SIDES, d
        check_count(count, start.position)
        rule = self._keep_rule()
        if sides == D66 and rule is None:
            self.budget.spend(2 * count, start.position)
            return D66Roll(count)
        check_sides(sides, sides_at.position)
        self.budget.spend(count, start.position)
        if rule is None:
            return DiceRoll(count, sides)
        if sides == D66:
            raise DiceError(DICE_UNSUPPORTED, "keep/drop on d66 dice is not supported", d.position)
        keep, n = rule
        return KeepDrop(count, sides, keep, n)

    def _keep_rule(self) -> tuple[KeepRule, int] | None:
        if self.cursor.accept_letters("MAX"):
            return ("KH", 1)
        if self.cursor.accept_letters("MIN"):
            return ("KL", 1)
        for rule in _KEEP_RULES:
            if self.cursor.accept_letters(rule):
                start = self.cursor.peek
                return (rule, self.number_of(self.atom(), start, f"the number after {rule}"))
        return None
