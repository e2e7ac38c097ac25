"""Commands of the shared game lifecycle; rulesets add their own (type prefixed by ruleset id)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from domain.audience import GM, is_audience
from domain.draws import find_draws

Text = Field(min_length=1, max_length=2000)


class Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Spoken(Command):
    """What the chat shows beside a line: who speaks (a character or NPC name), in which
    colour, on which tab. Cosmetic, but hashed like the rest of the event; the envelope's
    `actor` stays the authority on who sent it."""

    speaker: str | None = Field(default=None, min_length=1, max_length=40, examples=["Aki"])
    color: str | None = Field(default=None, pattern=r"^#[0-9a-fA-F]{6}$", examples=["#d9534f"])
    tab: str | None = Field(default=None, min_length=1, max_length=20, examples=["メイン"])


def _addressees(value: list[str]) -> list[str]:
    for audience in value:
        if not is_audience(audience) or audience == "public":
            raise ValueError(f"{audience!r} is not a seat (seat:N) or {GM!r}")
    return value


Addressees = Annotated[list[str], AfterValidator(_addressees), Field(max_length=16)]


class Start(Command):
    """GM: begin play (rolls, declarations and phases are refused before)."""

    type: Literal["start"] = "start"


class Roll(Spoken):
    """Roll a dice expression. Faces are given only for manual (physical) dice.

    `secret`: the result is sealed to the roller and the GM (BCDice's `S` prefix does the
    same). `blind`: sealed to the GM alone; the roller sees only that it rolled."""

    type: Literal["roll"] = "roll"
    expression: str = Field(min_length=1, max_length=200, examples=["2D6+1>=8"])
    secret: bool = False
    blind: bool = False
    faces: list[int] | None = Field(default=None, max_length=100)
    entropy: str = Field(default="", max_length=64)


class Declare(Spoken):
    """A free declaration, public to the table."""

    type: Literal["declare"] = "declare"
    text: str = Text


class Note(Command):
    """A secret note, sealed to its author, the GM and any audiences in `to`."""

    type: Literal["note"] = "note"
    text: str = Text
    to: Addressees = Field(default_factory=list)


class Say(Spoken):
    """A line of the table's chat. As in ココフォリア, a BCDice command at its start is rolled
    (`2D6>=7 忍び足`: the rest is the roll's comment), with `secret`/`blind` as for `roll`;
    anything else is a message. `to` whispers: the line is sealed to its author, the GM and
    those named."""

    type: Literal["say"] = "say"
    text: str = Text
    to: Addressees = Field(default_factory=list)
    secret: bool = False
    blind: bool = False
    entropy: str = Field(default="", max_length=64)


class AddTab(Command):
    """GM: open another chat tab (メイン, 情報 and 雑談 are there from the start)."""

    type: Literal["add_tab"] = "add_tab"
    name: str = Field(min_length=1, max_length=20, examples=["戦闘"])


class RevokeSessions(Command):
    """GM: sign out every browser session of an audience (a seat, or the GM's own)."""

    type: Literal["revoke_sessions"] = "revoke_sessions"
    audience: str = Field(examples=["seat:2"])

    @field_validator("audience")
    @classmethod
    def _audience(cls, value: str) -> str:
        _addressees([value])
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
    Say,
    Declare,
    Note,
    AddTab,
    RevokeSessions,
    MakeRuling,
    Amend,
    Reveal,
    End,
)
