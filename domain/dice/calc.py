"""BCDice's calculation `C(1+2*3)` (or `C1+2*3`): arithmetic without dice, rounding suffixes
included; nothing is rolled."""

from __future__ import annotations

from dataclasses import dataclass

from domain.model.messages import N_

from .arithmetic import Node, constant
from .arithmetic_parser import ArithmeticParser
from .faces import Roller
from .request import DiceRequest
from .result import RollResult
from .tokens import Cursor, Kind


@dataclass(frozen=True, slots=True)
class CalcCommand:
    expression: Node

    def render(self) -> str:
        return f"C{self.expression.render()}"

    def requests(self) -> tuple[DiceRequest, ...]:
        return ()

    def rerolls(self) -> bool:
        return False

    def evaluate(self, roller: Roller) -> RollResult:
        value = constant(self.expression)
        return RollResult(
            text=self.render(), total=value, explanation=f"計算結果 ＞ {value}", faces=()
        )


def parse_calc(cursor: Cursor) -> CalcCommand:
    """After the `C`: the calculation, to the end of the command."""
    start = cursor.peek
    if start.kind is Kind.END:
        cursor.fail("expected a calculation after C, as in C(1+2)")
    no_dice = N_("C() calculates with numbers only; roll dice without the C, as in 2D6+1")
    expression = ArithmeticParser(cursor, None, no_dice).add()
    cursor.end()
    return CalcCommand(expression)
