"""NinjaSlayer2's first-edition-compatible commands, which BCDice removed in late 2023 and
Kiroku keeps: `NJ4[N]` (a check), `AT4[N]` (melee attack, サツバツ!), `EV4[N]/2` (evasion,
カウンターカラテ) and `EL4[N]` (electronic warfare: successes plus 6s)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from domain.dice.words import DiceRequest, Roller, RollResult

from .difficulty import SIX, Difficulty
from .pool import pool_requests, roll_pool

SATSUBATSU = "サツバツ"
NAMUAMIDABUTSU = "ナムアミダブツ"
COUNTER_KARATE = "カウンターカラテ"

_SATSUBATSU_SIXES = 2
_NAMUAMIDABUTSU_SIXES = 3

LegacyName = Literal["NJ", "AT", "EV", "EL"]


def _melee_criticals(faces: tuple[int, ...], hit: bool) -> tuple[str, ...]:
    # A missed attack deals no damage, so it cannot crit (only reachable at UH2/UH3).
    sixes = faces.count(SIX)
    if not hit or sixes < _SATSUBATSU_SIXES:
        return ()
    # ナムアミダブツ is the special サツバツ: same table, evasion one step harder.
    return (NAMUAMIDABUTSU,) if sixes >= _NAMUAMIDABUTSU_SIXES else (SATSUBATSU,)


@dataclass(frozen=True, slots=True)
class NinjaLegacyCommand:
    name: LegacyName
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

    def rerolls(self) -> bool:
        return False

    def evaluate(self, roller: Roller) -> RollResult:
        roll = roll_pool(self.count, self.difficulty, roller)
        successes = roll.successes
        steps = [roll.head, f"成功数{roll.successes}"]
        criticals: tuple[str, ...] = ()
        if self.name == "AT":
            criticals = _melee_criticals(roll.faces, successes > 0)
        elif self.name == "EV" and self.counter_over is not None:
            criticals = (COUNTER_KARATE,) if successes > self.counter_over else ()
        elif self.name == "EL" and (sixes := roll.faces.count(SIX)):
            # BCDice writes `成功数2 + 2 ＞ 4`: each 6 counts once more.
            successes += sixes
            steps[-1] += f" + {sixes}"
            steps.append(str(successes))
        steps.extend(f"{c}!!" for c in criticals)
        return RollResult(
            text=self.render(),
            successes=successes,
            success=successes > 0,
            criticals=criticals,
            explanation=" ＞ ".join(steps),
            faces=roll.faces,
        )
