"""Sum commands: `2D6+1D4-1>=7`, evaluated BCDice-style (dice summed, then compared)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from .compare import Comparison
from .faces import FaceReader
from .request import DiceRequest
from .result import RollResult

_D20 = 20


class DiceTerm(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["dice"] = "dice"
    negative: bool = False
    count: int
    sides: int

    def render(self) -> str:
        return f"{self.count}D{self.sides}"


class ConstantTerm(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["constant"] = "constant"
    negative: bool = False
    value: int

    def render(self) -> str:
        return str(self.value)


Term = DiceTerm | ConstantTerm


def _signed(pieces: list[tuple[bool, str]]) -> str:
    out = []
    for index, (negative, piece) in enumerate(pieces):
        sign = "-" if negative else ("+" if index else "")
        out.append(f"{sign}{piece}")
    return "".join(out)


def _natural_d20(d20_faces: list[int]) -> tuple[str, ...]:
    # BCDice's plain dice bot marks nothing; Kiroku marks the one d20 of a d20 roll. With
    # two d20s (advantage) which one counts is the ruleset's call, so none is marked.
    if len(d20_faces) != 1:
        return ()
    if d20_faces[0] == _D20:
        return ("critical",)
    if d20_faces[0] == 1:
        return ("fumble",)
    return ()


_CRITICAL_TEXT = {"critical": "クリティカル", "fumble": "ファンブル"}


class SumCommand(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["sum"] = "sum"
    terms: tuple[Term, ...]
    comparison: Comparison | None = None

    def render(self) -> str:
        lhs = _signed([(t.negative, t.render()) for t in self.terms])
        return lhs + (self.comparison.render() if self.comparison else "")

    def requests(self) -> tuple[DiceRequest, ...]:
        return tuple(DiceRequest(t.count, t.sides) for t in self.terms if isinstance(t, DiceTerm))

    def evaluate(self, reader: FaceReader) -> RollResult:
        total = 0
        shown: list[tuple[bool, str]] = []
        faces: list[int] = []
        d20_faces: list[int] = []
        for term in self.terms:
            if isinstance(term, DiceTerm):
                rolled = reader.take(term.count)
                value = sum(rolled)
                faces.extend(rolled)
                if term.sides == _D20:
                    d20_faces.extend(rolled)
                shown.append((term.negative, f"{value}[{','.join(map(str, rolled))}]"))
            else:
                value = term.value
                shown.append((term.negative, str(value)))
            total += -value if term.negative else value

        text = self.render()
        lone_die = len(faces) == 1 and len(self.terms) == 1 and not self.terms[0].negative
        steps = [f"({text})"] if lone_die else [f"({text})", _signed(shown)]
        steps.append(str(total))
        success = None
        if self.comparison is not None:
            success = self.comparison.holds(total)
            steps.append("成功" if success else "失敗")
        criticals = _natural_d20(d20_faces)
        steps.extend(_CRITICAL_TEXT[c] for c in criticals)
        return RollResult(
            text=text,
            total=total,
            success=success,
            criticals=criticals,
            explanation=" ＞ ".join(steps),
            faces=tuple(faces),
        )
