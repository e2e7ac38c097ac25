"""The one exception the dice language raises, and what every refusal tells the player."""

from __future__ import annotations

from collections.abc import Mapping

from domain.model.messages import N_, Message, render

DICE_SYNTAX = "dice_syntax"
DICE_LIMIT = "dice_limit"
DICE_UNSUPPORTED = "dice_unsupported"
BAD_FACES = "bad_faces"

SUPPORTED = N_(
    "Kiroku reads BCDice's 2D6+1>=7, (2D6+1)*3/2U, 4D6KH3, 3D6MAX, D66, 5B6>=4, 3R6[6]>=5, "
    "2U6[6]+1, C(1+2), CHOICE[a,b], x3 2D6 and Ninja Slayer's N5, E1,N2, N5[S][C][>=5], "
    "NJ4[H], AT4, EV4/2, EL4, WS8; S in front rolls in secret"
)
"""One line naming what is supported; every syntax and unsupported refusal ends with it."""
WITH_SUPPORTED = N_("{reason}. {supported}")


class DiceError(Exception):
    """A refused dice command or a refused set of faces.

    `code` is stable (callers branch on it); `message` is for players; `position` is the
    0-based index into the string given to `parse`, when the fault has a place.
    """

    def __init__(
        self,
        code: str,
        message: str | Message,
        position: int | None = None,
        *,
        params: Mapping[str, object] | None = None,
    ) -> None:
        """`message` is a catalog key (`{name}` placeholders filled from `params`) or a
        `Message`: the API reads it in the caller's language (as a KirokuError's)."""
        if isinstance(message, Message):
            self.template, self.params = message.key, {**message.params, **(params or {})}
        else:
            self.template, self.params = message, dict(params or {})
        self.code = code
        self.message = render(self.template, self.params)
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
    if error.code not in (DICE_SYNTAX, DICE_UNSUPPORTED) or error.template == WITH_SUPPORTED:
        return error
    reason = Message(error.template, error.params)
    return DiceError(
        error.code,
        WITH_SUPPORTED,
        error.position,
        params={"reason": reason, "supported": SUPPORTED},
    )
