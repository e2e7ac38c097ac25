"""The one exception the dice language raises, and what every refusal tells the player."""

from __future__ import annotations

DICE_SYNTAX = "dice_syntax"
DICE_LIMIT = "dice_limit"
DICE_UNSUPPORTED = "dice_unsupported"
BAD_FACES = "bad_faces"

SUPPORTED = (
    "Kiroku reads BCDice's 2D6+1>=7, (2D6+1)*3/2U, 4D6KH3, 3D6MAX, D66, 5B6>=4, 3R6[6]>=5, "
    "2U6[6]+1, C(1+2), CHOICE[a,b], x3 2D6 and Ninja Slayer's N5, E1,N2, N5[S][C][>=5], "
    "NJ4[H], AT4, EV4/2, EL4, WS8; S in front rolls in secret"
)
"""One line naming what is supported; every syntax and unsupported refusal ends with it."""


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


def with_supported(error: DiceError) -> DiceError:
    """The same refusal, its message ending with what Kiroku does read (once)."""
    if error.code not in (DICE_SYNTAX, DICE_UNSUPPORTED) or SUPPORTED in error.message:
        return error
    return DiceError(error.code, f"{error.message}. {SUPPORTED}", error.position)
