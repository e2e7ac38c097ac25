"""PostgreSQL: a batch of events inserted in one round trip, as four arrays.

`eventsourcing`'s recorder locks the events table for every insert (so the notification order
the projections read is the commit order), then syncs its pipeline after the INSERT to learn
of a unique-key violation before committing, and only then sends COMMIT: the table stays
locked across a round trip back to this process, and a writer thread there may wait for the
interpreter (its event loop holds it up to the switch interval) while every other worker's
insert waits for the lock.

Here BEGIN, the lock, the notification, the INSERT and COMMIT go out together and the pipeline
is synced once: the lock is held only while the server runs them. A violation is still raised
as `eventsourcing`'s IntegrityError at that sync, and nothing of the batch is stored: the
server skips the rest of the transaction after the failed INSERT and the connection goes back
to the pool idle (tests/domain/test_pg_recorder.py). Measured with 4 workers all writing
(affinity off), 16 games × 64 connections on two cores, two pairs: a put 4.1–4.9 ms against
4.7–5.3 ms, 1,563 and 1,594 commands/s against 1,480 and 1,542 (README, "The write path").

The rows go as four arrays (ids, versions, topics, states) in binary, not as one array of a
composite type: psycopg writes a composite's text form in Python, escaping every byte of
every state, which took 1.8–1.9 ms of CPU for a 32-event batch; the arrays take 0.7–0.8 ms.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import retry
from psycopg import Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Identifier


class OneTripRecorder(PostgresApplicationRecorder):
    """`PostgresApplicationRecorder` with its inserts sent and committed in one round trip."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._insert_columns = SQL(
            "INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state)"
            " SELECT * FROM unnest(%b::{id}[], %b::bigint[], %b::text[], %b::bytea[])"
            " RETURNING notification_id"
        ).format(
            schema=Identifier(self.datastore.schema),
            table=Identifier(self.events_table_name),
            id=SQL(self.datastore.originator_id_type),
        )

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        if not stored_events or self.datastore.enable_db_functions:
            ids: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
            return ids
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            with conn.pipeline(), conn.transaction():  # BEGIN … COMMIT, synced on leaving
                self._insert_stored_events(curs, stored_events, **kwargs)
            return self._fetch_ids_after_insert_events(curs, stored_events, **kwargs)

    def _insert_stored_events(
        self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent], **_: Any
    ) -> None:
        """`eventsourcing`'s lock and notification, then the rows as four arrays."""
        self._lock_table(curs)
        self._notify_channel(curs)
        curs.execute(
            self._insert_columns,
            (
                [e.originator_id for e in stored_events],
                [e.originator_version for e in stored_events],
                [e.topic for e in stored_events],
                [e.state for e in stored_events],
            ),
            prepare=True,
        )
