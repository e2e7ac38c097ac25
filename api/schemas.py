"""Request and response bodies of the HTTP API."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from domain.application.bootstrap import load_rulesets
from domain.model.commands import LIFECYCLE_COMMANDS, Command, FreeJson
from domain.model.envelope import Envelope
from domain.model.lifecycle_events import GameOptions
from domain.model.logline import LogLine
from domain.model.text import PlayerName
from domain.rulesets import all_rulesets

load_rulesets()  # the built-in rulesets' commands are part of the API's document
ALL_COMMANDS = tuple(LIFECYCLE_COMMANDS) + tuple(
    command for ruleset in all_rulesets() for command in ruleset.commands
)
if TYPE_CHECKING:  # the union is built from the registered rulesets, at import
    CommandBody = Command
else:
    CommandBody = Annotated[Union[ALL_COMMANDS], Field(discriminator="type")]  # noqa: UP007


class CreateGameRequest(BaseModel):
    # strict: a request is read as the document says (`"spectators": 0` is not a boolean)
    model_config = ConfigDict(extra="forbid", strict=True)

    ruleset: str = Field(default="freeform", max_length=40, examples=["freeform"])
    title: PlayerName = Field(min_length=1, max_length=120, examples=["Friday one-shot"])
    seats: list[Annotated[PlayerName, Field(min_length=1, max_length=40)]] = Field(
        min_length=1, max_length=16, examples=[["Alice", "Bob"]]
    )
    options: GameOptions = GameOptions()
    ruleset_options: FreeJson = Field(default_factory=dict)
    referee: Literal["gm", "host"] | None = Field(
        default=None,
        description="gm: the creator is an omniscient GM. host: the game has no referee; the "
        "creator hosts (starts, ends, manages seats, makes logged rulings) but sees secrets "
        "only as the audience it also is. Default: the ruleset's (GET /rulesets, `referee`).",
    )
    host_seat: int | None = Field(
        default=None,
        ge=1,
        le=16,
        description="With referee host: the seat the host also plays. Its token is then that "
        "seat's too (the seat gets no invite); it sees that seat's secrets and no one else's.",
    )
    system: str | None = Field(
        default=None,
        max_length=64,
        examples=["Cthulhu7th"],
        description="The BCDice game system the chat rolls are evaluated in (GET /systems). "
        "Default: the ruleset's (NinjaSlayer2 for ninja_slayer), else DiceBot.",
    )


class SeatInviteOut(BaseModel):
    seat: int
    name: str
    invite: str | None = Field(description="None for the seat the host sits at")
    link: str | None = Field(
        description="The seat's join page, the invite in the URL fragment (None: the host's)"
    )


class CreateGameResponse(BaseModel):
    game_id: str
    referee: Literal["gm", "host"]
    creator: str = Field(description="The creator's actor: gm, host, or the seat:N it sits at")
    gm_token: str | None = Field(
        description="A GM-run game's GM token. Shown once; keep it: it is stored only as a hash"
    )
    gm_link: str | None = Field(description="The GM's sign-in page, the token in the URL fragment")
    host_token: str | None = Field(
        description="A game without a referee: the host's token (shown once)"
    )
    host_link: str | None = Field(
        description="The host's sign-in page, the token in the URL fragment"
    )
    table_url: str
    seats: list[SeatInviteOut]
    recovery_code: str = Field(
        description="The creator's recovery code, shown once: POST it to "
        "/games/{id}/recover to get the GM (or host) seat back on any browser. Single use: "
        "it signs out every other browser of that seat and gives the next code"
    )


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    invite: str = Field(min_length=1, max_length=100)
    client_seed: PlayerName | None = Field(
        default=None,
        max_length=64,
        description="Your own seed, mixed into every later server roll",
    )


class JoinResponse(BaseModel):
    seat: int
    actor: str
    token: str = Field(description="Shown once; send it as `Authorization: Bearer <token>`")


class EventOut(Envelope):
    """An event as the caller may see it: the envelope, plus `secret` where it may read it."""

    secret: dict[str, Any] | None = None
    revealed: bool | None = None
    line: LogLine | None = Field(default=None, description="The event as the table reads it")


class CommandResponse(BaseModel):
    game_id: str
    last_seq: int
    replayed: bool = Field(description="True when an Idempotency-Key matched an earlier command")
    events: list[EventOut]
    hint: str | None = Field(
        default=None, description="A quiet note for the sender, e.g. why a line was not rolled"
    )


class EventsResponse(BaseModel):
    game_id: str
    audience: str
    last_seq: int
    events: list[EventOut]


class SeatOut(BaseModel):
    seat: int
    name: str
    joined: bool


class GameOut(BaseModel):
    game_id: str
    title: str
    ruleset: str
    status: str
    audience: str
    last_seq: int
    head: str
    server_seed_hash: str
    options: GameOptions
    referee: Literal["gm", "host"] = Field(description="gm: GM-run; host: no referee")
    host: str | None = Field(
        description="A game without a referee: the host's actor (host, or the seat:N it sits at)"
    )
    seats: list[SeatOut]
    tabs: list[str]
    rules: dict[str, Any]
    system: str = Field(default="DiceBot", description="The BCDice game system of its chat rolls")
    bcdice: str | None = Field(
        default=None, description="The BCDice version it keeps (None: the server's)"
    )
