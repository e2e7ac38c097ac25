"""Commands of the shared game lifecycle; rulesets add their own (type prefixed by ruleset id)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from domain.audience import GM, is_audience
from domain.draws import find_draws

Text = Field(min_length=1, max_length=2000)


class Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Start(Command):
    """GM: begin play (rolls, declarations and phases are refused before)."""

    type: Literal["start"] = "start"


class Roll(Command):
    """Roll a dice expression. Faces are given only for manual (physical) dice."""

    type: Literal["roll"] = "roll"
    expression: str = Field(min_length=1, max_length=200, examples=["2D6+1>=8"])
    secret: bool = False
    faces: list[int] | None = Field(default=None, max_length=100)
    entropy: str = Field(default="", max_length=64)


class Declare(Command):
    """A free declaration, public to the table."""

    type: Literal["declare"] = "declare"
    text: str = Text


class Note(Command):
    """A secret note, sealed to its author, the GM and any audiences in `to`."""

    type: Literal["note"] = "note"
    text: str = Text
    to: list[str] = Field(default_factory=list, max_length=16)

    @field_validator("to")
    @classmethod
    def _audiences(cls, value: list[str]) -> list[str]:
        for audience in value:
            if not is_audience(audience) or audience == "public":
                raise ValueError(f"{audience!r} is not a seat (seat:N) or {GM!r}")
        return value


def _no_draw_shapes(value: dict[str, Any]) -> dict[str, Any]:
    """Free-form JSON may not imitate a fair draw, which verifiers recompute wherever found."""
    if next(find_draws(value), None) is not None:
        raise ValueError("objects with keys roll, seeds and entropy are reserved for dice draws")
    return value


FreeJson = Annotated[dict[str, Any], AfterValidator(_no_draw_shapes)]


class MakeRuling(Command):
    """GM: a logged ruling about the event at `concerning_seq`."""

    type: Literal["ruling"] = "ruling"
    concerning_seq: int = Field(ge=1)
    text: str = Text
    effect: FreeJson = Field(default_factory=dict)


class Amend(Command):
    """GM: correct the record of an earlier event by a new event (never an edit)."""

    type: Literal["amend"] = "amend"
    concerning_seq: int = Field(ge=1)
    reason: str = Text
    correction: FreeJson = Field(default_factory=dict)


class Reveal(Command):
    """Publish the sealed body of the event at `seq` (its author or the GM)."""

    type: Literal["reveal"] = "reveal"
    seq: int = Field(ge=1)


class End(Command):
    """GM: end the game; the dice seed and every secret are revealed."""

    type: Literal["end"] = "end"
    summary: str = Field(default="", max_length=2000)


LIFECYCLE_COMMANDS: tuple[type[Command], ...] = (
    Start,
    Roll,
    Declare,
    Note,
    MakeRuling,
    Amend,
    Reveal,
    End,
)
