"""Games in the event store: loading (cache, snapshot, fast-forward), the version-checked
append with its snapshots, and the answers remembered for Idempotency-Keys.

The application service decides; this is the one place that knows how a game is kept.
Appends are optimistic on the game's version: the store's unique (game, seq) key refuses a
second writer of the same seq, which `add` reports as `AppendConflict`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import DomainEvent
from eventsourcing.persistence import IntegrityError, OperationalError

from domain import codec, lifecycle
from domain.errors import CorruptEvent, KirokuError, NotFound
from domain.game import GameState
from domain.records import Recorded
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


class AppendConflict(Exception):
    """Another writer stored this seq (or answered this Idempotency-Key) first."""


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
        self._cache: dict[str, GameState] = {}

    def close(self) -> None:
        self.log.close()

    # ------------------------------------------------------------------------- reads

    def get(self, game_id: str, *, up_to_damage: bool = False) -> GameState:
        """The current full state: cached, fast-forwarded by any events other workers added.

        A stored event that cannot be read or folded raises CorruptEvent naming its seq; with
        `up_to_damage` the state just before it is returned instead (authentication needs only
        that much, so the damaged game can still be verified by its players)."""
        uuid = parse_game_id(game_id)
        state = self._cache.get(game_id)
        if state is None:
            state = self._from_snapshot(uuid)
        try:
            for recorded in read_records(self.log, uuid, state.version if state else 0):
                state = fold_one(state, recorded)
        except CorruptEvent:
            if state is not None:
                self._cache[game_id] = state  # a true state, only not the whole game
                if up_to_damage:
                    return state
            raise
        if state is None:
            raise NotFound("game_not_found", "There is no such game.")
        self._cache[game_id] = state
        return state

    def cached(self, game_id: str) -> GameState | None:
        """The state this process last saw, possibly behind the store (no read)."""
        return self._cache.get(game_id)

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
        game_id = records[0].envelope.game_id
        new_state, due = self._fold(state, records)
        extra: list[DomainEvent] = []
        if answer is not None:
            extra.append(
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
        try:
            for start in range(0, len(records), PUT_CHUNK):
                self._put(records[start : start + PUT_CHUNK], extra if start == 0 else [])
        except (IntegrityError, OperationalError):
            self._cache.pop(game_id, None)
            raise AppendConflict(game_id) from None
        for snapshot in due:
            self._snapshot(snapshot)
        self._cache[game_id] = new_state
        return new_state

    def forget(self, game_id: str) -> None:
        self._cache.pop(game_id, None)

    def _put(self, records: list[Recorded], extra: list[DomainEvent]) -> None:
        uuid = parse_game_id(records[0].envelope.game_id)
        events: list[DomainEvent] = [
            StoredRecord(
                originator_id=uuid,
                originator_version=r.seq,
                timestamp=StoredRecord.create_timestamp(),
                record=codec.encode(r),
            )
            for r in records
        ]
        self.log.events.put([*events, *extra])  # one transaction

    @staticmethod
    def _fold(
        state: GameState | None, records: list[Recorded]
    ) -> tuple[GameState, list[GameState]]:
        """The state after `records`, and the states along the way that are due a snapshot."""
        due: list[GameState] = []
        for recorded in records:
            state = (
                lifecycle.initial_state(recorded)
                if state is None
                else lifecycle.evolve(state, recorded)
            )
            if recorded.seq % SNAPSHOT_INTERVAL == 0:
                due.append(state)
        assert state is not None
        return state, due

    # ------------------------------------------------------------------------- snapshots

    def _snapshot(self, state: GameState) -> None:
        snapshot = StateSnapshot(
            originator_id=UUID(state.game_id),
            originator_version=state.version,
            timestamp=StateSnapshot.create_timestamp(),
            state=codec.dumps(lifecycle.snapshot_of(state)),
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
