"""Snapshots of game states, written by a background thread a bucket of secrets at a time
(docs/explanation/design/store-and-write-path.md item 5). When the thread falls behind, only a
game's latest due one is written. A snapshot is only a shortcut: one that fails is logged, not
retried, and one that cannot be restored is skipped (the events are folded instead).
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import IntegrityError
from pydantic import TypeAdapter

from domain.adapters.cache import GameCache, StoredBucket
from domain.adapters.store import StateSnapshot, unreadable_reason
from domain.adapters.thread_loop import ThreadLoop
from domain.model import codec, lifecycle
from domain.model.errors import KirokuError
from domain.model.game import GameState, SecretRecord
from domain.model.seqmap import SeqMap

log = logging.getLogger(__name__)

SNAPSHOT_INTERVAL = 100
# A snapshot head's schema is the state key after this prefix: code from before snapshots were
# stored by bucket takes it for a state of another schema and folds the events instead.
BUCKET_ROWS = "buckets:"
SNAPSHOT_CHUNK = 128 * 1024  # characters of bucket rows per transaction, at least one bucket
# How long the snapshot thread lets go of the interpreter after each bucket it serializes, so
# a thread waiting for it (a command) takes it then rather than after the switch interval.
SNAPSHOT_YIELD = 0.0005


def snapshot_interval(state: GameState) -> int:
    """Events between two snapshots of this state: SNAPSHOT_INTERVAL, doubled for every
    1,600 secrets kept unrevealed (a big state is written less often); a power of two times
    SNAPSHOT_INTERVAL, so the seqs due stay due as it grows."""
    return SNAPSHOT_INTERVAL << (len(state.unrevealed) // 1600).bit_length()


_SECRETS: TypeAdapter[dict[int, SecretRecord]] = TypeAdapter(dict[int, SecretRecord])


class Snapshots:
    """Snapshots in the store's snapshot table: written on a thread (`submit`), read by `load`."""

    def __init__(self, rows: Any, cache: GameCache) -> None:
        self._rows = rows  # eventsourcing's snapshot store
        self._cache = cache
        self._latest: dict[str, GameState] = {}  # game → its latest state due a snapshot
        self._guard = threading.Lock()
        self._loop: ThreadLoop[str] = ThreadLoop("kiroku-snapshots", self._step)

    def submit(self, state: GameState) -> None:
        with self._guard:
            queued = state.game_id in self._latest
            self._latest[state.game_id] = state
        if not queued:
            self._loop.put(state.game_id)

    @property
    def busy(self) -> bool:
        return self._loop.busy

    def flush(self) -> None:
        self._loop.flush()

    def close(self) -> None:
        self._loop.close()

    def _step(self, game_ids: list[str]) -> list[str]:
        for game_id in game_ids:
            with self._guard:
                state = self._latest.pop(game_id, None)
            if state is None:
                continue
            try:
                self.write(state)
            except Exception:
                log.exception("snapshot of game %s failed", game_id)
        return []

    def write(self, state: GameState) -> None:
        """Store a snapshot of `state`: each bucket of unrevealed secrets that no stored row
        holds yet (not the same object as the game's last snapshot's) as a row of its own, a
        few to a transaction, then the head naming each bucket's row, in the last one. A row
        is never written over: the same state gives the same rows, whichever worker writes."""
        game = UUID(state.game_id)
        known = self._cache.rows(state.game_id)
        listing: list[tuple[int, int]] = []
        rows: dict[int, StoredBucket] = {}
        chunk: list[DomainEvent] = []
        size = 0
        for key, bucket in state.unrevealed.bucket_items():
            kept = known.get(id(bucket))
            if kept is not None and kept[0] is bucket and kept[1] == key:
                version = kept[2]
            else:
                version = state.version
                text = _SECRETS.dump_json(bucket).decode()
                chunk.append(_snapshot_row(bucket_row_id(game, key), version, text))
                size += len(text)
                if size >= SNAPSHOT_CHUNK:
                    self._put_rows(chunk)
                    chunk, size = [], 0
                time.sleep(SNAPSHOT_YIELD)
            listing.append((key, version))
            rows[id(bucket)] = (bucket, key, version)
        head = lifecycle.snapshot_of(state.model_copy(update={"unrevealed": SeqMap()}))
        head.pop("unrevealed", None)
        head["schema"] = BUCKET_ROWS + head["schema"]
        head["buckets"] = listing
        chunk.append(_snapshot_row(game, state.version, codec.dumps(head)))
        self._put_rows(chunk)
        self._cache.set_rows(state.game_id, rows)

    def _put_rows(self, rows: list[DomainEvent]) -> None:
        try:
            self._rows.put(rows)
        except IntegrityError:  # another worker wrote some of them: the same rows
            for row in rows:
                with contextlib.suppress(IntegrityError):
                    self._rows.put([row])

    def state(self, uuid: UUID) -> GameState | None:
        """The latest snapshot's state, or None (`load`)."""
        loaded = self.load(uuid)
        return loaded[0] if loaded is not None else None

    def load(self, uuid: UUID) -> tuple[GameState, dict[int, StoredBucket]] | None:
        """The latest snapshot's state and the rows that hold its buckets; None when there
        is none or it cannot be restored. One stored whole (before bucket rows) is read as is."""
        latest = list(self._rows.get(uuid, desc=True, limit=1))
        if not latest or not isinstance(latest[0], StateSnapshot):
            return None
        versions: dict[int, int] = {}  # bucket key → the version of the row holding it
        try:
            data = json.loads(latest[0].state)
            schema = data.get("schema")
            if isinstance(schema, str) and schema.startswith(BUCKET_ROWS):
                data["schema"] = schema.removeprefix(BUCKET_ROWS)
                if data["schema"] != lifecycle.state_key(data["ruleset"]):
                    raise lifecycle.StaleState(data["schema"])  # its buckets go unread
                buckets: dict[int, dict[int, SecretRecord]] = {}
                for key, version in data.pop("buckets"):
                    buckets[key] = self._bucket_row(uuid, key, version)
                    versions[key] = version
                data["unrevealed"] = SeqMap.from_buckets(buckets)  # as read, not sorted again
            state = lifecycle.restore_snapshot(data)
            rows: dict[int, StoredBucket] = {
                id(bucket): (bucket, key, versions[key])
                for key, bucket in state.unrevealed.bucket_items()
                if key in versions
            }
        except lifecycle.StaleState:
            log.info("snapshot of game %s is from older code: folding its events instead", uuid)
            return None
        except (ValueError, TypeError, KeyError, RecursionError, KirokuError) as error:
            log.warning(
                "snapshot %s of game %s cannot be restored (%s); folding its events instead",
                latest[0].originator_version,
                uuid,
                unreadable_reason(error),
            )
            return None
        return state, rows

    def _bucket_row(self, game: UUID, key: int, version: int) -> dict[int, SecretRecord]:
        """The secrets a snapshot stored as bucket `key` at `version` (KeyError if missing).
        Parsed by `json.loads`, which shares the strings of repeated keys (validating the text
        directly is faster but keeps a copy of every key: +40% memory for cached secrets)."""
        found = list(self._rows.get(bucket_row_id(game, key), gt=version - 1, lte=version, limit=1))
        if not found or not isinstance(found[0], StateSnapshot):
            raise KeyError(f"no row of bucket {key} at {version}")
        return _SECRETS.validate_python(json.loads(found[0].state))


def bucket_row_id(game: UUID, key: int) -> UUID:
    """The id of the rows of a game's bucket `key` of unrevealed secrets (one a version)."""
    return uuid5(game, f"unrevealed {key}")


def _snapshot_row(originator: UUID, version: int, text: str) -> StateSnapshot:
    return StateSnapshot(
        originator_id=originator,
        originator_version=version,
        timestamp=StateSnapshot.create_timestamp(),
        state=text,
    )
