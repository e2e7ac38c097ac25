"""Games in the event store: loading (cache, snapshot, fast-forward), the version-checked
append with its snapshots, and the answers remembered for Idempotency-Keys.

The application service decides; this is the one place that knows how a game is kept.
Appends are optimistic on the game's version: the store's unique (game, seq) key refuses a
second writer of the same seq, which `add` reports as `AppendConflict`.

The cache of game states is bounded (least recently used first, by the events the states
cover: `KIROKU_CACHE_EVENTS`). Snapshots are written by a background thread, so no command
waits while a big state is serialized, and a bucket of secrets at a time: each bucket is a
row of its own, written only when it changed, so a snapshot costs what changed since the last
one, not the game's size.
"""

from __future__ import annotations

import contextlib
import functools
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
    decode_row,
    pg_session,
    prepare_postgres,
    read_many,
    read_records,
    unreadable_reason,
    with_setup_retry,
)
from domain.verification import Unreadable

log = logging.getLogger(__name__)

SNAPSHOT_INTERVAL = 100
PUT_CHUNK = 1000  # events per transaction when a whole game is stored at once (imports)
# A snapshot head's schema is the state key after this prefix: code from before snapshots were
# stored by bucket takes it for a state of another schema and folds the events instead.
BUCKET_ROWS = "buckets:"
SNAPSHOT_CHUNK = 128 * 1024  # characters of bucket rows per transaction, at least one bucket
# How long the snapshot thread lets go of the interpreter after each bucket it serializes, so
# a thread waiting for it (a command) takes it then rather than after the switch interval.
SNAPSHOT_YIELD = 0.0005
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


# A bucket of secrets (the object a state holds), its key, and the version of the stored
# snapshot row that holds exactly its content.
StoredBucket = tuple[dict[int, SecretRecord], int, int]


class GameCache:
    """Game states by id, least recently used first out, bounded by the events they cover
    (a state costs memory roughly in proportion to its events). The one most recently used
    is kept whatever its size. Beside a state it keeps which stored snapshot rows hold its
    buckets of secrets (`rows`), dropped with it. Thread-safe."""

    def __init__(self, max_events: int) -> None:
        self.max_events = max_events
        self._states: OrderedDict[str, GameState] = OrderedDict()
        self._rows: dict[str, dict[int, StoredBucket]] = {}  # game → id(bucket) → its row
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
                evicted_id, evicted = self._states.popitem(last=False)
                self._events -= evicted.version
                self._rows.pop(evicted_id, None)

    def pop(self, game_id: str) -> None:
        with self._guard:
            old = self._states.pop(game_id, None)
            if old is not None:
                self._events -= old.version
            self._rows.pop(game_id, None)

    def rows(self, game_id: str) -> dict[int, StoredBucket]:
        """The stored rows known to hold buckets of the game's states, by id(bucket) (never
        changed in place: replaced by `set_rows`)."""
        return self._rows.get(game_id, {})

    def set_rows(self, game_id: str, rows: dict[int, StoredBucket]) -> None:
        """Remember these rows while the game's state is cached (not after: they hold its
        buckets)."""
        with self._guard:
            if game_id in self._states:
                self._rows[game_id] = rows


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


@functools.lru_cache(maxsize=4096)  # asked on every locked append, for few games
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
        if self._lock_connection is None or self._lock_connection.closed:
            self._lock_connection = pg_session(self.env)
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
        uuid, cached, state, rows = self._base(game_id)
        return self._catch_up(
            game_id,
            cached,
            state,
            rows,
            self._read(uuid, state.version if state else 0),
            up_to_damage,
        )

    def get_many(self, game_ids: Iterable[str]) -> dict[str, GameState | BaseException]:
        """`get` for several games, or what it raised for each, reading what other workers
        appended to all of them at once: with PostgreSQL, one query for the lot (a batch of
        games several workers write reads them all before deciding)."""
        results: dict[str, GameState | BaseException] = {}
        bases = {}
        for game_id in game_ids:
            try:
                bases[game_id] = self._base(game_id)
            except BaseException as error:
                results[game_id] = error
        afters = {uuid: state.version if state else 0 for uuid, _, state, _ in bases.values()}
        if is_postgres(self.env) and len(bases) > 1:
            try:
                found = read_many(self.log, afters)
            except OperationalError:
                raise StoreBusy() from None
            reads = {uuid: _decoded(uuid, stored) for uuid, stored in found.items()}
        else:
            reads = {uuid: self._read(uuid, after) for uuid, after in afters.items()}
        for game_id, (uuid, cached, state, rows) in bases.items():
            try:
                results[game_id] = self._catch_up(game_id, cached, state, rows, reads[uuid])
            except BaseException as error:
                results[game_id] = error
        return results

    def _base(
        self, game_id: str
    ) -> tuple[UUID, GameState | None, GameState | None, dict[int, StoredBucket]]:
        """A game's id, its cached state, and the state to fold its newer events on (the
        cached one, or its latest snapshot's, with the rows holding its buckets)."""
        uuid = parse_game_id(game_id)
        state = cached = self._cache.get(game_id)
        rows: dict[int, StoredBucket] = {}
        if state is None:
            loaded = self._load_snapshot(uuid)
            if loaded is not None:
                state, rows = loaded
        return uuid, cached, state, rows

    def _catch_up(
        self,
        game_id: str,
        cached: GameState | None,
        state: GameState | None,
        rows: dict[int, StoredBucket],
        records: Iterable[Recorded],
        up_to_damage: bool = False,
    ) -> GameState:
        try:
            for recorded in records:
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
        if rows:
            self._cache.set_rows(game_id, rows)  # the next snapshot writes only what changed
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
        """Has another writer been seen appending to this game lately? (Behind a proxy that
        hashes on the game's id, none is: the game's commands all reach this process.)"""
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

    def last_seq(self, game_id: str) -> int:
        """The seq of the game's last stored event (0: no such game, or not a game id),
        without reading (or decoding) the others."""
        try:
            uuid = parse_game_id(game_id)
        except NotFound:
            return 0
        last = self.log.recorder.select_events(uuid, desc=True, limit=1)
        return last[0].originator_version if last else 0

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
        """Store a snapshot of `state` (on the snapshot thread): each bucket of unrevealed
        secrets that no stored row holds yet as a row of its own (a few to a transaction),
        then the head, the rest of the state with the row of each bucket, in the last one.

        A bucket unchanged since the game's last snapshot (the same object, shared between
        versions) keeps its row, so a snapshot writes what changed since then, and the
        interpreter can switch threads between buckets. A row is never written over: the
        same state gives the same rows, whichever worker writes them."""
        assert self.log.snapshots is not None
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
                    self._put_snapshot_rows(chunk)
                    chunk, size = [], 0
                time.sleep(SNAPSHOT_YIELD)
            listing.append((key, version))
            rows[id(bucket)] = (bucket, key, version)
        head = lifecycle.snapshot_of(state.model_copy(update={"unrevealed": SeqMap()}))
        head.pop("unrevealed", None)
        head["schema"] = BUCKET_ROWS + head["schema"]
        head["buckets"] = listing
        chunk.append(_snapshot_row(game, state.version, codec.dumps(head)))
        self._put_snapshot_rows(chunk)
        self._cache.set_rows(state.game_id, rows)

    def _put_snapshot_rows(self, rows: list[DomainEvent]) -> None:
        assert self.log.snapshots is not None
        try:
            self.log.snapshots.put(rows)
        except IntegrityError:  # another worker wrote some of them: the same rows
            for row in rows:
                with contextlib.suppress(IntegrityError):
                    self.log.snapshots.put([row])

    def _from_snapshot(self, uuid: UUID) -> GameState | None:
        """The latest snapshot's state; None when there is none or it cannot be restored
        (a snapshot is only a shortcut: the events are folded from the start instead)."""
        loaded = self._load_snapshot(uuid)
        return loaded[0] if loaded is not None else None

    def _load_snapshot(self, uuid: UUID) -> tuple[GameState, dict[int, StoredBucket]] | None:
        """The latest snapshot's state and the rows that hold its buckets; None when there
        is none or it cannot be restored. A snapshot stored whole (before snapshots were
        stored by bucket) is read as it is."""
        assert self.log.snapshots is not None
        latest = list(self.log.snapshots.get(uuid, desc=True, limit=1))
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
        """The secrets a snapshot stored as bucket `key` at `version` (KeyError if missing,
        ValueError if not secrets). Parsed by `json.loads`, which shares the strings of
        repeated keys across the row's secrets (validating the text directly is faster but
        keeps a copy of every key: +40% memory for a cached state's secrets)."""
        assert self.log.snapshots is not None
        found = list(
            self.log.snapshots.get(bucket_row_id(game, key), gt=version - 1, lte=version, limit=1)
        )
        if not found or not isinstance(found[0], StateSnapshot):
            raise KeyError(f"no row of bucket {key} at {version}")
        return _SECRETS.validate_python(json.loads(found[0].state))


def _decoded(game: UUID, rows: list[tuple[int, bytes]]) -> Iterator[Recorded]:
    for seq, raw in rows:
        yield decode_row(game, seq, raw)


def bucket_row_id(game: UUID, key: int) -> UUID:
    """The id under which a game's snapshots store bucket `key` of its unrevealed secrets
    (one row a version in which it changed)."""
    return uuid5(game, f"unrevealed {key}")


def _snapshot_row(originator: UUID, version: int, text: str) -> StateSnapshot:
    return StateSnapshot(
        originator_id=originator,
        originator_version=version,
        timestamp=StateSnapshot.create_timestamp(),
        state=text,
    )
