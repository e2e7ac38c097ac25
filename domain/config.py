"""Where the event store is: settings from the command line or the environment.

SQLite (`KIROKU_DB`, default ./kiroku.db) unless a PostgreSQL URL is given
(`KIROKU_DATABASE_URL`, `postgresql://user:password@host:port/db[?schema=NAME]`). The result is
`eventsourcing`'s own environment dictionary, which every store in the process is opened with.
"""

from __future__ import annotations

import os
from urllib.parse import parse_qsl, unquote, urlparse

DEFAULT_SQLITE_PATH = "./kiroku.db"


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
        "POSTGRES_DBNAME": (parsed.path or "/postgres").lstrip("/"),
        "POSTGRES_HOST": parsed.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(parsed.port or 5432),
        "POSTGRES_USER": unquote(parsed.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(parsed.password or ""),
        "POSTGRES_POOL_SIZE": "10",
        "POSTGRES_MAX_OVERFLOW": "10",
    }
    schema = dict(parse_qsl(parsed.query)).get("schema")
    if schema:
        env["POSTGRES_SCHEMA"] = schema
    return env


def is_postgres(env: dict[str, str]) -> bool:
    return env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres"
