"""NinjaSlayer2 checks `K5`, `E5`, `N5`, `H5`, `U5`, `UH5`, series `N5,3,4`, a difficulty per
pool `E1,N2,H3` (Kiroku), and extra counts `N5[S][C][>=5]`."""

from __future__ import annotations

from dataclasses import dataclass

from domain.dice.words import DiceRequest, Roller, RollResult

from .counts import ExtraCount
from .difficulty import Difficulty
from .pool import pool_requests, roll_pool

SERIES_SEPARATOR = " / "


@dataclass(frozen=True, slots=True)
class NinjaPool:
    difficulty: Difficulty
    count: int

    def render(self) -> str:
        return f"{self.difficulty.label}{self.count}"


@dataclass(frozen=True, slots=True)
class NinjaCheckCommand:
    pools: tuple[NinjaPool, ...]
    extras: tuple[ExtraCount, ...] = ()

    def render(self) -> str:
        first = self.pools[0].difficulty
        if all(p.difficulty == first for p in self.pools):
            series = first.label + ",".join(str(p.count) for p in self.pools)
        else:
            series = ",".join(p.render() for p in self.pools)
        return series + "".join(e.render() for e in self.extras)

    def requests(self) -> tuple[DiceRequest, ...]:
        return tuple(r for pool in self.pools for r in pool_requests(pool.count))

    def rerolls(self) -> bool:
        return False

    def _one(self, pool: NinjaPool, roller: Roller) -> RollResult:
        roll = roll_pool(pool.count, pool.difficulty, roller)
        successes = roll.successes
        shown = [f"成功数:{roll.successes}"]
        for extra in self.extras:
            counted, text = extra.count(roll.faces)
            successes += counted  # BCDice adds every extra count to the success count
            shown.append(text)
        return RollResult(
            text=pool.render() + "".join(e.render() for e in self.extras),
            successes=successes,
            success=successes > 0,
            explanation=f"{roll.head} ＞ {', '.join(shown)}",
            faces=roll.faces,
        )

    def evaluate(self, roller: Roller) -> RollResult:
        parts = tuple(self._one(pool, roller) for pool in self.pools)
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
