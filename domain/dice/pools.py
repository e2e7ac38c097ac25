"""Success pools, BCDice `B` notation: `5B6>=4` counts the faces meeting the target."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from .compare import Comparison
from .faces import FaceReader
from .request import DiceRequest
from .result import RollResult


class PoolCommand(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["pool"] = "pool"
    groups: tuple[DiceRequest, ...]
    comparison: Comparison | None = None

    def render(self) -> str:
        lhs = "+".join(f"{g.count}B{g.sides}" for g in self.groups)
        return lhs + (self.comparison.render() if self.comparison else "")

    def requests(self) -> tuple[DiceRequest, ...]:
        return self.groups

    def evaluate(self, reader: FaceReader) -> RollResult:
        faces = reader.take(sum(g.count for g in self.groups))
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
