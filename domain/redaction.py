"""The one place that turns a stored event into what an audience may read.

Views, event lists, streams and exports all call `redact`; nothing else reads sealed bodies
for output. Server data (token hashes, idempotency keys) and salts of unrevealed secrets never
leave through here.
"""

from __future__ import annotations

from typing import Any

from domain.audience import may_see
from domain.game import GameState
from domain.records import Recorded


def redact(state: GameState, recorded: Recorded, viewer: str) -> dict[str, Any]:
    """The envelope, plus `secret` (the sealed body) when `viewer` may read it."""
    envelope = recorded.envelope
    out = envelope.model_dump(mode="json")
    out["secret"] = out["revealed"] = None  # one shape for every event
    sealed = envelope.sealed
    if sealed is not None:
        revealed = recorded.seq not in state.unrevealed
        if may_see(viewer, sealed.audience, revealed=revealed):
            out["secret"] = recorded.body
        out["revealed"] = revealed
    return out
