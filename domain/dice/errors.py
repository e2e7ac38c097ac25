"""The one exception the dice language raises."""

from __future__ import annotations

DICE_SYNTAX = "dice_syntax"
DICE_LIMIT = "dice_limit"
DICE_UNSUPPORTED = "dice_unsupported"
BAD_FACES = "bad_faces"


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
