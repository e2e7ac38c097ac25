"""The PostgreSQL recorder that inserts a batch in one round trip (domain/pg_recorder.py):
what it stores and returns, and that a batch with a taken version stores nothing of itself
and leaves its connection usable."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent

from domain.config import store_env
from domain.pg_recorder import OneTripRecorder
from domain.store import EventLog

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


def test_a_batch_is_stored_in_order_with_its_notification_ids(
    recorder: OneTripRecorder,
) -> None:
    first, second = uuid.uuid4(), uuid.uuid4()
    ids = recorder.insert_events(rows(first, range(1, 4)) + rows(second, range(1, 3)))
    assert ids is not None and len(ids) == 5 and ids == sorted(ids)
    stored = recorder.select_notifications(start=None, limit=10)
    assert [n.id for n in stored] == list(ids)
    sent = rows(first, range(1, 4)) + rows(second, range(1, 3))
    assert [(n.topic, n.state) for n in stored] == [(e.topic, e.state) for e in sent]
    assert [(n.originator_id, n.originator_version) for n in stored] == [
        (first, 1),
        (first, 2),
        (first, 3),
        (second, 1),
        (second, 2),
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
