"""BCDice's repetition: `x3 2D6`, `rep3 2D6` or `repeat3 2D6` rolls the command after the blank
3 times (1 to 100), each on its own faces. It cannot repeat a repetition."""

from __future__ import annotations

from dataclasses import dataclass

from .commands import Command
from .faces import Roller
from .request import DiceRequest
from .result import RollResult

SEPARATOR = " / "


@dataclass(frozen=True, slots=True)
class RepeatCommand:
    inner: Command
    times: int

    def render(self) -> str:
        return f"x{self.times} {self.inner.render()}"

    def requests(self) -> tuple[DiceRequest, ...]:
        return self.inner.requests() * self.times

    def rerolls(self) -> bool:
        return self.inner.rerolls()

    def evaluate(self, roller: Roller) -> RollResult:
        parts = tuple(self.inner.evaluate(roller) for _ in range(self.times))
        # BCDice writes `#1` and each result on lines of their own; a Kiroku explanation is one
        # line, so the repetitions are joined like the pools of a Ninja Slayer series.
        explanation = SEPARATOR.join(f"#{n} {p.explanation}" for n, p in enumerate(parts, 1))
        return RollResult(
            text=self.render(),
            explanation=explanation,
            faces=tuple(face for part in parts for face in part.faces),
            parts=parts,
        )
