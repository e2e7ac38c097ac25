"""PostgreSQL: a batch of events inserted by one statement, its rows as four arrays.

`eventsourcing`'s recorder keeps the events table locked across a round trip back to this
process (BEGIN, LOCK, NOTIFY, INSERT, a sync for a unique-key violation, then COMMIT), while
every other worker's insert waits. Here one prepared statement calls a function of the schema
that sets this server's lock timeout, locks, notifies and inserts in its own transaction: the
lock is held only while the server works, and the writer thread spends 0.35 ms of CPU on a
roll where the pipeline took 0.51. The rows go as four binary arrays: a composite's text form
is escaped byte by byte in Python (1.8–1.9 ms of CPU for 32 events; the arrays 0.7–0.8).
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

INSERT_FUNCTION = "kiroku_insert_events_1"  # a new definition takes a new name


class OneTripRecorder(PostgresApplicationRecorder):
    """`PostgresApplicationRecorder` with each insert one statement: a function of the schema."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        schema, table = Identifier(self.datastore.schema), Identifier(self.events_table_name)
        function = Identifier(self.datastore.schema, INSERT_FUNCTION)
        self._create_function = SQL(
            "CREATE FUNCTION {function}(lock_timeout text,"
            " ids {id}[], versions bigint[], topics text[], states bytea[])"
            " RETURNS SETOF bigint LANGUAGE plpgsql AS $body$"
            " BEGIN"
            "  PERFORM set_config('lock_timeout', lock_timeout, true);"
            "  LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE;"
            "  NOTIFY {channel};"
            "  RETURN QUERY INSERT INTO {schema}.{table}"
            "   (originator_id, originator_version, topic, state)"
            "   SELECT * FROM unnest(ids, versions, topics, states) RETURNING notification_id;"
            " END $body$"
        ).format(
            function=function,
            id=SQL(self.datastore.originator_id_type),
            schema=schema,
            table=table,
            channel=Identifier(self.channel_name),
        )
        self._insert = SQL("SELECT n FROM {function}(%s, %b, %b, %b, %b) AS n").format(
            function=function
        )
        self._lock_timeout = f"{int(self.datastore.lock_timeout)}s"  # this server's setting

    def _create_table(self, curs: Cursor[DictRow]) -> None:
        """eventsourcing's tables, then the insert function if the schema lacks it, one server
        at a time (servers starting together would fail with "tuple concurrently updated")."""
        curs.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (INSERT_FUNCTION,))
        super()._create_table(curs)
        curs.execute(
            "SELECT to_regproc(quote_ident(%s) || '.' || %s) AS found",
            (self.datastore.schema, INSERT_FUNCTION),
        )
        found = curs.fetchone()
        if found is None or found["found"] is None:
            curs.execute(self._create_function)

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        if not stored_events or self.datastore.enable_db_functions:
            ids: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
            return ids
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(
                self._insert,
                (
                    self._lock_timeout,
                    [e.originator_id for e in stored_events],
                    [e.originator_version for e in stored_events],
                    [e.topic for e in stored_events],
                    [e.state for e in stored_events],
                ),
                prepare=True,
            )
            return [row["n"] for row in curs.fetchall()]
