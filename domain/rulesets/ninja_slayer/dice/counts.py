"""NinjaSlayer2's extra counts after a check: `[S]`, `[C]`, `[>=5]` (BCDice's appendix).

Each counts the faces of every pool that meet it and shows them, highest first:
`[S]` or `[S5]` (サツバツ！, faces of 6, or of 5 or more), `[C]` or `[C5]` (クリティカル！,
likewise), `[>=5]` and the other comparisons with a face 1–6 (追加判定). As in BCDice, each
count is added to the pool's success count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from domain.dice.words import Cursor, Kind, Operator, holds, parse_operator

Kind_ = Literal["S", "C", "compare"]
_LABELS = {"S": "サツバツ！", "C": "クリティカル！", "compare": "追加判定"}
_FACES = ("1", "2", "3", "4", "5", "6")
DEFAULT_FACE = 6


@dataclass(frozen=True, slots=True)
class ExtraCount:
    kind: Kind_
    op: Operator
    face: int
    explicit: bool = True
    """Whether `[S]`/`[C]` named its face (`[S5]`) or took the default 6."""

    def render(self) -> str:
        if self.kind == "compare":
            return f"[{self.op}{self.face}]"
        return f"[{self.kind}{self.face if self.explicit else ''}]"

    def count(self, faces: tuple[int, ...]) -> tuple[int, str]:
        """The count and BCDice's text for it: `サツバツ！:1[6]`, `追加判定:0`."""
        met = sorted((f for f in faces if holds(f, self.op, self.face)), reverse=True)
        listed = f"[{','.join(map(str, met))}]" if met else ""
        return len(met), f"{_LABELS[self.kind]}:{len(met)}{listed}"


def _face(cursor: Cursor, required: bool) -> int | None:
    token = cursor.peek
    if token.kind is Kind.INT and token.text in _FACES:
        cursor.take()
        return int(token.text)
    if required or token.kind is Kind.INT:
        cursor.fail("expected a face from 1 to 6", token)
    return None


def parse_extra(cursor: Cursor) -> ExtraCount:
    """One `[...]`, the `[` already taken."""
    letter = cursor.peek
    if letter.kind is Kind.LETTER and letter.text in ("S", "C"):
        cursor.take()
        face = _face(cursor, required=False)
        extra = ExtraCount(
            kind="S" if letter.text == "S" else "C",
            op=">=",
            face=DEFAULT_FACE if face is None else face,
            explicit=face is not None,
        )
    else:
        op = parse_operator(cursor)
        if op is None:
            cursor.fail("expected S, C or a comparison such as >=5 inside [ ]", letter)
        face = _face(cursor, required=True)
        assert face is not None
        extra = ExtraCount(kind="compare", op=op, face=face)
    cursor.expect(Kind.PUNCT, "']'", "]")
    return extra
