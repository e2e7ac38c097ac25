"""Input clean-up before reading: type, length, full-width characters, case.

Every step maps one character to one character so that positions reported to the player
stay indices into exactly what they typed.
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import DICE_LIMIT, DICE_SYNTAX, DiceError
from .limits import MAX_LENGTH

_FULLWIDTH_FIRST = 0xFF01  # '！'
_FULLWIDTH_LAST = 0xFF5E  # '～'
_FULLWIDTH_OFFSET = 0xFF01 - 0x21
_IDEOGRAPHIC_SPACE = "\u3000"


class Line(NamedTuple):
    raw: str
    """As typed."""
    half: str
    """Half-width, same length as `raw`: `half[i]` is `raw[i]` read as ASCII where it can be."""


def to_halfwidth(text: str) -> str:
    """Full-width ASCII (`２Ｄ６＜＝７`) to its half-width form, like chat tools feed BCDice."""
    out = []
    for char in text:
        code = ord(char)
        if _FULLWIDTH_FIRST <= code <= _FULLWIDTH_LAST:
            out.append(chr(code - _FULLWIDTH_OFFSET))
        elif char == _IDEOGRAPHIC_SPACE:
            out.append(" ")
        else:
            out.append(char)
    return "".join(out)


def ascii_upper(text: str) -> str:
    # str.upper() would turn 'ß' into 'SS' and shift every later position.
    return "".join(c.upper() if "a" <= c <= "z" else c for c in text)


def read_line(raw: object) -> Line:
    if not isinstance(raw, str):
        raise DiceError(DICE_SYNTAX, "a dice command must be text")
    if len(raw) > MAX_LENGTH:
        raise DiceError(
            DICE_LIMIT,
            "a dice command may be at most {MAX_LENGTH} characters long",
            MAX_LENGTH,
            params={"MAX_LENGTH": MAX_LENGTH},
        )
    return Line(raw=raw, half=to_halfwidth(raw))


def skip_blanks(text: str, start: int) -> int:
    while start < len(text) and text[start].isspace():
        start += 1
    return start


def word_end(text: str, start: int) -> int:
    """End of the blank-free run starting at `start` (BCDice: a command ends at a blank)."""
    end = start
    while end < len(text) and not text[end].isspace():
        end += 1
    return end
