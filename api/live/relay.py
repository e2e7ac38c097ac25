"""The service listener that carries "game X now ends at seq N" into the event loop."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from domain.model.game import GameState
from domain.model.records import Recorded

# Events after which some credential no longer holds: open streams must look, other processes
# must stop trusting their cached copy of the game.
REVOKING = frozenset({"SessionsRevoked", "CredentialsRotated", "RecoveryCodeUsed"})


class AppendRelay:
    """Called by GameService in the request's worker thread after every append.

    It only schedules `deliver(game_id, last_seq)` on the loop, and never raises: the append
    it reports has already succeeded, and its request must not fail because of a stream.
    """

    def __init__(
        self, loop: asyncio.AbstractEventLoop, deliver: Callable[[str, int, bool], None]
    ) -> None:
        self._loop = loop
        self._deliver = deliver

    def __call__(self, state: GameState, records: list[Recorded]) -> None:
        if not records:
            return
        revoking = any(r.event.type in REVOKING for r in records)
        with contextlib.suppress(RuntimeError):  # the loop is closed: the worker is stopping
            self._loop.call_soon_threadsafe(self._deliver, state.game_id, records[-1].seq, revoking)
