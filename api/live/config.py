"""Settings of the live stream (from the one settings module: KIROKU_REDIS_URL, …)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.application.settings import Settings


@dataclass(frozen=True)
class LiveSettings:
    redis_url: str | None = None
    redis_prefix: str = "kiroku"
    # A comment line this often keeps proxies and load balancers from closing idle streams.
    heartbeat: float = 15.0
    # How often a game with local subscribers looks at the store even without a notification:
    # the only way to see other workers' appends when Redis is absent or down.
    recheck: float = 2.0
    # A stream ends after this long (None: never); EventSource reconnects by itself with
    # Last-Event-ID and misses nothing. Lets proxies, deploys and bounded clients recycle it.
    lifetime: float | None = None

    @classmethod
    def of(cls, settings: Settings) -> LiveSettings:
        return cls(
            redis_url=settings.redis_url,
            redis_prefix=settings.redis_prefix.strip() or "kiroku",
            heartbeat=settings.stream_heartbeat,
            recheck=settings.stream_recheck,
            lifetime=settings.stream_lifetime,
        )
