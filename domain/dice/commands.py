"""What every kind of command offers the Expression that holds it."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .faces import Roller
from .request import DiceRequest
from .result import RollResult


@runtime_checkable
class Command(Protocol):
    def render(self) -> str:
        """Canonical text: parsing it gives the same command back."""
        ...

    def requests(self) -> tuple[DiceRequest, ...]:
        """The dice rolled, in order, when nothing is rerolled."""
        ...

    def rerolls(self) -> bool:
        """Whether faces can ask for more dice (`3R6[6]`, `2U6[6]`)."""
        ...

    def evaluate(self, roller: Roller) -> RollResult:
        """The result, asking `roller` for each die in turn."""
        ...
