"""A parsed dice command: what to roll (`dice`) and how to read the faces (`evaluate`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from .commands import Command
from .errors import BAD_FACES, DiceError
from .faces import Roller, check_count, checked_faces, given_faces
from .request import DiceRequest
from .result import RollResult


class Rolled(NamedTuple):
    result: RollResult
    requests: tuple[DiceRequest, ...]
    """Every request made, in order, rerolls included: what a fair draw recomputes."""


class Expression(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    text: str
    """Normalised command text without the secret `S`; `parse(text)` gives this back."""
    secret: bool = False
    comment: str = ""
    """What followed the command after a blank (`2D6>=7 回避`), kept as typed."""
    command: Command

    @property
    def dice(self) -> tuple[DiceRequest, ...]:
        """The dice to roll, in order, if none is rerolled: for most commands, all of them."""
        return self.command.requests()

    @property
    def rerolls(self) -> bool:
        """Whether faces can ask for more dice than `dice` (`3R6[6]`, `2U6[6]`)."""
        return self.command.rerolls()

    def evaluate(self, faces: Sequence[int]) -> RollResult:
        """The result for these faces, given flat in the order the command rolls them."""
        return self.replay(faces).result

    def requests_for(self, faces: Sequence[int]) -> tuple[DiceRequest, ...]:
        """The requests these faces answer, in order: what a fair draw of them recorded."""
        return self.replay(faces).requests

    def roll(self, die: Callable[[int], int]) -> Rolled:
        """Roll with `die(sides)` giving each face, asked for in order (a fair draw)."""
        roller = Roller(lambda count, sides: [die(sides) for _ in range(count)])
        result = self.command.evaluate(roller)
        return Rolled(result, tuple(roller.requests))

    def replay(self, faces: Sequence[int]) -> Rolled:
        """The result and the requests these faces answer (a verifier checks both)."""
        given = checked_faces(faces)
        if not self.rerolls:
            check_count(self.dice, given)
        roller = Roller(given_faces(given))
        result = self.command.evaluate(roller)
        if len(roller.faces) != len(given):
            raise DiceError(
                BAD_FACES,
                "expected {n_faces} faces for these rerolls, got {n_given}",
                params={"n_faces": len(roller.faces), "n_given": len(given)},
            )
        return Rolled(result, tuple(roller.requests))
