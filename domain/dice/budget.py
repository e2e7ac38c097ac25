"""Enforces MAX_DICE across a whole command and the count and sides of each die, while parsing."""

from __future__ import annotations

from .errors import DICE_LIMIT, DiceError
from .limits import MAX_DICE, MAX_SIDES


class DiceBudget:
    def __init__(self) -> None:
        self.spent = 0

    def spend(self, count: int, position: int) -> None:
        self.spent += count
        if self.spent > MAX_DICE:
            raise DiceError(
                DICE_LIMIT,
                "a command may roll at most {MAX_DICE} dice in total",
                position,
                params={"MAX_DICE": MAX_DICE},
            )


def check_count(count: int, position: int) -> None:
    if count < 1:
        raise DiceError(DICE_LIMIT, "roll at least 1 die", position)


def check_sides(sides: int, position: int) -> None:
    if not 1 <= sides <= MAX_SIDES:
        raise DiceError(
            DICE_LIMIT,
            "a die must have 1 to {MAX_SIDES} sides",
            position,
            params={"MAX_SIDES": MAX_SIDES},
        )
