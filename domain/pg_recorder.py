"""PostgreSQL: a batch of events inserted in one round trip to the server.

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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import retry


class OneTripRecorder(PostgresApplicationRecorder):
    """`PostgresApplicationRecorder` with its inserts sent and committed in one round trip."""

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
