"""Storage through `eventsourcing`: one aggregate sequence per game, plus snapshots and the
answers remembered for Idempotency-Keys.

Each stored event holds one JSON text (envelope, sealed body with its salt, server-only data):
the transcoder never rewrites user-supplied JSON, so what is hashed is exactly what is read
back. A row that no longer decodes is `CorruptEvent` at its seq, never a bare parser error.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import IntegrityError, InternalError, OperationalError
from eventsourcing.utils import get_topic
from pydantic import ValidationError

from domain.model import codec
from domain.model.errors import CorruptEvent, KirokuError, NotFound
from domain.model.records import Recorded

T = TypeVar("T")


@dataclass(frozen=True)
class StoredRecord(DomainEvent):
    """One game event as stored: `record` is JSON {envelope, secret?, server?}."""

    record: str


@dataclass(frozen=True)
class StateSnapshot(DomainEvent):
    """The server's full game state after `originator_version` events, as JSON."""

    state: str


@dataclass(frozen=True)
class CommandAnswer(DomainEvent):
    """What a command sent with an Idempotency-Key appended: events `first`..`last` of
    `game_id`. Stored in their transaction under an id derived from the game, the caller and
    the key (`answer_id`): a key is answered once, by every worker, while the game is kept."""

    game_id: str
    request: str  # sha256 of the canonical command, to refuse a key reused for another one
    first: int
    last: int


class EventLog(Application[UUID]):
    """The `eventsourcing` application that owns the event and snapshot tables
    (SQLite: stored_events, stored_snapshots; PostgreSQL: kiroku_events, kiroku_snapshots)."""

    name = "Kiroku"
    is_snapshotting_enabled = True

    # What the projections read (projections/runner.py's EventFeed).

    def appended_since(
        self, position: int, limit: int
    ) -> list[tuple[int, str, Recorded | CorruptEvent]]:
        """Up to `limit` events appended after `position`, in the store's order: (their
        position, their game, the record or why it cannot be read)."""
        found: list[tuple[int, str, Recorded | CorruptEvent]] = []
        for notice in self.recorder.select_notifications(
            start=position + 1, limit=limit, topics=(get_topic(StoredRecord),)
        ):
            try:
                recorded: Recorded | CorruptEvent = decode_row(
                    notice.originator_id, notice.originator_version, notice.state
                )
            except CorruptEvent as error:
                recorded = error
            found.append((notice.id, str(notice.originator_id), recorded))
        return found

    def game_records(self, game_id: str, upto: int | None = None) -> Iterator[Recorded]:
        """A game's records in order, up to seq `upto` (all by default)."""
        return read_records(self, UUID(game_id), upto=upto)


class StoreUnavailable(Exception):
    """The event store cannot be opened (unreachable server, no such database, no right to
    create what is missing): a clear reason for the operator, never a retry loop."""


def pg_session(env: dict[str, str]) -> Any:
    """A new PostgreSQL session of its own (autocommit), apart from the pools' connections:
    for creating the schema, and for session advisory locks (they belong to the session)."""
    import psycopg  # only with PostgreSQL

    return psycopg.connect(
        dbname=env["POSTGRES_DBNAME"],
        host=env["POSTGRES_HOST"],
        port=env["POSTGRES_PORT"],
        user=env["POSTGRES_USER"],
        password=env.get("POSTGRES_PASSWORD") or None,
        connect_timeout=5,
        autocommit=True,
    )


def prepare_postgres(env: dict[str, str]) -> None:
    """PostgreSQL: make sure the server answers (within seconds, not after the pool's long
    retries) and create the schema a `?schema=` names, as SQLite creates its file. Raises
    StoreUnavailable with the server's reason when it cannot connect or may not create it."""
    if not is_postgres(env):
        return
    import psycopg  # only with PostgreSQL
    from psycopg import errors, sql

    schema = env.get("POSTGRES_SCHEMA") or "public"
    where = f"{env['POSTGRES_HOST']}:{env['POSTGRES_PORT']}/{env['POSTGRES_DBNAME']}"
    try:
        with pg_session(env) as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)
            ).fetchone()
            if exists is None:
                # Another worker may create it at the same moment.
                with contextlib.suppress(errors.DuplicateSchema, errors.UniqueViolation):
                    conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    except psycopg.Error as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise StoreUnavailable(
            f"cannot open the PostgreSQL store at {where} (schema {schema!r}): {reason}"
        ) from None


def is_postgres(env: dict[str, str]) -> bool:
    """Do these store settings (eventsourcing's) name PostgreSQL?"""
    return env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres"


def shorten_pool_wait(recorder: object, seconds: float) -> None:
    """PostgreSQL: once serving, wait `seconds` (`KIROKU_PG_WAIT`) for a connection, not the
    30 s starting up needs, so a server that refuses connections is answered in seconds."""
    pool = getattr(getattr(recorder, "datastore", None), "pool", None)
    if pool is not None and hasattr(pool, "timeout"):
        pool.timeout = seconds


def with_setup_retry(make: Callable[[], T], attempts: int = 5) -> T:
    """Create tables, tolerating another worker creating them at the same moment (the loser
    of that race sees an integrity or internal error; the tables exist when it tries again)."""
    for attempt in range(attempts):
        try:
            return make()
        except (IntegrityError, OperationalError, InternalError):
            if attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1) + random.uniform(0, 0.05))
    raise AssertionError("unreachable")


def unreadable_reason(error: BaseException) -> str:
    """Why a stored row could not be read, in words that never quote the row (it may hold a
    sealed body, and the reason is shown to whoever asked)."""
    if isinstance(error, ValidationError):
        messages = [e["msg"] for e in error.errors(include_input=False, include_url=False)]
        if any("recursion limit" in m for m in messages):
            return "it is nested too deeply to read"
        if any(m.startswith("Invalid JSON") for m in messages):
            return "it is not valid JSON"
    if isinstance(error, RecursionError):
        return "it is nested too deeply to read"
    if isinstance(error, KirokuError) and error.code == "unknown_event_type":
        return "its event type is unknown here"
    if isinstance(error, UnicodeError):
        return "it is not valid UTF-8"
    if isinstance(error, json.JSONDecodeError):
        return "it is not valid JSON"
    return "it is not a valid event record"


READ_PAGE = 2_000  # rows of a game read from the store at a time


def decode_row(game: UUID | str, seq: int, state: bytes) -> Recorded:
    """The record stored as event `seq` of `game`, or CorruptEvent naming that seq."""
    try:
        recorded = codec.decode_stored(state)
    except (ValueError, TypeError, KeyError, RecursionError, KirokuError) as error:
        raise CorruptEvent(seq, unreadable_reason(error)) from None
    if recorded.seq != seq or recorded.envelope.game_id != str(game):
        raise CorruptEvent(seq, "it is stored in the place of another event")
    return recorded


def read_records(
    log: EventLog, game: UUID, after: int = 0, upto: int | None = None
) -> Iterator[Recorded]:
    """A game's records from the store, in order, seq in (after, upto]: read READ_PAGE rows at
    a time, so a pass over a long game (a session log's) holds a page of it, not all of it."""
    while True:
        rows = log.recorder.select_events(game, gt=after, lte=upto, limit=READ_PAGE)
        for stored in rows:
            yield decode_row(game, stored.originator_version, stored.state)
        if len(rows) < READ_PAGE:
            return
        after = rows[-1].originator_version


def read_many(log: EventLog, afters: dict[UUID, int]) -> dict[UUID, list[tuple[int, bytes]]]:
    """PostgreSQL: the stored rows (seq, state) of several games, each after its own seq, in
    order, in one query (`read_records` takes a round trip a game)."""
    from psycopg.sql import SQL, Identifier  # only with PostgreSQL

    recorder = log.recorder
    datastore = recorder.datastore  # type: ignore[attr-defined]
    # LATERAL: each game's rows by the primary key's index (a join would scan the table).
    statement = SQL(
        "SELECT x.* FROM unnest(%s::uuid[], %s::bigint[]) AS w(id, after) CROSS JOIN LATERAL "
        "(SELECT e.originator_id, e.originator_version, e.state FROM {schema}.{table} AS e "
        "WHERE e.originator_id = w.id AND e.originator_version > w.after "
        "ORDER BY e.originator_version) AS x"
    ).format(
        schema=Identifier(datastore.schema),
        table=Identifier(recorder.events_table_name),  # type: ignore[attr-defined]
    )
    found: dict[UUID, list[tuple[int, bytes]]] = {game: [] for game in afters}
    with datastore.get_connection() as connection, connection.cursor() as cursor:
        cursor.execute(statement, (list(afters), list(afters.values())), prepare=True)
        for row in cursor.fetchall():
            found[row["originator_id"]].append((row["originator_version"], bytes(row["state"])))
    return found


class StoreBusy(KirokuError):
    """The database refused or did not give a connection in time (its connection limit, a
    restart): the request can be sent again later. Nothing was appended."""

    kind = "unavailable"

    def __init__(self) -> None:
        super().__init__(
            "store_unavailable",
            "The game store is not answering right now (too many connections or restarting); "
            "please try again in a moment.",
        )


def parse_game_id(game_id: str) -> UUID:
    try:
        return UUID(game_id)
    except (ValueError, TypeError, AttributeError):
        raise NotFound("game_not_found", "There is no such game.") from None
