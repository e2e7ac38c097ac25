"""A parsed dice command: what to roll (`dice`) and how to read the faces (`evaluate`)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from .commands import Command
from .faces import FaceReader, check_faces
from .request import DiceRequest
from .result import RollResult


class Expression(BaseModel):
    model_config = ConfigDict(frozen=True)

    text: str
    """Normalised command text without the secret `S`; `parse(text)` gives this back."""
    secret: bool = False
    comment: str = ""
    """What followed the command after a blank (`2D6>=7 回避`), kept as typed."""
    command: Command

    @property
    def dice(self) -> tuple[DiceRequest, ...]:
        return self.command.requests()

    def evaluate(self, faces: Sequence[int]) -> RollResult:
        checked = check_faces(self.dice, faces)
        return self.command.evaluate(FaceReader(checked))
