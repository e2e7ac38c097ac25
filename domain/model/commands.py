"""Commands of the shared game lifecycle; rulesets add their own (type prefixed by ruleset id)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from domain.model.audience import GM, HOST, is_audience
from domain.model.draws import find_draws
from domain.model.json_shape import shape_problem
from domain.model.messages import Invalid, Message
from domain.model.text import (
    FORBIDDEN_CHARACTER,
    PlayerName,
    PlayerText,
    detail,
    forbidden_character,
    message_pattern,
    problem_text,
)

Text = Field(min_length=1, max_length=2000)
MAX_SEQ = 2**53 - 1  # the largest seq a command may name (and JSON carries exactly)
Seq = Annotated[int, Field(ge=1, le=MAX_SEQ)]


def _command_schema(schema: dict[str, Any]) -> None:
    """The JSON schema says what a client must send: `type` (it has a default only for Python
    code building commands), and for every plain string field what
    `_no_disguising_characters` checks (fields typed PlayerText or PlayerName say it already)."""
    if "type" in schema.get("properties", {}):
        schema["required"] = ["type", *(n for n in schema.get("required", []) if n != "type")]
    for prop in schema.get("properties", {}).values():
        for option in (prop, *prop.get("anyOf", ())):
            if option.get("type") != "string" or {"enum", "const"} & set(option):
                continue
            if "pattern" not in option:
                option["pattern"] = message_pattern()
            elif option["pattern"] != message_pattern() and "allOf" not in option:
                option["allOf"] = [{"pattern": message_pattern()}]


class Command(BaseModel):
    # strict: a command is read as its schema says (no "3" for 3, no 0 for false)
    model_config = ConfigDict(
        frozen=True, extra="forbid", strict=True, json_schema_extra=_command_schema
    )

    @model_validator(mode="after")
    def _no_disguising_characters(self) -> Self:
        """Every text a command carries ends up in front of someone, so every string field of
        every command — a ruleset's too, typed `PlayerText` or not — is held to the rule of
        domain/model/text.py (messages may break lines; `PlayerName` fields may not)."""
        for field, text in _texts(self):
            found = forbidden_character(text)
            if found is not None:
                raise PydanticCustomError(
                    FORBIDDEN_CHARACTER,
                    "{detail}",
                    detail(problem_text(f"「{field}」", *found)),
                )
        return self


def _texts(model: BaseModel) -> list[tuple[str, str]]:
    """Every string a model holds, with the field it is in (a list: this runs on every
    command, and a generator over `BaseModel.__iter__` cost more than the strings' check)."""
    texts: list[tuple[str, str]] = []
    stack: list[tuple[str, Any]] = list(vars(model).items())
    while stack:
        name, value = stack.pop()
        if isinstance(value, str):
            texts.append((name, value))
        elif isinstance(value, BaseModel):
            stack.extend((f"{name}.{key}", child) for key, child in vars(value).items())
        elif isinstance(value, list | tuple):
            stack.extend((name, child) for child in value)
        elif isinstance(value, dict):
            stack.extend((name, child) for child in value.values())
            stack.extend((name, key) for key in value if isinstance(key, str))
    return texts


class Spoken(Command):
    """What the chat shows beside a line: who speaks (a character or NPC name), in which
    colour, on which tab. Cosmetic, but hashed like the rest of the event; the envelope's
    `actor` stays the authority on who sent it."""

    speaker: PlayerName | None = Field(default=None, min_length=1, max_length=40, examples=["Aki"])
    color: str | None = Field(default=None, pattern=r"^#[0-9a-fA-F]{6}$", examples=["#d9534f"])
    tab: PlayerName | None = Field(default=None, min_length=1, max_length=20, examples=["メイン"])


def _addressees(value: list[str]) -> list[str]:
    for audience in value:
        if not is_audience(audience) or audience == "public":
            raise Invalid(
                "{audience} is not a seat (seat:N), {GM} or {HOST}",
                audience=audience,
                GM=GM,
                HOST=HOST,
            )
    return value


Addressees = Annotated[list[str], AfterValidator(_addressees), Field(max_length=16)]


class Start(Command):
    """GM: begin play (rolls, declarations and phases are refused before)."""

    type: Literal["start"] = "start"


class Roll(Spoken):
    """Roll a dice expression. Faces are given only for manual (physical) dice.

    `secret`: the result is sealed to the roller and the GM (BCDice's `S` prefix does the
    same). `blind`: sealed to the GM alone; the roller sees only that it rolled (refused as
    `no_gm` in a game without a referee, whose host sees no secrets)."""

    type: Literal["roll"] = "roll"
    expression: PlayerName = Field(min_length=1, max_length=200, examples=["2D6+1>=8"])
    secret: bool = False
    blind: bool = False
    faces: list[int] | None = Field(default=None, max_length=100)
    entropy: PlayerName = Field(default="", max_length=64)


class Declare(Spoken):
    """A free declaration, public to the table."""

    type: Literal["declare"] = "declare"
    text: PlayerText = Text


class Note(Command):
    """A secret note, sealed to its author, the GM and any audiences in `to` (seats, `gm`, or
    in a game without a referee `host`)."""

    type: Literal["note"] = "note"
    text: PlayerText = Text
    to: Addressees = Field(default_factory=list)


class Say(Spoken):
    """A line of the table's chat. As in ココフォリア, a BCDice command at its start is rolled
    (`2D6>=7 忍び足`: the rest is the roll's comment), with `secret`/`blind` as for `roll`;
    anything else is a message. `to` whispers: the line is sealed to its author, the GM and
    those named."""

    type: Literal["say"] = "say"
    text: PlayerText = Text
    to: Addressees = Field(default_factory=list)
    secret: bool = False
    blind: bool = False
    entropy: PlayerName = Field(default="", max_length=64)


class AddTab(Command):
    """GM: open another chat tab (メイン, 情報 and 雑談 are there from the start)."""

    type: Literal["add_tab"] = "add_tab"
    name: PlayerName = Field(min_length=1, max_length=20, examples=["戦闘"])


class RevokeSessions(Command):
    """GM: sign out every browser session of an audience (a seat, or the GM's own)."""

    type: Literal["revoke_sessions"] = "revoke_sessions"
    audience: str = Field(examples=["seat:2"])

    @field_validator("audience")
    @classmethod
    def _audience(cls, value: str) -> str:
        _addressees([value])
        return value


def _bounded(value: dict[str, Any]) -> dict[str, Any]:
    """Free JSON stays within domain/model/json_shape.py's bounds, so it can always be read back."""
    problem = shape_problem(value)
    if problem is not None:
        said = problem.message
        context = detail(said) if isinstance(said, Message) else {"detail": said}
        raise PydanticCustomError(problem.code, "{detail}", context)
    return value


def _no_draw_shapes(value: dict[str, Any]) -> dict[str, Any]:
    """Free-form JSON may not imitate a fair draw, which verifiers recompute wherever found."""
    if next(find_draws(value), None) is not None:
        raise Invalid("objects with keys roll, seeds and entropy are reserved for dice draws")
    return value


FreeJson = Annotated[dict[str, Any], AfterValidator(_bounded), AfterValidator(_no_draw_shapes)]


class MakeRuling(Command):
    """GM: a logged ruling about the event at `concerning_seq`."""

    type: Literal["ruling"] = "ruling"
    concerning_seq: Seq
    text: PlayerText = Text
    effect: FreeJson = Field(default_factory=dict)


class Amend(Command):
    """GM: correct the record of an earlier event by a new event (never an edit)."""

    type: Literal["amend"] = "amend"
    concerning_seq: Seq
    reason: PlayerText = Text
    correction: FreeJson = Field(default_factory=dict)


class Reveal(Command):
    """Publish the sealed body of the event at `seq` (its author or the GM)."""

    type: Literal["reveal"] = "reveal"
    seq: Seq


class End(Command):
    """GM: end the game; the dice seed and every secret are revealed."""

    type: Literal["end"] = "end"
    summary: PlayerText = Field(default="", max_length=2000)


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
