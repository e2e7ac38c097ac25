"""Kiroku's dice language: BCDice-compatible commands, evaluated purely against given faces.

`parse(text)` gives an Expression; `expr.dice` says what to roll; `expr.evaluate(faces)`
gives a RollResult. Nothing here rolls, reads a clock or does I/O.
"""

from __future__ import annotations

from .errors import BAD_FACES, DICE_LIMIT, DICE_SYNTAX, DICE_UNSUPPORTED, DiceError
from .expression import Expression
from .limits import MAX_DICE, MAX_LENGTH, MAX_NUMBER, MAX_SIDES
from .parser import parse
from .request import DiceRequest
from .result import RollResult

__all__ = [
    "BAD_FACES",
    "DICE_LIMIT",
    "DICE_SYNTAX",
    "DICE_UNSUPPORTED",
    "MAX_DICE",
    "MAX_LENGTH",
    "MAX_NUMBER",
    "MAX_SIDES",
    "DiceError",
    "DiceRequest",
    "Expression",
    "RollResult",
    "parse",
]
