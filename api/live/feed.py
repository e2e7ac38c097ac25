"""One game's live feed in one worker: a single store reader shared by all local streams.

However many streams follow a game here, each notification costs one store read; the streams
then take the events from the feed's small buffer, each redacted for its own audience. Each
read is encoded for every audience following the game in the reading thread, once per
audience, before the streams hear of it: the event loop only hands out bytes (a game's end
reveals hundreds of events, each read as the line it reveals: encoding them on the loop would
stall every stream and request of this worker). The buffer keeps those bytes only (`Encoded`);
a stream whose audience a kept read was not encoded for (it subscribed while the read was under
way) reads those events from the store, as a stream further back does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Collection

from api.live.batch import Batch, Encoded, Message
from api.observe import FANOUT_LAG
from domain.model.game import GameState

logger = logging.getLogger("kiroku.live")

# (after, limit, the audiences to encode the batch for) → the batch, read off the loop
Reader = Callable[[int | None, int, Collection[str]], Awaitable[Batch]]

FETCH_LIMIT = 1000
# Enough for a stream that is a little behind (a reconnect after seconds, a phone woken: 256
# events are minutes of a table's play); one further back reads the store itself. Each kept
# event is kept encoded once per audience that follows the game, so this bounds a followed
# game's memory (1,024 kept a soak's RSS climbing for its whole ten minutes; docs/soak.md).
KEEP_EVENTS = 256


class GameFeed:
    def __init__(self, game_id: str, read: Reader, recheck: float) -> None:
        self.game_id = game_id
        self.head: int | None = None  # the highest seq read into the buffer; None before a read
        self.state: GameState | None = None  # the game as of the latest read (covers `head`)
        self.fetches = 0
        self.closed = False
        self._read = read
        self._recheck = recheck
        self._known = 0  # the highest seq any notification announced
        self._noticed: float | None = None  # when an unread notice first arrived (monotonic)
        self._batches: deque[Encoded] = deque()
        self._kept = 0
        self._waiters: dict[asyncio.Event, str] = {}  # each subscriber's audience
        self._wake = asyncio.Event()
        self._failing = False
        self._task: asyncio.Task[None] | None = None

    # ---------------------------------------------------------------------- subscribers

    def add(self, waiter: asyncio.Event, audience: str) -> None:
        self._waiters[waiter] = audience
        if self._task is None and not self.closed:
            self._task = asyncio.create_task(self._pump(), name=f"kiroku feed {self.game_id}")

    def remove(self, waiter: asyncio.Event) -> bool:
        """Forget a subscriber; True when none is left."""
        self._waiters.pop(waiter, None)
        return not self._waiters

    @property
    def subscribers(self) -> int:
        return len(self._waiters)

    def messages(self, cursor: int, audience: str) -> list[Message] | None:
        """The buffered messages for `audience` after `cursor`; None when the buffer does not
        reach back, or holds some of them only for other audiences (read the store)."""
        if self.head is None or cursor >= self.head:
            return []
        if not self._batches or self._batches[0].after > cursor:
            return None
        found: list[Message] = []
        for batch in self._batches:
            if batch.last <= cursor:
                continue
            encoded = batch.messages.get(audience)
            if encoded is None:
                return None
            found.extend(m for m in encoded if m[0] > cursor)
        return found

    # ---------------------------------------------------------------------- notifications

    def notify(self, seq: int | None = None) -> None:
        """The game has events up to `seq` somewhere; None: look at the store anyway."""
        if seq is None:
            self._wake.set()
        elif seq > self._known:
            self._known = seq
            if self.head is None or seq > self.head:
                if self._noticed is None:
                    self._noticed = time.monotonic()
                self._wake.set()

    def close(self) -> None:
        """End every stream of this feed (shutdown); the pump is cancelled separately."""
        self.closed = True
        self._wake_waiters()

    def cancel(self) -> asyncio.Task[None] | None:
        """Stop reading; synchronous, so it is safe in a cancelled request's cleanup."""
        self.close()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
        return task

    # ---------------------------------------------------------------------- the reader

    async def _pump(self) -> None:
        while True:
            more = await self._fetch()
            if not more:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self._recheck)
            self._wake.clear()

    async def _fetch(self) -> bool:
        """Read what is new; True when there is more to read at once."""
        try:
            batch = await self._read(self.head, FETCH_LIMIT, set(self._waiters.values()))
        except Exception:
            if not self._failing:
                logger.exception("reading game %s for its streams failed; will retry", self.game_id)
            self._failing = True
            return False
        if self._failing:
            logger.warning("reading game %s for its streams works again", self.game_id)
            self._failing = False
        self.fetches += 1
        self._known = max(self._known, batch.last)
        if self.state is None or batch.state.version >= self.state.version:
            revoking = self.state is not None and _revokes(self.state, batch.state)
            self.state = batch.state
            if revoking:  # streams check their credentials against it even with no new event
                self._wake_waiters()
        if self.head is not None and batch.last <= self.head:
            return False
        if self._noticed is not None and batch.last >= self._known:
            FANOUT_LAG.observe(time.monotonic() - self._noticed)
            self._noticed = None
        if batch.records:
            self._batches.append(batch.kept())
            self._kept += batch.last - batch.after
            while self._kept > KEEP_EVENTS and len(self._batches) > 1:
                dropped = self._batches.popleft()
                self._kept -= dropped.last - dropped.after
        self.head = batch.last
        self._wake_waiters()
        return len(batch.records) >= FETCH_LIMIT

    def _wake_waiters(self) -> None:
        for waiter in self._waiters:
            waiter.set()


def _revokes(old: GameState, new: GameState) -> bool:
    """Has some credential or session of `old` gone in `new`?"""
    return not (old.credentials.keys() <= new.credentials.keys()) or not (
        old.sessions.keys() <= new.sessions.keys()
    )
