"""Input clean-up before tokenising: width, case, secret prefix and comment.

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


class Normalised(NamedTuple):
    command: str
    """Half-width, upper-cased command, without the secret `S` and without the comment."""
    offset: int
    """Index in the raw input of `command[0]`."""
    secret: bool
    comment: str
    """Text after the first blank, as typed (BCDice treats it as a comment)."""


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


def _ascii_upper(text: str) -> str:
    # str.upper() would turn 'ß' into 'SS' and shift every later position.
    return "".join(c.upper() if "a" <= c <= "z" else c for c in text)


def normalise(raw: str) -> Normalised:
    if len(raw) > MAX_LENGTH:
        raise DiceError(
            DICE_LIMIT, f"a dice command may be at most {MAX_LENGTH} characters long", MAX_LENGTH
        )
    half = to_halfwidth(raw)
    start = len(half) - len(half.lstrip())
    end = start
    while end < len(half) and not half[end].isspace():
        end += 1
    if start == end:
        raise DiceError(DICE_SYNTAX, "the dice command is empty")
    command = _ascii_upper(half[start:end])
    comment = raw[end:].strip()
    secret = command.startswith("S")
    if secret:
        command = command[1:]
        start += 1
        if not command:
            raise DiceError(DICE_SYNTAX, "'S' (secret roll) must be followed by a command", start)
    return Normalised(command=command, offset=start, secret=secret, comment=comment)
