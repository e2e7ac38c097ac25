"""Settings of the live stream, read from the environment once per worker."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import overload


@overload
def _seconds(name: str, default: float) -> float: ...
@overload
def _seconds(name: str, default: None) -> float | None: ...


def _seconds(name: str, default: float | None) -> float | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    value = float(raw)
    if value <= 0:
        raise ValueError(f"{name} must be a positive number of seconds, not {raw!r}")
    return value


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
    def from_env(cls) -> LiveSettings:
        return cls(
            redis_url=os.environ.get("KIROKU_REDIS_URL", "").strip() or None,
            redis_prefix=os.environ.get("KIROKU_REDIS_PREFIX", "").strip() or "kiroku",
            heartbeat=_seconds("KIROKU_STREAM_HEARTBEAT", cls.heartbeat),
            recheck=_seconds("KIROKU_STREAM_RECHECK", cls.recheck),
            lifetime=_seconds("KIROKU_STREAM_LIFETIME", None),
        )
