"""Ninja Slayer TRPG 2e difficulty ladder: KIDS 2+ … ULTRA-HARD 6, UH2 and UH3.

Success counting follows the core rules (超高難易度での成功数比較): at UH2 and UH3 the
required set of 6s counts as one success and every further 6 adds one.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.dice.words import Cursor, Kind
from domain.model.messages import N_, Message

SIX = 6

# BCDice's DIFFICULTY_SYMBOL_TO_INTEGER; U and UH are the same difficulty.
LETTER_TARGETS = {"K": 2, "E": 3, "N": 4, "H": 5, "U": 6, "UH": 6}
_UH_LEVELS = (2, 3)
_LABEL_HELP = N_("a difficulty: 2 to 6, K, E, N, H, U, UH, UH2 or UH3")


@dataclass(frozen=True, slots=True)
class Difficulty:
    label: str
    """As written after normalisation: `N`, `4`, `UH2` …"""
    target: int
    """Lowest face that counts."""
    sixes: int = 1
    """6s needed for the first success (2 for UH2, 3 for UH3)."""

    def successes(self, faces: tuple[int, ...]) -> int:
        if self.sixes == 1:
            return sum(1 for face in faces if face >= self.target)
        count = faces.count(SIX)
        return count - self.sixes + 1 if count >= self.sixes else 0

    def roll_label(self, count: int) -> str:
        """BCDice shows the pool as `4B6>=4`; UH2/UH3 have no B-notation, so say so."""
        if self.sixes == 1:
            return f"{count}B6>={self.target}"
        return f"{count}B6[UH{self.sixes}]"


NORMAL = Difficulty(label="N", target=4)


def from_letter(letters: str) -> Difficulty:
    return Difficulty(label=letters, target=LETTER_TARGETS[letters])


def parse_label(cursor: Cursor) -> Difficulty:
    """The part inside `[...]` or after `@` of NJ/AT/EV/EL."""
    token = cursor.peek
    if token.kind is Kind.INT and token.text in {"2", "3", "4", "5", "6"}:
        cursor.take()
        return Difficulty(label=token.text, target=int(token.text))
    if token.kind is Kind.LETTER and cursor.peek_word() in LETTER_TARGETS:
        letters = cursor.word()
        level = cursor.peek
        if letters == "UH" and level.kind is Kind.INT:
            if int(level.text) not in _UH_LEVELS:
                cursor.fail("ULTRA-HARD levels are UH, UH2 and UH3", level)
            cursor.take()
            sixes = int(level.text)
            return Difficulty(label=f"UH{sixes}", target=SIX, sixes=sixes)
        return from_letter(letters)
    cursor.fail(Message("expected {what}", {"what": _LABEL_HELP}), token)
