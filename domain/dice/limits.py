"""Hard limits on what one command may ask for.

They keep a roll's event small, its faces cheap to derive, every number JSON-safe, and the
parser's work bounded whatever a player types.
"""

from __future__ import annotations

MAX_DICE = 100
"""Dice written in one command, all terms, pools and repetitions together (a d66 is two)."""

MAX_SIDES = 1000
"""Faces on one die."""

MAX_LENGTH = 200
"""Characters in the whole input, comment included."""

MAX_NUMBER = 1_000_000
"""Largest number written (constant, target, count, sides)."""

MAX_VALUE = 10**12
"""Largest value (in size) any part of a calculation may reach, whatever the faces; far inside
JavaScript's safe integers."""

MAX_DEPTH = 10
"""Parentheses nested inside each other."""

MAX_REPEAT = 100
"""Repetitions of one command (`x3 2D6`), as BCDice."""

MAX_REROLLS = 1000
"""Dice added by rerolls (`3R6[6]`, `2U6[6]`) in one command; rerolling stops there and the
explanation says so."""
