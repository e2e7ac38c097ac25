"""The one exception the dice language raises, and what every refusal tells the player."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.model.messages import N_, Message, render

DICE_SYNTAX = "dice_syntax"
DICE_LIMIT = "dice_limit"
DICE_UNSUPPORTED = "dice_unsupported"
BAD_FACES = "bad_faces"

COMMON = (
    "2D6+1>=7, (2D6+1)*3/2U, 4D6KH3, 3D6MAX, D66, 5B6>=4, 3R6[6]>=5, 2U6[6]+1, C(1+2), "
    "CHOICE[a,b], x3 2D6"
)
"""The common commands (dice notation: the same in every language)."""
SUPPORTED_LINE = N_("Kiroku reads BCDice's {commands}; S in front rolls in secret")
WITH_SUPPORTED = N_("{reason}. {supported}")


def supported_line(extra: Sequence[str] = ()) -> Message:
    """The line every syntax and unsupported refusal ends with: the common commands, then each
    set of dice words a ruleset added (`extra`: "Ninja Slayer's N5, …"), read in the reader's
    language."""
    return Message(SUPPORTED_LINE, {"commands": " and ".join((COMMON, *extra))})


def supported(extra: Sequence[str] = ()) -> str:
    """That line's source text (for logs and tests)."""
    return str(supported_line(extra))


SUPPORTED = supported()
"""The line for the common commands alone (a parse given no ruleset's dice words)."""


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


def with_supported(error: DiceError, extra: Sequence[str] = ()) -> DiceError:
    """The same refusal, its message ending with what Kiroku does read (once): the common
    commands and the dice words `extra` names."""
    if error.code not in (DICE_SYNTAX, DICE_UNSUPPORTED) or error.template == WITH_SUPPORTED:
        return error
    reason = Message(error.template, error.params)
    return DiceError(
        error.code,
        WITH_SUPPORTED,
        error.position,
        params={"reason": reason, "supported": supported_line(extra)},
    )
