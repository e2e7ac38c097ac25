"""Events of the shared game lifecycle, common to every ruleset."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from domain.model.draws import DiceDraw
from domain.model.events import Event

DicePolicy = Literal["server", "manual", "both"]


class GameOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

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
    # A game without a referee (docs/explanation/design/index.md, "Audiences"): the host's actor,
    # "host" or the
    # "seat:N" the host also sits at. Left out of GM-run games, which keep their old shape.
    host: str | None = None
    # The BCDice game system every chat roll is evaluated in, and the version of BCDice (the
    # npm package) the game keeps for its whole life (docs/reference/dice.md). Left out of
    # games created before BCDice answered, which keep their old shape (and roll in DiceBot).
    system: str | None = None
    bcdice: str | None = None
    secret: ServerSeed | None = None

    def public_part(self) -> dict[str, Any]:
        public = super().public_part()
        for name in ("host", "system", "bcdice"):
            if public.get(name) is None:
                public.pop(name, None)
        return public


class SeatJoined(Event):
    type = "SeatJoined"
    seat: int
    name: str
    client_seed: str | None = None


class Spoken(Event):
    """Chat metadata an event may carry (see domain.model.commands.Spoken); left out when unset, so
    events without it keep their old public shape."""

    speaker: str | None = None
    color: str | None = None
    tab: str | None = None

    def public_part(self) -> dict[str, Any]:
        public = super().public_part()
        for name in ("speaker", "color", "tab"):
            if public.get(name) is None:
                public.pop(name, None)
        return public


class GameStarted(Event):
    type = "GameStarted"


class RollRecord(BaseModel):
    """A roll as the table reads it: what was asked, how it came out, and its provenance.

    A chat roll answered by BCDice also names the game `system` and the `bcdice` version that
    evaluated `expression` (the line as typed); its `result` is BCDice's (domain/dice/bcdice.py)
    and its draw holds one face per randomizer call. Both are left out of other rolls."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    expression: str
    comment: str = ""  # BCDice: text after the first blank, e.g. "2D6>=7 回避"
    system: str | None = None
    bcdice: str | None = None
    result: dict[str, Any]
    manual: bool = False
    draw: DiceDraw | None = None  # None for manual faces

    @model_serializer(mode="wrap")
    def _leave_out_unset_bcdice(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for name in ("system", "bcdice"):
            if data.get(name, 0) is None:
                del data[name]
        return data


class DiceRolled(Spoken):
    type = "DiceRolled"
    roll: RollRecord | None = None  # an open roll
    secret: RollRecord | None = None  # a secret roll: only "a roll happened" is public


class Declared(Spoken):
    type = "Declared"
    text: str


class NoteBody(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str


class NoteWritten(Event):
    type = "NoteWritten"
    secret: NoteBody | None = None


class Said(Spoken):
    """A chat line: `text` in the open, or, for a whisper, sealed in `secret`."""

    type = "Said"
    text: str | None = None
    secret: NoteBody | None = None


class TabAdded(Event):
    type = "TabAdded"
    name: str


class SessionOpened(Event):
    """A browser signed in for the envelope's actor (the session id's hash is server data)."""

    type = "SessionOpened"


class SessionsRevoked(Event):
    type = "SessionsRevoked"
    audience: str


class CredentialsRotated(Event):
    """A seat's credentials replaced (a stolen or leaked link): its bearer tokens, browser
    sessions and unused invites stop working at once; a new invite (its hash is server data)
    joins it again. The envelope's actor and time say who did it and when."""

    type = "CredentialsRotated"
    seat: int


class RecoveryCodeUsed(Event):
    """The creator (GM or host) got its seat back with the recovery code shown at creation:
    its other tokens and browser sessions stop working (as for `CredentialsRotated`), a new
    token signs it in, and a new recovery code replaces the used one (their hashes are
    server data). The envelope's actor and time say who and when."""

    type = "RecoveryCodeUsed"


class InviteIssued(Event):
    """The GM issued a new invite link for a seat (its hash is server data)."""

    type = "InviteIssued"
    seat: int


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
