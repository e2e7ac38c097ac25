"""Every game followed by a stream in this worker, and the notifications that reach them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial

import anyio.to_thread

from api.live.batch import Batch, read_batch
from api.live.feed import GameFeed
from domain.application.service import GameService


@dataclass(frozen=True)
class Subscription:
    feed: GameFeed
    waiter: asyncio.Event  # set whenever the feed has news (or closes)


class Hub:
    def __init__(self, service: GameService, recheck: float) -> None:
        self.closed = False
        self._service = service
        self._recheck = recheck
        self._feeds: dict[str, GameFeed] = {}

    async def read(
        self, game_id: str, after: int | None, limit: int, audiences: Collection[str] = ()
    ) -> Batch:
        """Read (and encode for each of `audiences`) off the event loop: both block a while."""

        def read() -> Batch:
            batch = read_batch(self._service, game_id, after, limit)
            for audience in audiences:
                batch.messages(audience)
            return batch

        return await anyio.to_thread.run_sync(read)

    @asynccontextmanager
    async def subscribe(self, game_id: str, audience: str) -> AsyncIterator[Subscription]:
        """Follow a game's feed as `audience` (its reads are encoded for it off the loop)."""
        feed = self._feeds.get(game_id)
        if feed is None:
            feed = self._feeds[game_id] = GameFeed(
                game_id, partial(self.read, game_id), self._recheck
            )
            if self.closed:
                feed.close()
        waiter = asyncio.Event()
        feed.add(waiter, audience)
        try:
            yield Subscription(feed, waiter)
        finally:
            # No await here: this also runs inside a request that is being cancelled.
            if feed.remove(waiter) and self._feeds.get(game_id) is feed:
                del self._feeds[game_id]
                feed.cancel()

    def feed(self, game_id: str) -> GameFeed | None:
        return self._feeds.get(game_id)

    @property
    def subscribers(self) -> int:
        return sum(feed.subscribers for feed in self._feeds.values())

    def notify(self, game_id: str, seq: int) -> None:
        feed = self._feeds.get(game_id)
        if feed is not None:
            feed.notify(seq)

    def recheck(self, game_id: str) -> None:
        """The game's feed (if any) reads the store now, whatever it knows."""
        feed = self._feeds.get(game_id)
        if feed is not None:
            feed.notify(None)

    def recheck_all(self) -> None:
        """Notifications may have been lost (Redis reconnected): every feed looks again."""
        for feed in self._feeds.values():
            feed.notify(None)

    def close(self) -> None:
        """End every stream: the server is shutting down."""
        self.closed = True
        for feed in self._feeds.values():
            feed.close()

    async def aclose(self) -> None:
        self.close()
        tasks = [task for feed in self._feeds.values() if (task := feed.cancel()) is not None]
        self._feeds.clear()
        await asyncio.gather(*tasks, return_exceptions=True)
