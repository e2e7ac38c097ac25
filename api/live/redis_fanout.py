"""Fan-out across workers and hosts over Redis pub/sub.

A message says only "<game_id> <seq>": that game has events up to seq. Each worker reads the
events themselves from the store and redacts them locally, so no event body, secret or token
ever passes through Redis, and a lost or repeated message costs latency, never correctness.

Redis is an accelerator, not a dependency: while it is unreachable this logs once, keeps
retrying, and streams still catch up through their periodic look at the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from api.live.hub import Hub

logger = logging.getLogger("kiroku.live")

POLL_SECONDS = 1.0
HEALTH_CHECK_SECONDS = 10
MIN_BACKOFF = 0.1
MAX_BACKOFF = 5.0


def encode_notice(game_id: str, seq: int) -> str:
    return f"{game_id} {seq}"


def _text(data: bytes | str) -> str:
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else data


def _channel(message: dict[str, Any]) -> str:
    return _text(message["channel"])


def decode_notice(data: bytes | str) -> tuple[str, int] | None:
    text = _text(data)
    game_id, _, seq = text.partition(" ")
    if not game_id or not seq.isdigit():
        return None
    return game_id, int(seq)


class RedisFanout:
    def __init__(self, url: str, prefix: str, hub: Hub, on_revoked: Callable[[str], None]) -> None:
        self.channel = f"{prefix}:appended"
        # "<game_id>": credentials of that game were revoked (a separate channel: a worker of
        # an older version ignores it rather than misreading it).
        self.revoked_channel = f"{prefix}:revoked"
        self._on_revoked = on_revoked
        self._revoked: set[str] = set()
        self.subscribed = asyncio.Event()  # set while the subscription is live
        self._hub = hub
        # No client-side retries: a failure must surface here, so that this class knows
        # notifications were lost and makes every feed look at the store again.
        self._redis = Redis.from_url(
            url,
            client_name=f"{prefix}:kiroku:{os.getpid()}",
            retry=Retry(NoBackoff(), 0),
            health_check_interval=HEALTH_CHECK_SECONDS,
            socket_connect_timeout=2,
            socket_keepalive=True,
        )
        self._pending: dict[str, int] = {}
        self._has_pending = asyncio.Event()
        self._down: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._listen(), name="kiroku redis subscriber"),
            asyncio.create_task(self._publish(), name="kiroku redis publisher"),
        ]

    async def aclose(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._redis.aclose()

    async def ping(self) -> None:
        """Raises when Redis does not answer (the readiness check)."""
        await self._redis.ping()

    def publish(self, game_id: str, seq: int) -> None:
        """Queue a notice (on the loop); a burst for one game is sent as its latest seq."""
        if seq > self._pending.get(game_id, 0):
            self._pending[game_id] = seq
            self._has_pending.set()

    def publish_revoked(self, game_id: str) -> None:
        """Queue a revocation notice (on the loop), sent before the game's seq notice."""
        self._revoked.add(game_id)
        self._has_pending.set()

    async def _publish(self) -> None:
        delay = MIN_BACKOFF
        while True:
            await self._has_pending.wait()
            self._has_pending.clear()
            pending, self._pending = self._pending, {}
            revoked, self._revoked = self._revoked, set()
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for game_id in revoked:
                        pipe.publish(self.revoked_channel, game_id)
                    for game_id, seq in pending.items():
                        pipe.publish(self.channel, encode_notice(game_id, seq))
                    await pipe.execute()
            except (RedisError, OSError) as error:
                self._lost("publish", error)
                for game_id, seq in pending.items():  # newer notices win; retry the rest
                    self.publish(game_id, seq)
                for game_id in revoked:
                    self.publish_revoked(game_id)
                await asyncio.sleep(delay)
                delay = min(delay * 2, MAX_BACKOFF)
                continue
            self._back("publish")
            delay = MIN_BACKOFF

    async def _listen(self) -> None:
        delay = MIN_BACKOFF
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel, self.revoked_channel)
                self.subscribed.set()
                if self._back("subscribe"):
                    self._hub.recheck_all()  # whatever was published meanwhile is lost
                delay = MIN_BACKOFF
                while True:
                    message = await pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=POLL_SECONDS
                    )
                    if message is None or message["type"] != "message":
                        continue
                    if _channel(message) == self.revoked_channel:
                        game_id = _text(message["data"])
                        if game_id:
                            self._on_revoked(game_id)
                    else:
                        notice = decode_notice(message["data"])
                        if notice is not None:
                            self._hub.notify(*notice)
            except (RedisError, OSError) as error:
                self.subscribed.clear()
                self._lost("subscribe", error)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
            await asyncio.sleep(delay)
            delay = min(delay * 2, MAX_BACKOFF)

    def _lost(self, role: str, error: BaseException) -> None:
        if role not in self._down:
            self._down.add(role)
            logger.warning(
                "Redis %s failed (%s: %s); streams fall back to re-reading the store; reconnecting",
                role,
                type(error).__name__,
                error,
            )

    def _back(self, role: str) -> bool:
        """Mark `role` healthy; True when it had failed before."""
        if role not in self._down:
            return False
        self._down.discard(role)
        logger.warning("Redis %s works again", role)
        return True
