"""Errors the domain raises; the API maps each kind to an HTTP status.

`code` is stable (clients and tests match on it); `message` is for a player to read and never
contains a secret the caller may not see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from domain.model.messages import Message, Term, render

ErrorKind = Literal[
    "invalid",  # the request itself is malformed or out of bounds
    "unauthorized",  # no or unknown credentials
    "forbidden",  # known caller, not allowed to do this
    "not_found",
    "conflict",  # not allowed in the game's current state (phase, status, resources)
    "corrupt",  # the store holds something that cannot be read back: no request can fix it
    "unavailable",  # the store cannot be reached right now: the same request may work later
]


class KirokuError(Exception):
    kind: ErrorKind = "invalid"

    def __init__(
        self,
        code: str,
        message: str | Message,
        *,
        kind: ErrorKind | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        """`message` is a catalog key (English source, `{name}` placeholders filled from
        `params`), or a `Message` (a key with its own arguments): the API reads it in the
        caller's language (api/pages/i18n/)."""
        if isinstance(message, Message):
            self.template = message.key
            self.params = {**message.params, **(params or {})}
        else:
            self.template = message
            self.params = dict(params or {})
        formatted = render(self.template, self.params)
        super().__init__(formatted)
        self.code = code
        self.message = formatted
        if kind is not None:
            self.kind = kind


class RuleViolation(KirokuError):
    """A command the game's rules or lifecycle refuse in the current state."""

    kind: ErrorKind = "conflict"


class NotFound(KirokuError):
    kind: ErrorKind = "not_found"


class Unauthorized(KirokuError):
    kind: ErrorKind = "unauthorized"


class Forbidden(KirokuError):
    kind: ErrorKind = "forbidden"


class CorruptEvent(KirokuError):
    """A stored event of a game that cannot be read back (changed or damaged in the store).

    Only that game is affected: its reads name the seq, everything else keeps working."""

    kind: ErrorKind = "corrupt"

    def __init__(self, seq: int, why: str) -> None:
        super().__init__(
            "corrupt_event",
            "Event {seq} of this game is stored damaged and cannot be read ({why}); "
            "the game is stopped at that event until the store is repaired. "
            "/verify shows what is wrong.",
            params={"seq": seq, "why": Term(why)},  # why: the store's words, never a name
        )
        self.seq = seq
        self.why = why
