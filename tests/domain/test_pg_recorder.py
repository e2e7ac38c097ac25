"""The PostgreSQL recorder that inserts a batch in one statement (domain/adapters/pg_recorder.py):
what it stores and returns, that a batch with a taken version stores nothing of itself and
leaves its connection usable, and that workers starting together create its function once."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError, OperationalError, StoredEvent
from psycopg.sql import SQL, Identifier

from domain.adapters.pg_recorder import INSERT_FUNCTION, OneTripRecorder
from domain.adapters.store import EventLog
from domain.application.settings import store_env

pytestmark = pytest.mark.postgres


@pytest.fixture
def recorder(postgres_url: str) -> Iterator[OneTripRecorder]:
    log = EventLog(env=store_env(database_url=postgres_url))
    assert isinstance(log.recorder, OneTripRecorder)
    yield log.recorder
    log.close()


def rows(game: uuid.UUID, versions: range) -> list[StoredEvent]:
    """Rows whose states hold what a text encoding would have to escape, and non-ASCII text."""
    return [
        StoredEvent(
            game, v, "kiroku:test", f'{{"v": {v}, "say": "「\\\\」\'"}}'.encode() + b"\x00\xff"
        )
        for v in versions
    ]


def _admin(url: str) -> psycopg.Connection[tuple[object, ...]]:
    """A session of its own on the test database, outside the schema's pools."""
    return psycopg.connect(url.partition("?")[0], autocommit=True)


def test_a_batch_is_stored_in_order_with_its_notification_ids_and_notifies(
    recorder: OneTripRecorder, postgres_url: str
) -> None:
    """What it stores and returns; eventsourcing's subscribers, waiting on the events channel
    for new events, hear of it once it is committed, as before."""
    first, second = uuid.uuid4(), uuid.uuid4()
    sent = rows(first, range(1, 4)) + rows(second, range(1, 3))
    with _admin(postgres_url) as listener:
        listener.execute(SQL("LISTEN {}").format(Identifier(recorder.channel_name)))
        ids = recorder.insert_events(sent)
        heard = list(listener.notifies(timeout=5, stop_after=1))
    # The channel is the database's: a test beside this one, in another schema, may notify too.
    assert heard and {n.channel for n in heard} == {recorder.channel_name}
    assert ids is not None and len(ids) == 5 and ids == sorted(ids)
    stored = recorder.select_notifications(start=None, limit=10)
    assert [n.id for n in stored] == list(ids)
    assert [(n.topic, n.state, n.originator_id, n.originator_version) for n in stored] == [
        (e.topic, e.state, e.originator_id, e.originator_version) for e in sent
    ]


def test_a_taken_version_stores_nothing_of_the_batch_and_the_next_batch_goes_in(
    recorder: OneTripRecorder, caplog: pytest.LogCaptureFixture
) -> None:
    game, other = uuid.uuid4(), uuid.uuid4()
    recorder.insert_events(rows(game, range(1, 3)))
    with pytest.raises(IntegrityError):  # version 2 is taken: the whole batch is refused
        recorder.insert_events(rows(other, range(1, 3)) + rows(game, range(2, 4)))
    # The aborted transaction ended at the sync, not left for the pool to roll back.
    assert not [r for r in caplog.records if "rolling back" in r.getMessage()]
    assert recorder.select_events(other) == []
    assert [e.originator_version for e in recorder.select_events(game)] == [1, 2]
    # Every pooled connection is usable (none left inside the aborted transaction).
    for _ in range(recorder.datastore.pool.max_size + 1):
        recorder.insert_events(rows(uuid.uuid4(), range(1, 2)))
    with recorder.datastore.get_connection() as conn:
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    assert len(recorder.select_notifications(start=None, limit=100)) == 2 + 1 + (
        recorder.datastore.pool.max_size
    )


def test_servers_starting_together_on_an_older_schema_create_the_insert_function_once(
    postgres_url: str,
) -> None:
    """The tables are there (`kiroku serve` opens the store before its workers start), the
    function not yet (a schema an older Kiroku made): four servers starting together."""
    upper = f"{postgres_url.rpartition('schema=')[2]}_Upper"  # must be quoted to be found
    url = f"{postgres_url.partition('?')[0]}?schema={upper}"
    with _admin(url) as conn:
        conn.execute(SQL("CREATE SCHEMA {}").format(Identifier(upper)))
    try:
        EventLog(env=store_env(database_url=url)).close()
        with _admin(url) as conn:
            conn.execute(SQL("DROP FUNCTION {}").format(Identifier(upper, INSERT_FUNCTION)))
        with ThreadPoolExecutor(4) as pool:
            logs = list(pool.map(lambda _: EventLog(env=store_env(database_url=url)), range(4)))
        game = uuid.uuid4()
        for number, log in enumerate(logs, start=1):
            log.recorder.insert_events(rows(game, range(number, number + 1)))
        stored = logs[0].recorder.select_events(game)
        for log in logs:
            log.close()
        assert [e.originator_version for e in stored] == [1, 2, 3, 4]
        with _admin(url) as conn:
            functions = conn.execute(
                "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
                " WHERE n.nspname = %s AND p.proname = %s",
                (upper, INSERT_FUNCTION),
            ).fetchone()
        assert functions == (1,)
    finally:
        with _admin(url) as conn:
            conn.execute(SQL("DROP SCHEMA {} CASCADE").format(Identifier(upper)))


def test_each_server_waits_for_the_table_lock_as_long_as_its_own_setting_says(
    postgres_url: str,
) -> None:
    """The function is created once, by whichever server came first (no lock timeout here);
    a server set to give up after a second still gives up after a second."""
    first = EventLog(env=store_env(database_url=postgres_url))
    impatient = EventLog(env={**store_env(database_url=postgres_url), "POSTGRES_LOCK_TIMEOUT": "1"})
    recorder = impatient.recorder
    assert isinstance(recorder, OneTripRecorder)
    schema = postgres_url.rpartition("schema=")[2]
    try:
        with psycopg.connect(postgres_url.partition("?")[0]) as holder:
            holder.execute(  # a transaction holding the events table's lock
                SQL("LOCK TABLE {} IN EXCLUSIVE MODE").format(
                    Identifier(schema, recorder.events_table_name)
                )
            )
            started = time.monotonic()
            letting_go = threading.Timer(3.0, holder.rollback)  # a server that waits on fails
            letting_go.start()
            with pytest.raises(OperationalError, match="lock timeout"):
                OneTripRecorder.insert_events.__wrapped__(  # once, without eventsourcing's retries
                    recorder, rows(uuid.uuid4(), range(1, 2))
                )
            assert 0.9 < time.monotonic() - started < 3
            letting_go.cancel()
        assert recorder.insert_events(rows(uuid.uuid4(), range(1, 2)))  # let go: it goes in
    finally:
        impatient.close()
        first.close()
