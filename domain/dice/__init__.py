"""Kiroku's dice language: BCDice-compatible commands, evaluated purely against given faces.

`parse(text)` gives an Expression; `expr.dice` says what to roll; `expr.evaluate(faces)`
gives a RollResult; `expr.roll(die)` rolls with a fair die, rerolls included.
`chat_command(line)` says whether a chat line starts with a command. Nothing here rolls by
itself, reads a clock or does I/O.
"""

from __future__ import annotations

from .chat import ChatCommand, chat_command
from .errors import BAD_FACES, DICE_LIMIT, DICE_SYNTAX, DICE_UNSUPPORTED, SUPPORTED, DiceError
from .expression import Expression, Rolled
from .limits import (
    MAX_DEPTH,
    MAX_DICE,
    MAX_LENGTH,
    MAX_NUMBER,
    MAX_REPEAT,
    MAX_REROLLS,
    MAX_SIDES,
    MAX_VALUE,
)
from .parser import parse
from .request import DiceRequest
from .result import RollResult

__all__ = [
    "BAD_FACES",
    "DICE_LIMIT",
    "DICE_SYNTAX",
    "DICE_UNSUPPORTED",
    "MAX_DEPTH",
    "MAX_DICE",
    "MAX_LENGTH",
    "MAX_NUMBER",
    "MAX_REPEAT",
    "MAX_REROLLS",
    "MAX_SIDES",
    "MAX_VALUE",
    "SUPPORTED",
    "ChatCommand",
    "DiceError",
    "DiceRequest",
    "Expression",
    "RollResult",
    "Rolled",
    "chat_command",
    "parse",
]
