"""The one place that turns a stored event into what an audience may read.

Event lists, command answers, streams and the replay all call `redact`; nothing else reads
sealed bodies for output. Server data (token hashes, idempotency keys) and salts of unrevealed
secrets never leave through here.

It fails closed: whether a sealed body has been revealed is read from a `Disclosure` taken of
the game at some seq, and an event after that seq is refused (StaleDisclosure) rather than
taken for revealed — an older state cannot know of the secrets sealed after it.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass
from typing import Any

from domain.model.audience import may_see
from domain.model.game import GameState
from domain.model.records import Recorded


class StaleDisclosure(RuntimeError):
    """Redaction was asked about an event its disclosure does not cover (a server bug: the
    caller read its state before the event)."""


@dataclass(frozen=True, slots=True)
class Disclosure:
    """Which sealed events are still unrevealed, as of event `upto`."""

    upto: int
    unrevealed: Container[int]

    @classmethod
    def of(cls, state: GameState) -> Disclosure:
        return cls(upto=state.version, unrevealed=state.unrevealed)

    def revealed(self, seq: int) -> bool:
        if seq > self.upto:
            raise StaleDisclosure(
                f"event {seq} is after the state redaction was given (seq {self.upto})"
            )
        return seq not in self.unrevealed


def redact(recorded: Recorded, viewer: str, disclosure: Disclosure) -> dict[str, Any]:
    """The envelope, plus `secret` (the sealed body) when `viewer` may read it."""
    envelope = recorded.envelope
    revealed = disclosure.revealed(recorded.seq)  # refuses an event it cannot speak for
    out = dict(recorded.envelope_dump())
    out["secret"] = out["revealed"] = None  # one shape for every event
    sealed = envelope.sealed
    if sealed is not None:
        if may_see(viewer, sealed.audience, revealed=revealed):
            out["secret"] = recorded.body
        out["revealed"] = revealed
    return out
