"""Kiroku's own typed dice, evaluated purely against given faces. BCDice itself (bcdice.py
here, run by domain/adapters/bcdice_engine.py) answers every chat line and roll command; this parser
is kept for two jobs only (docs/reference/typed-dice.md): the rulesets' typed
mechanics (超人ロック's 2D6 checks, Ninja Slayer's pools, the mech d20 rolls) and
re-evaluating rolls recorded before BCDice answered, so that those games still verify.

`parse(text)` gives an Expression; `expr.dice` says what to roll; `expr.evaluate(faces)`
gives a RollResult; `expr.roll(die)` rolls with a fair die, rerolls included. Nothing here
rolls by itself, reads a clock or does I/O. The common commands are read everywhere; a
ruleset adds its own (Ninja Slayer's `N5`, `NJ4[N]` …) as `DiceWords` (words.py), passed in
as `parse(text, words)`: nothing here knows any game system's words.
"""

from __future__ import annotations

from .errors import (
    BAD_FACES,
    DICE_LIMIT,
    DICE_SYNTAX,
    DICE_UNSUPPORTED,
    SUPPORTED,
    DiceError,
    supported,
)
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
from .words import DiceWords

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
    "DiceError",
    "DiceRequest",
    "DiceWords",
    "Expression",
    "RollResult",
    "Rolled",
    "parse",
    "supported",
]
