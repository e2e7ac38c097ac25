"""What a decider produces (Draft) and what evolve consumes (Recorded)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from domain.model.envelope import Envelope
from domain.model.events import Event


class CommandKey(BaseModel):
    """The Idempotency-Key of the command that appended a batch, kept server-side in its first
    event for the record; retries are answered from the store's CommandAnswer rows."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str  # sha256 of actor and Idempotency-Key
    request: str  # sha256 of the canonical command, to refuse a reused key
    count: int


class ServerData(BaseModel):
    """Stored beside an event, never shown to anyone: hashed credentials and idempotency."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    credentials: dict[str, str] = {}  # token hash → actor
    invites: dict[str, int] = {}  # invite hash → seat
    sessions: dict[str, str] = {}  # browser session id hash → actor
    # the creator's recovery code's hash (GM or host): one at a time, replaced when used
    recovery: str | None = None
    command: CommandKey | None = None


@dataclass(frozen=True)
class Draft:
    """An event a decider wants appended; the service seals, numbers and chains it."""

    event: Event
    audience: tuple[str, ...] = ()  # used only when the event carries a secret
    server: ServerData | None = None


@dataclass(frozen=True)
class Recorded:
    """A stored event as the server knows it: envelope, full body, salt and server data.

    `body` is the sealed body as JSON (the event's `secret` part), kept so folds and redaction
    do not serialise it again.
    """

    envelope: Envelope
    event: Event
    salt: str | None = None
    server: ServerData | None = None
    body: dict[str, Any] | None = None
    # The envelope as JSON, when sealing has just made it for the hash: storing and answering
    # reuse it. A record read back has none; its envelope is dumped where it is needed.
    envelope_json: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def seq(self) -> int:
        return self.envelope.seq

    def envelope_dump(self) -> dict[str, Any]:
        """The envelope in JSON mode (shared: read it, never change it)."""
        if self.envelope_json is not None:
            return self.envelope_json
        return self.envelope.model_dump(mode="json")
