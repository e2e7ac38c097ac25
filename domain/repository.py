"""Games in the event store: loading (cache, snapshot, fast-forward), the version-checked
append with its snapshots, and the answers remembered for Idempotency-Keys.

The application service decides; this is the one place that knows how a game is kept.
Appends are optimistic on the game's version: the store's unique (game, seq) key refuses a
second writer of the same seq, which `add` reports as `AppendConflict`.

The cache of game states is bounded (least recently used first, by the events the states
cover: `KIROKU_CACHE_EVENTS`). Snapshots are written by a background thread, so no command
waits while a big state is serialized.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import IntegrityError, OperationalError
from pydantic import TypeAdapter

from domain import codec, lifecycle
from domain.config import cache_events, is_postgres
from domain.errors import CorruptEvent, KirokuError, NotFound
from domain.game import GameState, SecretRecord
from domain.records import Recorded
from domain.seqmap import SeqMap
from domain.store import (
    CommandAnswer,
    EventLog,
    StateSnapshot,
    StoredRecord,
    prepare_postgres,
    read_records,
    unreadable_reason,
    with_setup_retry,
)
from domain.verification import Unreadable

log = logging.getLogger(__name__)

SNAPSHOT_INTERVAL = 100
PUT_CHUNK = 1000  # events per transaction when a whole game is stored at once (imports)
_ANSWERS = UUID("6f1c7a52-5b1e-4f0e-9a55-3d2d3c6b7a10")  # namespace of CommandAnswer ids


# After another writer is seen appending to a game, this process fast-forwards the game before
# deciding each of its commands for this long; otherwise it decides on its cached state (an
# append on a stale state fails its version check, and a refusal is checked on a fresh one).
SHARED_SECONDS = 30.0
WRITE_LOCK = 0x4B49524F  # "KIRO": the advisory locks' first key (the game's is the second)


class AppendConflict(Exception):
    """Another writer stored this seq (or answered this Idempotency-Key) first."""


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


class GameCache:
    """Game states by id, least recently used first out, bounded by the events they cover
    (a state costs memory roughly in proportion to its events). The one most recently used
    is kept whatever its size. Thread-safe."""

    def __init__(self, max_events: int) -> None:
        self.max_events = max_events
        self._states: OrderedDict[str, GameState] = OrderedDict()
        self._events = 0
        self._guard = threading.Lock()

    def get(self, game_id: str) -> GameState | None:
        with self._guard:
            state = self._states.get(game_id)
            if state is not None:
                self._states.move_to_end(game_id)
            return state

    def __contains__(self, game_id: str) -> bool:
        return game_id in self._states

    def __len__(self) -> int:
        return len(self._states)

    @property
    def events(self) -> int:
        """The events the cached states cover."""
        return self._events

    def put(self, state: GameState) -> None:
        with self._guard:
            old = self._states.pop(state.game_id, None)
            if old is not None:
                self._events -= old.version
            self._states[state.game_id] = state
            self._events += state.version
            while self._events > self.max_events and len(self._states) > 1:
                _, evicted = self._states.popitem(last=False)
                self._events -= evicted.version

    def pop(self, game_id: str) -> None:
        with self._guard:
            old = self._states.pop(game_id, None)
            if old is not None:
                self._events -= old.version


class Snapshotter:
    """Writes snapshots on its own thread; `flush` waits for those taken so far. When the
    thread falls behind, only a game's latest due snapshot is written (an older one would be
    superseded at once). A snapshot is only a shortcut, so one that fails is logged, not
    retried."""

    def __init__(self, write: Callable[[GameState], None]) -> None:
        self._write = write
        self._latest: dict[str, GameState] = {}  # game → its latest state due a snapshot
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._guard = threading.Lock()

    def submit(self, state: GameState) -> None:
        with self._guard:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="kiroku-snapshots", daemon=True
                )
                self._thread.start()
            queued = state.game_id in self._latest
            self._latest[state.game_id] = state
        if not queued:
            self._queue.put(state.game_id)

    def flush(self) -> None:
        if self._thread is not None:
            self._queue.join()

    def close(self) -> None:
        with self._guard:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join()

    def _run(self) -> None:
        while True:
            game_id = self._queue.get()
            try:
                if game_id is None:
                    return
                with self._guard:
                    state = self._latest.pop(game_id, None)
                if state is not None:
                    self._write(state)
            except Exception:
                log.exception("snapshot of game %s failed", game_id)
            finally:
                self._queue.task_done()


def snapshot_interval(state: GameState) -> int:
    """Events between two snapshots of this state: SNAPSHOT_INTERVAL, doubled for every
    1,600 secrets kept unrevealed (a snapshot's size grows with them, so a big state is
    written less often: 400 at 3,300 kept, 3,200 at 33,000). A power of two times
    SNAPSHOT_INTERVAL, so the seqs due stay due as it grows."""
    return SNAPSHOT_INTERVAL << (len(state.unrevealed) // 1600).bit_length()


class SnapshotText:
    """A state's snapshot text (`lifecycle.snapshot_of`, as JSON), made incrementally: the
    secrets kept unrevealed — most of a big state — are serialized a bucket at a time, and a
    bucket unchanged since the game's previous snapshot (the same object, shared between
    versions) reuses its text. So a snapshot costs what changed since the last one plus a
    copy, and the interpreter can switch threads between buckets instead of being held for
    the whole state in one call. The texts kept are bounded (`max_chars`, least recently
    snapshotted games first out; the game just snapshotted is kept whatever its size)."""

    def __init__(self, max_chars: int = 32 * 2**20) -> None:
        self.max_chars = max_chars
        self._texts: OrderedDict[str, dict[int, tuple[object, str]]] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self._chars = 0

    def text(self, state: GameState) -> str:
        data = lifecycle.snapshot_of(state.model_copy(update={"unrevealed": SeqMap()}))
        data.pop("unrevealed", None)
        head = codec.dumps(data)
        game_id = state.game_id
        old = self._texts.pop(game_id, {})
        self._chars -= self._sizes.pop(game_id, 0)
        new: dict[int, tuple[object, str]] = {}
        parts: list[str] = []
        for bucket in state.unrevealed.buckets():
            kept = old.get(id(bucket))
            if kept is not None and kept[0] is bucket:
                part = kept[1]
            else:
                part = _SECRETS.dump_json(bucket).decode()[1:-1]  # without its braces
            new[id(bucket)] = (bucket, part)
            parts.append(part)
        size = sum(len(part) for part in parts)
        self._texts[game_id], self._sizes[game_id] = new, size
        self._chars += size
        while self._chars > self.max_chars and len(self._texts) > 1:
            evicted, _ = self._texts.popitem(last=False)
            self._chars -= self._sizes.pop(evicted)
        if head == "{}":
            return '{"unrevealed":{' + ",".join(parts) + "}}"
        return head[:-1] + ',"unrevealed":{' + ",".join(parts) + "}}"


_SECRETS: TypeAdapter[dict[int, SecretRecord]] = TypeAdapter(dict[int, SecretRecord])


@dataclass(frozen=True)
class Pending:
    """An append folded and encoded but not yet written (`GameRepository.prepare`)."""

    state: GameState  # after it
    rows: list[DomainEvent]
    due: GameState | None  # a state along the way due a snapshot


@dataclass(frozen=True)
class Answer:
    """An Idempotency-Key to remember with the events its command appends."""

    key: str  # sha256 of caller and key
    request: str  # sha256 of the canonical command


def parse_game_id(game_id: str) -> UUID:
    try:
        return UUID(game_id)
    except (ValueError, TypeError, AttributeError):
        raise NotFound("game_not_found", "There is no such game.") from None


def lock_key(game_id: str) -> int:
    """A game's write-lock key: the first 32 bits of its id, as PostgreSQL's signed int4 (two
    games that share one only take turns)."""
    return int.from_bytes(parse_game_id(game_id).bytes[:4], "big", signed=True)


def answer_id(game_id: str, key: str) -> UUID:
    return uuid5(_ANSWERS, f"{game_id}\n{key}")


def fold_one(state: GameState | None, recorded: Recorded) -> GameState:
    """`state` after a stored event; an event that cannot be folded is reported as damaged at
    its seq (it was folded once before it was stored, so the store must have changed)."""
    try:
        if state is None:
            return lifecycle.initial_state(recorded)
        return lifecycle.evolve(state, recorded)
    except Exception as error:
        log.exception(
            "event %s of game %s cannot be folded", recorded.seq, recorded.envelope.game_id
        )
        raise CorruptEvent(recorded.seq, f"it cannot be applied ({type(error).__name__})") from None


class GameRepository:
    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        prepare_postgres(env)
        self.log = with_setup_retry(lambda: EventLog(env=env))
        self._cache = GameCache(cache_events(env))
        self._shared: dict[str, float] = {}  # game → until when another writer is assumed
        self.snapshots = Snapshotter(self._snapshot)
        self._snapshot_texts = SnapshotText()
        self._lock_connection: Any = None  # PostgreSQL: this process's advisory-lock session

    def close(self) -> None:
        self.snapshots.close()
        if self._lock_connection is not None:
            self._lock_connection.close()
        self.log.close()

    @contextmanager
    def write_lock(
        self, game_ids: Iterable[str], *, wait: bool = True
    ) -> Iterator[set[str] | None]:
        """PostgreSQL: hold these games' write locks (session advisory locks, one a game) for
        appends to games that several workers write, so they take turns on a game instead of
        racing for the same version, while other games are decided and written beside them.

        `wait`: take them all, in the order of their keys (so two processes never wait for
        each other). Otherwise take those that are free, in one round trip, and when none
        is, wait for the first one only: a batch never waits holding locks others need.
        Yields the games whose locks are held (released on leaving; not re-entrant: the
        writer holds one set at a time), or None without PostgreSQL (SQLite's file lock
        serializes writers)."""
        if not is_postgres(self.env):
            yield None
            return
        import psycopg  # only with PostgreSQL

        by_key: dict[int, list[str]] = {}
        for game_id in game_ids:
            by_key.setdefault(lock_key(game_id), []).append(game_id)
        keys = sorted(by_key)
        try:
            connection = self._lock_session()
            if wait or len(keys) == 1:  # one lock: trying first would only cost a round trip
                # Volatile functions are evaluated after the sort: in key order.
                connection.execute(
                    "SELECT pg_advisory_lock(%s, k) FROM unnest(%s::int4[]) AS k ORDER BY k",
                    (WRITE_LOCK, keys),
                )
                taken = keys
            else:
                rows = connection.execute(
                    "SELECT k FROM unnest(%s::int4[]) AS k WHERE pg_try_advisory_lock(%s, k)",
                    (keys, WRITE_LOCK),
                ).fetchall()
                taken = [row[0] for row in rows]
                if not taken:
                    connection.execute("SELECT pg_advisory_lock(%s, %s)", (WRITE_LOCK, keys[0]))
                    taken = keys[:1]
        except psycopg.Error:
            self._drop_lock_connection()  # closing the session releases any it took
            raise StoreBusy() from None
        try:
            yield {game_id for key in taken for game_id in by_key[key]}
        finally:
            try:
                connection.execute("SELECT pg_advisory_unlock_all()")
            except psycopg.Error:
                self._drop_lock_connection()  # closing the session releases the locks

    def _lock_session(self) -> Any:
        """This process's session for write locks (autocommit), opened on first use."""
        import psycopg

        if self._lock_connection is None or self._lock_connection.closed:
            self._lock_connection = psycopg.connect(
                dbname=self.env["POSTGRES_DBNAME"],
                host=self.env["POSTGRES_HOST"],
                port=self.env["POSTGRES_PORT"],
                user=self.env["POSTGRES_USER"],
                password=self.env.get("POSTGRES_PASSWORD") or None,
                connect_timeout=5,
                autocommit=True,
            )
        return self._lock_connection

    def _drop_lock_connection(self) -> None:
        connection, self._lock_connection = self._lock_connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()

    # ------------------------------------------------------------------------- reads

    def get(self, game_id: str, *, up_to_damage: bool = False) -> GameState:
        """The current full state: cached, fast-forwarded by any events other workers added.

        A stored event that cannot be read or folded raises CorruptEvent naming its seq; with
        `up_to_damage` the state just before it is returned instead (authentication needs only
        that much, so the damaged game can still be verified by its players)."""
        uuid = parse_game_id(game_id)
        state = cached = self._cache.get(game_id)
        if state is None:
            state = self._from_snapshot(uuid)
        try:
            for recorded in self._read(uuid, state.version if state else 0):
                state = fold_one(state, recorded)
        except CorruptEvent:
            if state is not None:
                self._cache.put(state)  # a true state, only not the whole game
                if up_to_damage:
                    return state
            raise
        if state is None:
            raise NotFound("game_not_found", "There is no such game.")
        if cached is not None and state.version != cached.version:
            self._seen_another_writer(game_id)
        self._cache.put(state)
        return state

    def cached(self, game_id: str) -> GameState | None:
        """The state this process last saw, possibly behind the store (no read)."""
        return self._cache.get(game_id)

    def current(self, game_id: str) -> tuple[GameState, bool]:
        """The state to decide a command on, and whether it was just read from the store.

        While no other writer has been seen appending to the game lately, that is the cached
        state, unread: an append decided on a stale one fails its version check, and the
        service checks a refusal against the store before answering it. Otherwise the state
        is fast-forwarded first."""
        if not self.is_shared(game_id):
            cached = self._cache.get(game_id)
            if cached is not None:
                return cached, False
        return self.get(game_id), True

    def is_shared(self, game_id: str) -> bool:
        """Has another writer been seen appending to this game lately?"""
        return self._shared.get(game_id, 0.0) >= time.monotonic()

    def _seen_another_writer(self, game_id: str) -> None:
        self._shared[game_id] = time.monotonic() + SHARED_SECONDS
        if len(self._shared) > 4 * max(len(self._cache), 256):
            now = time.monotonic()
            for stale in [g for g, until in self._shared.items() if until < now]:
                self._shared.pop(stale, None)

    def _read(self, uuid: UUID, after: int) -> Iterator[Recorded]:
        try:
            yield from read_records(self.log, uuid, after)
        except OperationalError:
            if is_postgres(self.env):
                raise StoreBusy() from None
            raise

    def exists(self, game_id: str) -> bool:
        """Is there such a game? Without reading (or decoding) its events."""
        uuid = parse_game_id(game_id)
        return game_id in self._cache or bool(self.log.recorder.select_events(uuid, limit=1))

    def records(self, game_id: str, after: int = 0, upto: int | None = None) -> Iterator[Recorded]:
        return read_records(self.log, parse_game_id(game_id), after, upto)

    def envelopes(self, game_id: str) -> list[dict[str, Any] | Unreadable]:
        """The envelopes exactly as stored, for verification; an unreadable one as (seq, why).

        Nothing is folded, so a game with a damaged event still verifies up to it."""
        if not self.exists(game_id):
            raise NotFound("game_not_found", "There is no such game.")
        envelopes: list[dict[str, Any] | Unreadable] = []
        for stored in self.log.recorder.select_events(parse_game_id(game_id)):
            try:
                # The stored state is the transcoder's plain JSON (no cipher, no compression):
                # read the record straight from it rather than through the mapper.
                envelopes.append(codec.raw_envelope(stored.state))
            except (ValueError, TypeError, KeyError, RecursionError) as error:
                envelopes.append((stored.originator_version, unreadable_reason(error)))
        return envelopes

    def answer(self, game_id: str, key: str) -> CommandAnswer | None:
        """What the command sent with this (hashed) key appended, if it was ever appended."""
        found = list(self.log.events.get(answer_id(game_id, key), limit=1))
        return found[0] if found and isinstance(found[0], CommandAnswer) else None

    # ------------------------------------------------------------------------- writes

    def add(
        self, state: GameState | None, records: list[Recorded], answer: Answer | None = None
    ) -> GameState:
        """Store `records` after `state` (None: a new game) and return the state after them.

        The records are folded first, so an event the game cannot fold is never stored.
        Raises AppendConflict when another writer took one of these seqs (or the key) first."""
        pending = self.prepare(state, records, answer)
        self.commit([pending])
        return pending.state

    def prepare(
        self, state: GameState | None, records: list[Recorded], answer: Answer | None = None
    ) -> Pending:
        """What storing `records` after `state` writes, and the state after them; nothing is
        written yet (`commit`). Raises whatever folding them raises."""
        game_id = records[0].envelope.game_id
        new_state, due = self._fold(state, records)
        uuid = parse_game_id(game_id)
        rows: list[DomainEvent] = [
            StoredRecord(
                originator_id=uuid,
                originator_version=r.seq,
                timestamp=StoredRecord.create_timestamp(),
                record=codec.encode(r),
            )
            for r in records
        ]
        if answer is not None:
            rows.append(
                CommandAnswer(
                    originator_id=answer_id(game_id, answer.key),
                    originator_version=1,
                    timestamp=CommandAnswer.create_timestamp(),
                    game_id=game_id,
                    request=answer.request,
                    first=records[0].seq,
                    last=records[-1].seq,
                )
            )
        return Pending(new_state, rows, due)

    def commit(self, pendings: list[Pending]) -> None:
        """Write what `prepare` made, all in one transaction (a whole game imported at once:
        in chunks), and remember the states after it. Raises AppendConflict when another
        writer took one of these seqs or keys first (nothing of them is then stored), StoreBusy
        when PostgreSQL gives no connection."""
        rows = [row for pending in pendings for row in pending.rows]
        games = {pending.state.game_id for pending in pendings}
        try:
            for start in range(0, len(rows), PUT_CHUNK):
                self.log.events.put(rows[start : start + PUT_CHUNK])  # one transaction each
        except (IntegrityError, OperationalError) as error:
            for game_id in games:
                self._cache.pop(game_id)
            if isinstance(error, OperationalError) and is_postgres(self.env):
                raise StoreBusy() from None  # refused or no connection: not another writer
            for game_id in games:  # SQLite's lock or a unique key: another writer (of one
                self._seen_another_writer(game_id)  # of them, at least)
            raise AppendConflict(*games) from None
        for pending in pendings:
            if pending.due is not None:
                self.snapshots.submit(pending.due)
            self._cache.put(pending.state)

    def forget(self, game_id: str) -> None:
        self._cache.pop(game_id)

    @staticmethod
    def _fold(
        state: GameState | None, records: list[Recorded]
    ) -> tuple[GameState, GameState | None]:
        """The state after `records`, and the last state along the way due a snapshot (one
        per append: a whole game imported at once gets its latest)."""
        due: GameState | None = None
        for recorded in records:
            state = (
                lifecycle.initial_state(recorded)
                if state is None
                else lifecycle.evolve(state, recorded)
            )
            if recorded.seq % snapshot_interval(state) == 0:
                due = state
        assert state is not None
        return state, due

    # ------------------------------------------------------------------------- snapshots

    def _snapshot(self, state: GameState) -> None:
        """Store a snapshot of `state` (on the snapshot thread)."""
        snapshot = StateSnapshot(
            originator_id=UUID(state.game_id),
            originator_version=state.version,
            timestamp=StateSnapshot.create_timestamp(),
            state=self._snapshot_texts.text(state),
        )
        try:
            assert self.log.snapshots is not None
            self.log.snapshots.put([snapshot])
        except IntegrityError:
            pass  # another worker took the same snapshot

    def _from_snapshot(self, uuid: UUID) -> GameState | None:
        """The latest snapshot's state; None when there is none or it cannot be restored
        (a snapshot is only a shortcut: the events are folded from the start instead)."""
        assert self.log.snapshots is not None
        latest = list(self.log.snapshots.get(uuid, desc=True, limit=1))
        if not latest or not isinstance(latest[0], StateSnapshot):
            return None
        try:
            return lifecycle.restore_snapshot(json.loads(latest[0].state))
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
