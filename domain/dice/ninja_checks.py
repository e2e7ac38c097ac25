"""NinjaSlayer2 checks `K5`, `E5`, `N5`, `H5`, `U5`, `UH5` and series `N5,3,4`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from .faces import FaceReader
from .ninja_difficulty import Difficulty
from .ninja_pool import pool_requests, roll_pool
from .request import DiceRequest
from .result import RollResult

SERIES_SEPARATOR = " / "


class NinjaCheckCommand(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["ninja_check"] = "ninja_check"
    difficulty: Difficulty
    counts: tuple[int, ...]

    def render(self) -> str:
        return self.difficulty.label + ",".join(map(str, self.counts))

    def requests(self) -> tuple[DiceRequest, ...]:
        return tuple(r for count in self.counts for r in pool_requests(count))

    def _one(self, count: int, reader: FaceReader) -> RollResult:
        roll = roll_pool(count, self.difficulty, reader)
        return RollResult(
            text=f"{self.difficulty.label}{count}",
            successes=roll.successes,
            success=roll.successes > 0,
            explanation=f"{roll.head} ＞ 成功数:{roll.successes}",
            faces=roll.faces,
        )

    def evaluate(self, reader: FaceReader) -> RollResult:
        parts = tuple(self._one(count, reader) for count in self.counts)
        if len(parts) == 1:
            return parts[0]
        # As BCDice: the series as a whole succeeds when its successes add up to one or more.
        successes = sum(p.successes or 0 for p in parts)
        return RollResult(
            text=self.render(),
            successes=successes,
            success=successes > 0,
            explanation=SERIES_SEPARATOR.join(p.explanation for p in parts),
            faces=tuple(face for p in parts for face in p.faces),
            parts=parts,
        )
