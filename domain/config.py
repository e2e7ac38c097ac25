"""Where the event store is: settings from the command line or the environment.

SQLite (`KIROKU_DB`, default ./kiroku.db) unless a PostgreSQL URL is given
(`KIROKU_DATABASE_URL`, `postgresql://user:password@host:port/db[?schema=NAME]`). The result is
`eventsourcing`'s own environment dictionary, which every store in the process is opened with.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, urlparse

DEFAULT_SQLITE_PATH = "./kiroku.db"

# The game cache keeps the states of recently used games, bounded by the events they cover
# (110 bytes to 1.3 KiB of memory an event, the more secrets kept unrevealed the more):
# KIROKU_CACHE_EVENTS. 150,000 events stay under 300 MiB of RSS even in a secret-heavy game.
CACHE_EVENTS_ENV = "KIROKU_CACHE_EVENTS"
DEFAULT_CACHE_EVENTS = 150_000

# PostgreSQL connections per worker: KIROKU_PG_POOL_SIZE kept open, KIROKU_PG_MAX_OVERFLOW more
# under load. A worker opens two pools (events, views): 4 workers × 2 × (4 + 4) = 64, within a
# stock server's max_connections of 100 with room for the tools.
POOL_SIZE_ENV = "KIROKU_PG_POOL_SIZE"
MAX_OVERFLOW_ENV = "KIROKU_PG_MAX_OVERFLOW"
DEFAULT_POOL_SIZE = 4
DEFAULT_MAX_OVERFLOW = 4
# Once serving, a request waits this long for a connection (from the pool, or a new one the
# server may refuse), in each of eventsourcing's 10 tries, before it is answered 503
# (KIROKU_PG_WAIT, seconds). Starting up, when several workers create the tables at once,
# eventsourcing's own 30 s apply.
POOL_WAIT_ENV = "KIROKU_PG_WAIT"
DEFAULT_POOL_WAIT = 2.0
# The long reads' process runs this much nicer than the server (0–19; api/longreads.py).
LONG_READ_NICE_ENV = "KIROKU_LONG_READ_NICE"
DEFAULT_LONG_READ_NICE = 10


def store_env(*, sqlite_path: str | None = None, database_url: str | None = None) -> dict[str, str]:
    """eventsourcing's settings for SQLite (default) or PostgreSQL (a postgresql:// URL)."""
    url = database_url or os.environ.get("KIROKU_DATABASE_URL")
    if url:
        return postgres_env(url)
    path = sqlite_path or os.environ.get("KIROKU_DB") or DEFAULT_SQLITE_PATH
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": path,
        "SQLITE_LOCK_TIMEOUT": "10",
    }


def postgres_env(url: str) -> dict[str, str]:
    parsed = urlparse(url)
    if parsed.scheme not in ("postgresql", "postgres"):
        raise ValueError(f"not a postgresql:// URL: {url!r}")
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        # Inserts committed in one round trip (domain/pg_recorder.py).
        "APPLICATION_RECORDER_TOPIC": "domain.pg_recorder:OneTripRecorder",
        "POSTGRES_DBNAME": (parsed.path or "/postgres").lstrip("/"),
        "POSTGRES_HOST": parsed.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(parsed.port or 5432),
        "POSTGRES_USER": unquote(parsed.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(parsed.password or ""),
        "POSTGRES_POOL_SIZE": str(_count(POOL_SIZE_ENV, DEFAULT_POOL_SIZE)),
        "POSTGRES_MAX_OVERFLOW": str(_count(MAX_OVERFLOW_ENV, DEFAULT_MAX_OVERFLOW, minimum=0)),
    }
    schema = dict(parse_qsl(parsed.query)).get("schema")
    if schema:
        env["POSTGRES_SCHEMA"] = schema
    return env


def _count(name: str, default: int, minimum: int = 1) -> int:
    """A whole number from the environment, or `default`; a bad value is refused by name."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < minimum:
        raise ValueError(f"{name} must be a whole number of at least {minimum}, not {raw!r}")
    return int(raw)


def cache_events(env: dict[str, str]) -> int:
    """How many events the game cache may cover: the store's settings, the environment, or
    the default."""
    raw = env.get(CACHE_EVENTS_ENV)
    if raw is not None and raw.strip().isdigit():
        return int(raw)
    return _count(CACHE_EVENTS_ENV, DEFAULT_CACHE_EVENTS, minimum=0)


def long_read_nice() -> int:
    """How much lower than the server the long reads' process runs (`api/longreads.py`):
    0–19 added to its niceness."""
    nice = _count(LONG_READ_NICE_ENV, DEFAULT_LONG_READ_NICE, minimum=0)
    if nice > 19:
        raise ValueError(f"{LONG_READ_NICE_ENV} must be a whole number from 0 to 19, not {nice}")
    return nice


def pool_wait_seconds() -> float:
    raw = os.environ.get(POOL_WAIT_ENV, "").strip()
    try:
        wait = float(raw) if raw else DEFAULT_POOL_WAIT
    except ValueError:
        raise ValueError(f"{POOL_WAIT_ENV} must be a number of seconds, not {raw!r}") from None
    if not 0 < wait <= 60:
        raise ValueError(f"{POOL_WAIT_ENV} must be more than 0 and at most 60 seconds")
    return wait


def is_postgres(env: dict[str, str]) -> bool:
    return env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres"


# ------------------------------------------------------------------ a public server (issue 34)
# Logs, and limits per client. Kept together here, apart from the store's settings above,
# until the one settings module takes them in.

LOG_FORMAT_ENV = "KIROKU_LOG_FORMAT"  # text (default) or json: one JSON object a line
LOG_LEVEL_ENV = "KIROKU_LOG_LEVEL"  # DEBUG, INFO (default), WARNING, ERROR
LIMITS_ENV = "KIROKU_LIMITS"  # on (default) or off
# Each limit in the `limits` package's notation ("10/minute;100/day": all must hold), per
# client address and, where the request carries one, per token or session.
LIMIT_ENVS = {
    "create": "KIROKU_LIMIT_CREATE",
    "join": "KIROKU_LIMIT_JOIN",
    "command": "KIROKU_LIMIT_COMMAND",
    "stream": "KIROKU_LIMIT_STREAM",
}
# Defaults for a server open to people its operator does not know: a table of 16 playing at
# full speed stays far below them; one client scripting against it does not.
DEFAULT_LIMITS = {
    "create": "10/minute;60/hour",  # a host makes a few tables, not hundreds
    "join": "30/minute",  # a table of 16 joining at once, twice over
    "command": "120/minute",  # per token: two a second, sustained; per address ×4 (shared NAT)
    "stream": "60/minute",  # new stream connections (EventSource reconnects ~1/s at worst)
}
ADDRESS_FACTOR = 4  # an address (a household, a café) carries several players' tokens


@dataclass(frozen=True)
class PublicServerSettings:
    log_format: str = "text"
    log_level: str = "INFO"
    limits_on: bool = True
    limits: tuple[tuple[str, str], ...] = tuple(DEFAULT_LIMITS.items())

    @classmethod
    def from_env(cls) -> PublicServerSettings:
        fmt = os.environ.get(LOG_FORMAT_ENV, "").strip().lower() or "text"
        if fmt not in ("text", "json"):
            raise ValueError(f"{LOG_FORMAT_ENV} must be text or json, not {fmt!r}")
        level = os.environ.get(LOG_LEVEL_ENV, "").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError(f"{LOG_LEVEL_ENV} must be DEBUG, INFO, WARNING or ERROR")
        switch = os.environ.get(LIMITS_ENV, "").strip().lower() or "on"
        if switch not in ("on", "off"):
            raise ValueError(f"{LIMITS_ENV} must be on or off, not {switch!r}")
        limits = {
            what: os.environ.get(env, "").strip() or DEFAULT_LIMITS[what]
            for what, env in LIMIT_ENVS.items()
        }
        return cls(fmt, level, switch == "on", tuple(limits.items()))

    def limit(self, what: str) -> str:
        return dict(self.limits)[what]
