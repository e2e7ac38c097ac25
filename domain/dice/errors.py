"""The one exception the dice language raises, and what every refusal tells the player."""

from __future__ import annotations

from collections.abc import Sequence

DICE_SYNTAX = "dice_syntax"
DICE_LIMIT = "dice_limit"
DICE_UNSUPPORTED = "dice_unsupported"
BAD_FACES = "bad_faces"

COMMON = (
    "2D6+1>=7, (2D6+1)*3/2U, 4D6KH3, 3D6MAX, D66, 5B6>=4, 3R6[6]>=5, 2U6[6]+1, C(1+2), "
    "CHOICE[a,b], x3 2D6"
)
"""The common commands, as the line every refusal ends with names them."""


def supported(extra: Sequence[str] = ()) -> str:
    """One line naming what is read: the common commands, then each set of dice words a
    ruleset added (`extra`: "Ninja Slayer's N5, …"); every syntax and unsupported refusal
    ends with it."""
    return f"Kiroku reads BCDice's {' and '.join((COMMON, *extra))}; S in front rolls in secret"


SUPPORTED = supported()
"""The line for the common commands alone (a parse given no ruleset's dice words)."""


class DiceError(Exception):
    """A refused dice command or a refused set of faces.

    `code` is stable (callers branch on it); `message` is for players; `position` is the
    0-based index into the string given to `parse`, when the fault has a place.
    """

    def __init__(self, code: str, message: str, position: int | None = None) -> None:
        self.code = code
        self.message = message
        self.position = position
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.position is None:
            return self.message
        return f"{self.message} (at position {self.position})"

    def __repr__(self) -> str:
        return f"DiceError({self.code!r}, {self.message!r}, {self.position!r})"


def with_supported(error: DiceError, line: str = SUPPORTED) -> DiceError:
    """The same refusal, its message ending with what Kiroku does read (`line`, once)."""
    if error.code not in (DICE_SYNTAX, DICE_UNSUPPORTED) or line in error.message:
        return error
    return DiceError(error.code, f"{error.message}. {line}", error.position)
