"""What the evaluator needs rolled."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from .limits import MAX_DICE, MAX_SIDES


class DiceRequest(BaseModel):
    """`count` dice with `sides` faces each; they consume `count` consecutive faces."""

    model_config = ConfigDict(frozen=True)

    count: int = Field(ge=1, le=MAX_DICE)
    sides: int = Field(ge=1, le=MAX_SIDES)

    def __init__(self, count: int, sides: int) -> None:
        # Positional construction reads like the notation: DiceRequest(2, 6) is 2D6.
        super().__init__(count=count, sides=sides)
