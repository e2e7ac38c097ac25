"""Storage through `eventsourcing`: one aggregate sequence per game, plus snapshots.

Each stored event holds one JSON text: the envelope, the sealed body with its salt (beside the
envelope, never in it) and the server-only data. Keeping it as text means the transcoder never
rewrites user-supplied JSON, so what is hashed is exactly what is read back.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import unquote, urlparse
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import IntegrityError, OperationalError

DEFAULT_SQLITE_PATH = "./kiroku.db"
T = TypeVar("T")


@dataclass(frozen=True)
class StoredRecord(DomainEvent):
    """One game event as stored: `record` is JSON {envelope, secret?, server?}."""

    record: str


@dataclass(frozen=True)
class StateSnapshot(DomainEvent):
    """The server's full game state after `originator_version` events, as JSON."""

    state: str


class EventLog(Application[UUID]):
    """The `eventsourcing` application that owns the event and snapshot tables
    (SQLite: stored_events, stored_snapshots; PostgreSQL: kiroku_events, kiroku_snapshots)."""

    name = "Kiroku"
    is_snapshotting_enabled = True


def with_setup_retry(make: Callable[[], T], attempts: int = 5) -> T:
    """Create tables, tolerating another worker creating them at the same moment.

    Several workers starting on a fresh database race in `CREATE TABLE IF NOT EXISTS`
    (PostgreSQL's catalog) and in eventsourcing's tracking migration row; the loser sees an
    integrity error, and the tables exist when it tries again.
    """
    for attempt in range(attempts):
        try:
            return make()
        except (IntegrityError, OperationalError):
            if attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1) + random.uniform(0, 0.05))
    raise AssertionError("unreachable")


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
    query = dict(part.split("=", 1) for part in parsed.query.split("&") if "=" in part)
    if "schema" in query:
        env["POSTGRES_SCHEMA"] = query["schema"]
    return env


def record_text(stored_state: bytes) -> str:
    """A StoredRecord's `record` read straight from its row: the state is the transcoder's
    plain JSON (no cipher, no compression), so the mapper's object hook can be skipped."""
    return json.loads(stored_state)["record"]


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
