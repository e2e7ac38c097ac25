"""The dice of a sum: `2D6`, keep/drop `5D10KH3` (`3D6MAX` is `3D6KH1`), and d66 dice `2D66`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .arithmetic import Shown, Span, Tally
from .request import DiceRequest

D66 = 66

KeepRule = Literal["KH", "KL", "DH", "DL"]


def _listed(values: list[int] | tuple[int, ...]) -> str:
    return ",".join(map(str, values))


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """`NdS`: the faces added up, shown as `sum[faces]`."""

    count: int
    sides: int

    def render(self) -> str:
        return f"{self.count}D{self.sides}"

    def span(self) -> Span:
        return (self.count, self.count * self.sides)

    def has_dice(self) -> bool:
        return True

    def requests(self) -> tuple[DiceRequest, ...]:
        return (DiceRequest(self.count, self.sides),)

    def evaluate(self, tally: Tally) -> Shown:
        faces = tally.roll(self.count, self.sides)
        return Shown(sum(faces), f"{sum(faces)}[{_listed(faces)}]")


@dataclass(frozen=True, slots=True)
class KeepDrop:
    """`5D10KH3` keeps the 3 highest, `KL` the lowest; `DH`/`DL` drop them. BCDice shows all
    faces sorted, low to high, after the kept sum: `21[2,3,5,8,8]`."""

    count: int
    sides: int
    rule: KeepRule
    n: int

    def render(self) -> str:
        return f"{self.count}D{self.sides}{self.rule}{self.n}"

    def kept(self) -> int:
        chosen = min(self.n, self.count)
        return chosen if self.rule.startswith("K") else self.count - chosen

    def span(self) -> Span:
        return (self.kept(), self.kept() * self.sides)

    def has_dice(self) -> bool:
        return True

    def requests(self) -> tuple[DiceRequest, ...]:
        return (DiceRequest(self.count, self.sides),)

    def evaluate(self, tally: Tally) -> Shown:
        faces = tally.roll(self.count, self.sides)
        ordered = sorted(faces)
        highest_first = self.rule.endswith("H")
        pick = ordered[::-1] if highest_first else ordered
        chosen = min(self.n, self.count)
        kept = pick[:chosen] if self.rule.startswith("K") else pick[chosen:]
        return Shown(sum(kept), f"{sum(kept)}[{_listed(ordered)}]")


@dataclass(frozen=True, slots=True)
class D66Roll:
    """`2D66` in a sum: each d66 is two d6 read as tens and units, `16` from 1 then 6."""

    count: int

    def render(self) -> str:
        return f"{self.count}D{D66}"

    def span(self) -> Span:
        return (11 * self.count, 66 * self.count)

    def has_dice(self) -> bool:
        return True

    def requests(self) -> tuple[DiceRequest, ...]:
        return (DiceRequest(2 * self.count, 6),)

    def evaluate(self, tally: Tally) -> Shown:
        faces = tally.roller.roll(2 * self.count, 6)
        tally.dice += self.count
        values = [10 * faces[i] + faces[i + 1] for i in range(0, len(faces), 2)]
        return Shown(sum(values), f"{sum(values)}[{_listed(values)}]")
