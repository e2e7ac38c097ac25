"""Success pools, BCDice's BarabaraDice: `5B6>=4` counts the faces meeting the target;
groups join with `+` (`2B6+3B8<5`); without a target the faces are only listed."""

from __future__ import annotations

from dataclasses import dataclass

from .compare import Comparison
from .faces import Roller
from .request import DiceRequest
from .result import RollResult


@dataclass(frozen=True, slots=True)
class PoolCommand:
    groups: tuple[DiceRequest, ...]
    comparison: Comparison | None = None

    def render(self) -> str:
        lhs = "+".join(f"{g.count}B{g.sides}" for g in self.groups)
        return lhs + (self.comparison.render() if self.comparison else "")

    def requests(self) -> tuple[DiceRequest, ...]:
        return self.groups

    def rerolls(self) -> bool:
        return False

    def evaluate(self, roller: Roller) -> RollResult:
        faces = tuple(face for g in self.groups for face in roller.roll(g.count, g.sides))
        text = self.render()
        steps = [f"({text})", ",".join(map(str, faces))]
        successes = None
        success = None
        if self.comparison is not None:
            successes = sum(1 for face in faces if self.comparison.holds(face))
            success = successes > 0
            steps.append(f"成功数{successes}")
        return RollResult(
            text=text,
            successes=successes,
            success=success,
            explanation=" ＞ ".join(steps),
            faces=faces,
        )
