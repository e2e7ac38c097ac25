"""NinjaSlayer2's first-edition-compatible commands: `NJ4[N]`, `AT4[N]`, `EV4[N]/2`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from .faces import FaceReader
from .ninja_difficulty import SIX, Difficulty
from .ninja_pool import pool_requests, roll_pool
from .request import DiceRequest
from .result import RollResult

SATSUBATSU = "サツバツ"
NAMUAMIDABUTSU = "ナムアミダブツ"
COUNTER_KARATE = "カウンターカラテ"

_SATSUBATSU_SIXES = 2
_NAMUAMIDABUTSU_SIXES = 3


def _melee_criticals(faces: tuple[int, ...], hit: bool) -> tuple[str, ...]:
    # A missed attack deals no damage, so it cannot crit (only reachable at UH2/UH3).
    sixes = faces.count(SIX)
    if not hit or sixes < _SATSUBATSU_SIXES:
        return ()
    # ナムアミダブツ is the special サツバツ: same table, evasion one step harder.
    return (NAMUAMIDABUTSU,) if sixes >= _NAMUAMIDABUTSU_SIXES else (SATSUBATSU,)


class NinjaLegacyCommand(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["ninja_legacy"] = "ninja_legacy"
    name: Literal["NJ", "AT", "EV"]
    count: int
    difficulty: Difficulty
    explicit_difficulty: bool = True
    counter_over: int | None = None
    """EV only: successes above this (the attack's successes) give カウンターカラテ."""

    def render(self) -> str:
        text = f"{self.name}{self.count}"
        if self.explicit_difficulty:
            text += f"[{self.difficulty.label}]"
        if self.counter_over is not None:
            text += f"/{self.counter_over}"
        return text

    def requests(self) -> tuple[DiceRequest, ...]:
        return pool_requests(self.count)

    def evaluate(self, reader: FaceReader) -> RollResult:
        roll = roll_pool(self.count, self.difficulty, reader)
        success = roll.successes > 0
        criticals: tuple[str, ...] = ()
        if self.name == "AT":
            criticals = _melee_criticals(roll.faces, success)
        elif self.counter_over is not None and roll.successes > self.counter_over:
            criticals = (COUNTER_KARATE,)
        steps = [roll.head, f"成功数{roll.successes}", *(f"{c}!!" for c in criticals)]
        return RollResult(
            text=self.render(),
            successes=roll.successes,
            success=success,
            criticals=criticals,
            explanation=" ＞ ".join(steps),
            faces=roll.faces,
        )
