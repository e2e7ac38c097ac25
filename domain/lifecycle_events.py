"""Events of the shared game lifecycle, common to every ruleset."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.draws import DiceDraw
from domain.events import Event

DicePolicy = Literal["server", "manual", "both"]


class GameOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    dice_policy: DicePolicy = Field(
        default="server",
        description="server: Kiroku rolls; manual: players enter physical dice; both: either",
    )
    spectators: bool = Field(
        default=True, description="May callers without a token read the public log?"
    )


class SeatInfo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    name: str


class ServerSeed(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    server_seed: str


class GameCreated(Event):
    type = "GameCreated"
    ruleset: str
    ruleset_version: str
    title: str
    seats: tuple[SeatInfo, ...]
    options: GameOptions
    ruleset_options: dict[str, Any] = {}
    server_seed_hash: str
    secret: ServerSeed | None = None


class SeatJoined(Event):
    type = "SeatJoined"
    seat: int
    name: str
    client_seed: str | None = None


class GameStarted(Event):
    type = "GameStarted"


class RollRecord(BaseModel):
    """A roll as the table reads it: what was asked, how it came out, and its provenance."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    expression: str
    comment: str = ""  # BCDice: text after the first blank, e.g. "2D6>=7 回避"
    result: dict[str, Any]
    manual: bool = False
    draw: DiceDraw | None = None  # None for manual faces


class DiceRolled(Event):
    type = "DiceRolled"
    roll: RollRecord | None = None  # an open roll
    secret: RollRecord | None = None  # a secret roll: only "a roll happened" is public


class Declared(Event):
    type = "Declared"
    text: str


class NoteBody(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str


class NoteWritten(Event):
    type = "NoteWritten"
    secret: NoteBody | None = None


class RulingMade(Event):
    type = "RulingMade"
    concerning_seq: int
    text: str
    effect: dict[str, Any] = {}


class Amended(Event):
    type = "Amended"
    concerning_seq: int
    reason: str
    correction: dict[str, Any] = {}


class Revealed(Event):
    type = "Revealed"
    of_seq: int
    salt: str
    body: dict[str, Any]


class GameEnded(Event):
    type = "GameEnded"
    summary: str = ""
