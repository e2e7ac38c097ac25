"""The outcome of evaluating an expression against faces; it goes into an event as JSON."""

from __future__ import annotations

from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
)

# Fields added after rolls were first recorded. They are left out of the JSON while unset, so
# that every result recorded before them re-evaluates to exactly the same JSON (verification
# compares results byte for byte).
_LATER_FIELDS = ("highest", "value")


class RollResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    text: str
    """The command evaluated (normalised, without the secret `S`)."""
    total: int | None = None
    """Sum, for sum-type commands (`2D6+1`, `D66`, `C(1+2)`, `WS8`, `2U6[6]` without target)."""
    successes: int | None = None
    """Number of successes, for pools (`5B6>=4`, `3R6[6]>=5`, Ninja Slayer checks)."""
    success: bool | None = None
    """Whether the check succeeded; None when the command has no target."""
    criticals: tuple[str, ...] = ()
    explanation: str
    faces: tuple[int, ...]
    parts: tuple[RollResult, ...] = ()
    """One result per command of a series (`N5,3,4`) or repetition (`x3 2D6`)."""
    highest: int | None = None
    """Upper dice without a target (`2U6[6]`): the highest die, modifier added."""
    value: str | None = None
    """The outcome when it is not a number: the item `CHOICE` picked."""

    @model_serializer(mode="wrap")
    def _leave_out_unset_later_fields(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for name in _LATER_FIELDS:
            if data.get(name, 0) is None:
                del data[name]
        return data
