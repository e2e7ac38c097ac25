"""The outcome of evaluating an expression against faces; it goes into an event as JSON."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class RollResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    text: str
    """The command evaluated (normalised, without the secret `S`)."""
    total: int | None = None
    """Sum, for sum-type commands (`2D6+1`, `WS8`)."""
    successes: int | None = None
    """Number of successes, for pools (`5B6>=4`, Ninja Slayer checks)."""
    success: bool | None = None
    """Whether the check succeeded; None when the command has no target."""
    criticals: tuple[str, ...] = ()
    explanation: str
    faces: tuple[int, ...]
    parts: tuple[RollResult, ...] = ()
    """One result per command of a series (`N5,3,4`); empty otherwise."""
