"""Games in the event store: loading (cache, snapshot, fast-forward), the version-checked
append, and the answers remembered for Idempotency-Keys. The writer decides; this knows how a
game is kept, with the cache, snapshots and write locks beside it. The store's unique
(game, seq) key refuses a second writer of the same seq: `AppendConflict`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import IntegrityError, OperationalError

from domain.adapters.cache import GameCache, StoredBucket
from domain.adapters.locks import WriteLocks
from domain.adapters.snapshots import Snapshots, snapshot_interval
from domain.adapters.store import (
    CommandAnswer,
    EventLog,
    StoreBusy,
    StoredRecord,
    decode_row,
    is_postgres,
    parse_game_id,
    prepare_postgres,
    read_many,
    read_records,
    unreadable_reason,
    with_setup_retry,
)
from domain.model import codec, lifecycle
from domain.model.errors import CorruptEvent, NotFound
from domain.model.game import GameState
from domain.model.records import Recorded
from domain.model.verification import Unreadable

__all__ = ["AppendConflict", "GameRepository", "StoreBusy", "parse_game_id"]

log = logging.getLogger(__name__)

PUT_CHUNK = 1000  # events per transaction when a whole game is stored at once (imports)
_ANSWERS = UUID("6f1c7a52-5b1e-4f0e-9a55-3d2d3c6b7a10")  # namespace of CommandAnswer ids
# How long after another writer was seen appending to a game this process reads it before
# deciding (otherwise it decides on its cached state: see `current`).
SHARED_SECONDS = 30.0


class AppendConflict(Exception):
    """Another writer stored this seq (or answered this Idempotency-Key) first."""


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


def answer_id(game_id: str, key: str) -> UUID:
    return uuid5(_ANSWERS, f"{game_id}\n{key}")


def _evolve(state: GameState | None, recorded: Recorded) -> GameState:
    return lifecycle.initial_state(recorded) if state is None else lifecycle.evolve(state, recorded)


def fold_one(state: GameState | None, recorded: Recorded) -> GameState:
    """`state` after a stored event; an event that cannot be folded is reported as damaged at
    its seq (it was folded once before it was stored, so the store must have changed)."""
    try:
        return _evolve(state, recorded)
    except Exception as error:
        log.exception(
            "event %s of game %s cannot be folded", recorded.seq, recorded.envelope.game_id
        )
        raise CorruptEvent(recorded.seq, f"it cannot be applied ({type(error).__name__})") from None


class GameRepository:
    def __init__(
        self, env: dict[str, str], log: EventLog, cache: GameCache, locks: WriteLocks
    ) -> None:
        self.env = env  # the store's settings (eventsourcing's)
        self.log = log
        self.cache = cache
        self._shared: dict[str, float] = {}  # game → until when another writer is assumed
        assert log.snapshots is not None
        self.snapshots = Snapshots(log.snapshots, cache)
        self.locks = locks
        self.write_lock = locks.hold

    @classmethod
    def open(cls, env: dict[str, str], cache_events: int) -> GameRepository:
        prepare_postgres(env)
        log = with_setup_retry(lambda: EventLog(env=env))
        return cls(env, log, GameCache(cache_events), WriteLocks(env))

    def close(self) -> None:
        self.snapshots.close()
        self.locks.close()
        self.log.close()

    # ------------------------------------------------------------------------- reads

    def get(self, game_id: str, *, up_to_damage: bool = False) -> GameState:
        """The current full state: cached, fast-forwarded by any events other workers added.

        A stored event that cannot be read or folded raises CorruptEvent naming its seq; with
        `up_to_damage` the state just before it is returned instead (authentication needs only
        that much, so the damaged game can still be verified by its players)."""
        uuid, cached, state, rows = self._base(game_id)
        records = self._read(uuid, state.version if state else 0)
        return self._catch_up(game_id, cached, state, rows, records, up_to_damage)

    def get_many(self, game_ids: Iterable[str]) -> dict[str, GameState | BaseException]:
        """`get` for several games, or what it raised for each, reading what other workers
        appended to all of them at once (PostgreSQL: one query for the lot)."""
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
            reads: dict[UUID, Iterable[Recorded]] = {
                uuid: _decoded(uuid, stored) for uuid, stored in found.items()
            }
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
        state = cached = self.cache.get(game_id)
        rows: dict[int, StoredBucket] = {}
        if state is None:
            loaded = self.snapshots.load(uuid)
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
                self.cache.put(state)  # a true state, only not the whole game
                if up_to_damage:
                    return state
            raise
        if state is None:
            raise NotFound("game_not_found", "There is no such game.")
        if cached is not None and state.version != cached.version:
            self._seen_another_writer(game_id)
        self.cache.put(state)
        if rows:
            self.cache.set_rows(game_id, rows)  # the next snapshot writes only what changed
        return state

    def cached(self, game_id: str) -> GameState | None:
        """The state this process last saw, possibly behind the store (no read)."""
        return self.cache.get(game_id)

    def current(self, game_id: str) -> tuple[GameState, bool]:
        """The state to decide a command on, and whether it was just read from the store: the
        cached one, unread, while no other writer was seen on the game lately (an append on a
        stale state fails its version check; the writer checks a refusal on the store)."""
        if not self.is_shared(game_id):
            cached = self.cache.get(game_id)
            if cached is not None:
                return cached, False
        return self.get(game_id), True

    def is_shared(self, game_id: str) -> bool:
        """Has another writer been seen appending to this game lately?"""
        return self._shared.get(game_id, 0.0) >= time.monotonic()

    def _seen_another_writer(self, game_id: str) -> None:
        self._shared[game_id] = time.monotonic() + SHARED_SECONDS
        if len(self._shared) > 4 * max(len(self.cache), 256):
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
        return game_id in self.cache or bool(self.log.recorder.select_events(uuid, limit=1))

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

    def add(self, state: GameState | None, records: list[Recorded]) -> GameState:
        """Store `records` after `state` (None: a new game): `prepare`, then `commit`."""
        pending = self.prepare(state, records)
        self.commit([pending])
        return pending.state

    def prepare(
        self, state: GameState | None, records: list[Recorded], answer: Answer | None = None
    ) -> Pending:
        """What storing `records` after `state` writes, and the state after them; nothing is
        written yet (`commit`). Raises whatever folding them raises: an event the game cannot
        fold is never stored. `due`: the last state along the way due a snapshot."""
        game_id = records[0].envelope.game_id
        due: GameState | None = None
        new_state = state
        for recorded in records:
            new_state = _evolve(new_state, recorded)
            if recorded.seq % snapshot_interval(new_state) == 0:
                due = new_state
        assert new_state is not None
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
                self.cache.pop(game_id)
            if isinstance(error, OperationalError) and is_postgres(self.env):
                raise StoreBusy() from None  # refused or no connection: not another writer
            for game_id in games:  # SQLite's lock or a unique key: another writer (of one
                self._seen_another_writer(game_id)  # of them, at least)
            raise AppendConflict(*games) from None
        for pending in pendings:
            if pending.due is not None:
                self.snapshots.submit(pending.due)
            self.cache.put(pending.state)

    def forget(self, game_id: str) -> None:
        self.cache.pop(game_id)


def _decoded(game: UUID, rows: list[tuple[int, bytes]]) -> Iterator[Recorded]:
    for seq, raw in rows:  # lazily: a damaged row is its own game's error
        yield decode_row(game, seq, raw)
