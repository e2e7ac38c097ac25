"""Sum commands (BCDice's AddDice): `2D6+1>=7`, `(2D6+1D4)*2`, `1D6+3/2U`, `4D6KH3`, `2D66`.

The explanation follows BCDice: `(command) ＞ middle ＞ total [＞ 成功/失敗]`, the middle
showing each dice term as `sum[faces]`; a lone die skips the middle (`(1D20) ＞ 17`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .arithmetic import D20, Node, Tally
from .compare import Comparison
from .faces import Roller
from .request import DiceRequest
from .result import RollResult
from .sum_dice import DiceRoll

_CRITICAL_TEXT = {"critical": "クリティカル", "fumble": "ファンブル"}


def natural_d20(d20_faces: list[int]) -> tuple[str, ...]:
    # BCDice's plain dice bot marks nothing; Kiroku marks the one d20 of a d20 roll. With
    # two d20s (advantage) which one counts is the ruleset's call, so none is marked.
    if len(d20_faces) != 1:
        return ()
    if d20_faces[0] == D20:
        return ("critical",)
    if d20_faces[0] == 1:
        return ("fumble",)
    return ()


@dataclass(frozen=True, slots=True)
class SumCommand:
    expression: Node
    comparison: Comparison | None = None

    def render(self) -> str:
        target = self.comparison.render() if self.comparison else ""
        return self.expression.render() + target

    def requests(self) -> tuple[DiceRequest, ...]:
        return self.expression.requests()

    def rerolls(self) -> bool:
        return False

    def evaluate(self, roller: Roller) -> RollResult:
        mark = roller.mark()
        tally = Tally(roller)
        shown = self.expression.evaluate(tally)
        text = self.render()
        lone_die = tally.dice <= 1 and isinstance(self.expression, DiceRoll)
        steps = [f"({text})"] if lone_die else [f"({text})", shown.text]
        steps.append(str(shown.value))
        success = None
        if self.comparison is not None:
            success = self.comparison.holds(shown.value)
            steps.append("成功" if success else "失敗")
        criticals = natural_d20(tally.d20s)
        steps.extend(_CRITICAL_TEXT[c] for c in criticals)
        return RollResult(
            text=text,
            total=shown.value,
            success=success,
            criticals=criticals,
            explanation=" ＞ ".join(steps),
            faces=roller.faces_since(mark),
        )
