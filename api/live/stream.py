"""One client's event stream: catch up from the store by seq, then follow the game's feed.

Every event is taken by its seq, from the store or from the feed's buffer (itself read from
the store), so a client resuming after seq N gets N+1, N+2, … exactly once each, whatever
notifications were lost or repeated on the way.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Callable

from api.live.hub import Hub
from api.live.sse import HEARTBEAT, retry
from api.observe import ERRORS, STREAMS_OPEN
from domain.model.errors import CorruptEvent
from domain.model.game import GameState

logger = logging.getLogger("kiroku.live")

PAGE = 500
RETRY_MS = 1000


async def event_stream(
    hub: Hub,
    game_id: str,
    audience: str,
    after: int,
    heartbeat: float,
    lifetime: float | None = None,
    allowed: Callable[[GameState], bool] | None = None,
) -> AsyncGenerator[bytes, None]:
    """`allowed(state)`: do the caller's credentials still hold in this state of the game?
    Asked of every state an event is sent with and whenever the game's state changes: once
    it says no (sessions revoked, credentials rotated) the stream ends before another byte of
    the game is sent; EventSource's reconnection is then refused (401)."""
    # Sent at once, so the client knows the stream is open before any event exists.
    yield retry(RETRY_MS)
    STREAMS_OPEN.inc()
    cursor = after
    loop = asyncio.get_running_loop()
    ends = loop.time() + lifetime if lifetime is not None else None
    try:
        async with hub.subscribe(game_id, audience) as subscription:
            feed, waiter = subscription.feed, subscription.waiter
            from_store = True  # first page through the store; then follow the feed
            while not feed.closed and (ends is None or loop.time() < ends):
                waiter.clear()
                state = feed.state
                pending = None if from_store else feed.messages(cursor, audience)
                if pending is None:
                    batch = await hub.read(game_id, cursor, PAGE, (audience,))
                    pending = batch.messages(audience)
                    from_store = bool(pending)
                    if state is None or batch.state.version >= state.version:
                        state = batch.state
                if allowed is not None and state is not None and not allowed(state):
                    logger.info(
                        "stream of game %s for %s ended after seq %d: its credentials were revoked",
                        game_id,
                        audience,
                        cursor,
                        extra={"game": game_id, "seq": cursor},
                    )
                    return
                if pending:
                    for seq, message in pending:
                        yield message
                        cursor = seq
                    continue
                wait = heartbeat if ends is None else max(0.0, min(heartbeat, ends - loop.time()))
                try:
                    await asyncio.wait_for(waiter.wait(), wait)
                except TimeoutError:
                    if ends is None or loop.time() < ends:
                        yield HEARTBEAT
    except CorruptEvent as error:
        ERRORS.labels("stream").inc()
        logger.error(
            "stream of game %s ended after seq %d: %s",
            game_id,
            cursor,
            error.message,
            extra={"game": game_id, "seq": cursor},
        )
    except Exception:
        # The response has started: the client can only see the stream end, and resume.
        ERRORS.labels("stream").inc()
        logger.exception(
            "stream of game %s for %s ended after seq %d",
            game_id,
            audience,
            cursor,
            extra={"game": game_id, "seq": cursor},
        )
    finally:
        STREAMS_OPEN.dec()
