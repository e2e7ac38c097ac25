"""BCDice's D66: two d6 read as tens and units. `D66` and `D66N` keep the order rolled,
`D66A`/`D66S` put the smaller first, `D66D` the larger. (Which order plain `D66` uses is a
game system's choice in BCDice; its plain dice bot, like Kiroku, keeps the order rolled.)"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .faces import Roller
from .request import DiceRequest
from .result import RollResult

Order = Literal["", "N", "A", "S", "D"]
ORDERS: tuple[Order, ...] = ("", "N", "A", "S", "D")


@dataclass(frozen=True, slots=True)
class D66Command:
    order: Order = ""

    def render(self) -> str:
        return f"D66{self.order}"

    def requests(self) -> tuple[DiceRequest, ...]:
        return (DiceRequest(2, 6),)

    def rerolls(self) -> bool:
        return False

    def evaluate(self, roller: Roller) -> RollResult:
        rolled = roller.roll(2, 6)
        first, second = rolled
        if self.order in ("A", "S"):
            first, second = sorted((first, second))
        elif self.order == "D":
            second, first = sorted((first, second))
        value = 10 * first + second
        text = self.render()
        return RollResult(
            text=text,
            total=value,
            explanation=f"({text}) ＞ {value}",
            faces=rolled,
        )
