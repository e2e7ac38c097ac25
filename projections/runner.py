"""Keep the views current: read the application sequence after the tracked position, fold,
and save views with the new position in one transaction. Rebuild drops and folds from zero.

Catching up is cheap when nothing is new (two indexed reads), so `view()` catches up first:
a caller always sees at least its own last write. Several workers may catch up at once; the
tracking row lets exactly one commit a given position, the others reload what it wrote.

A stored event that cannot be read or folded stops only its own game: the game is marked
faulty at that seq (its views dropped, its later events skipped) and every other game goes on.
Its `/view` then names the damaged seq; `kiroku projections rebuild --game ID` tries again once
the store is repaired.
"""

from __future__ import annotations

import gc
import json
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from eventsourcing.persistence import IntegrityError, Tracking

from domain.model.errors import CorruptEvent, NotFound
from domain.model.lifecycle import restore_state
from domain.model.recency import RecentByEvents
from domain.model.records import Recorded
from projections.store import Faults, Rows, States, ViewStore
from projections.views import (
    PROJECTION_STATE,
    AudienceView,
    ProjectionState,
    fold,
    projection_key,
    render_all,
)

log = logging.getLogger(__name__)

BATCH = 10_000  # events folded between saves: each save renders and writes every changed game
# Folded states kept in memory between batches, bounded by the events they cover (a state
# holds every sealed body of its game); one not kept is read back from the view store. Without
# a bound, every game this process ever folded stayed in its memory.
KEEP_EVENTS = 100_000


class EventFeed(Protocol):
    """What the runner reads of the event store (domain/adapters/store.py's EventLog)."""

    name: str

    def appended_since(
        self, position: int, limit: int
    ) -> list[tuple[int, str, Recorded | CorruptEvent]]: ...

    def game_records(self, game_id: str, upto: int | None = None) -> Iterator[Recorded]: ...


class ViewRunner:
    def __init__(self, log: EventFeed, store: ViewStore) -> None:
        self.log = log
        self.store = store
        self._states: RecentByEvents[ProjectionState] = RecentByEvents(KEEP_EVENTS)
        self._faults: dict[str, CorruptEvent] = {}  # games stopped at a damaged event
        self._lock = threading.Lock()

    def catch_up(self) -> int:
        """Fold every event recorded since the tracked position; returns the new position."""
        with self._lock:
            position = self.store.max_tracking_id(self.log.name) or 0
            while True:
                with _cycle_collector_paused():
                    done, position = self._batch(position)
                if done:
                    return position

    def _batch(self, position: int) -> tuple[bool, int]:
        """Fold and save the next batch after `position`: (nothing left, the new position)."""
        appended = self.log.appended_since(position, BATCH)
        if not appended:
            return True, position
        changed: dict[str, ProjectionState] = {}
        faults: dict[str, CorruptEvent] = {}
        for _, game_id, recorded in appended:
            if game_id in faults or (game_id not in changed and self._fault(game_id)):
                continue  # stopped at an earlier event: nothing after it can be folded
            try:
                if isinstance(recorded, CorruptEvent):
                    raise recorded
                state = changed.get(game_id) or self._load(game_id, before=recorded.seq)
                changed[game_id] = _fold(state, recorded)
            except CorruptEvent as error:
                log.error("game %s: %s", game_id, error.message)
                faults[game_id] = error
                changed.pop(game_id, None)
        last = appended[-1][0]
        try:
            self._save(changed, Tracking(self.log.name, last), faults)
        except IntegrityError:
            # Another worker saved this position first; take its views instead.
            self._states.clear()
            self._faults.clear()
            return False, self.store.max_tracking_id(self.log.name) or 0
        self._keep(changed)
        self._faults.update(faults)
        for game_id in faults:
            self._states.pop(game_id)
        return False, last

    def _keep(self, states: dict[str, ProjectionState]) -> None:
        """Keep `states` as the most recent, and let go of the least recent beyond KEEP_EVENTS
        (the latest kept whatever its size)."""
        for game_id, state in states.items():
            self._states.put(game_id, state, state.game.version)

    def view(self, game_id: str, audience: str) -> AudienceView:
        self.catch_up()
        data = self.store.view(game_id, audience)
        if data is None:
            fault = self._fault(game_id)
            if fault is not None:
                raise fault
            raise NotFound("game_not_found", "There is no such game.")
        return AudienceView.model_validate(data)

    def rebuild(self, game_id: str | None = None) -> int:
        """Drop views (all, or one game's) and fold them again from the log."""
        with self._lock:
            self._states.clear()
            self._faults.clear()
            self.store.drop(game_id)
        if game_id is None:
            return self.catch_up()
        with self._lock:
            state: ProjectionState | None = None
            try:
                for recorded in self.log.game_records(game_id):
                    state = _fold(state, recorded)
            except CorruptEvent as error:
                self._save({}, None, {game_id: error})
                self._faults[game_id] = error
                raise
            if state is None:
                raise NotFound("game_not_found", "There is no such game.")
            # The tracked position stays: folding is idempotent by seq, so events past it that
            # this fold already includes are skipped when catching up.
            self._save({game_id: state}, None)
            self._keep({game_id: state})
            return self.store.max_tracking_id(self.log.name) or 0

    def _load(self, game_id: str, before: int) -> ProjectionState | None:
        """The game's folded state as stored, to fold event `before` onto. One stored under
        another projection key (older code) is dropped and folded again from the log."""
        state = self._states.get(game_id)
        if state is not None:
            return state
        raw = self.store.state(game_id)
        if raw is None:
            return None
        state = _restore(raw)
        if state is None:
            for recorded in self.log.game_records(game_id, upto=before - 1):
                state = fold(state, recorded)
        return state

    @property
    def kept(self) -> dict[str, int]:
        """The games whose folded states this runner keeps in memory, and their events."""
        return self._states.sizes()

    @property
    def damaged(self) -> dict[str, CorruptEvent]:
        """The games this runner found (or was told) stopped at a damaged event."""
        return dict(self._faults)

    def _fault(self, game_id: str) -> CorruptEvent | None:
        """Is this game stopped at a damaged event? Asked of the store only for a game this
        runner holds no state for (another worker may have found the damage)."""
        fault = self._faults.get(game_id)
        if fault is None and game_id not in self._states:
            found = self.store.fault(game_id)
            if found is not None:
                fault = self._faults[game_id] = CorruptEvent(*found)
        return fault

    def _save(
        self,
        states: dict[str, ProjectionState],
        tracking: Tracking | None,
        faults: dict[str, CorruptEvent] | None = None,
    ) -> None:
        views: Rows = []
        rows: States = []
        for game_id, state in states.items():
            for audience, view in render_all(state).items():
                views.append((game_id, audience, view.seq, view.model_dump_json()))
            rows.append((game_id, state.game.version, _dump(state)))
        damaged: Faults = [(g, e.seq, e.why) for g, e in (faults or {}).items()]
        self.store.save(views, rows, tracking, damaged)


@contextmanager
def _cycle_collector_paused() -> Iterator[None]:
    """A batch makes and drops many small objects, all freed by reference counting; in a server
    whose heap holds many games, the cycle collector's repeated passes over that heap cost as
    much as the fold. Paused for one batch (at most BATCH events), then enabled as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _fold(state: ProjectionState | None, recorded: Recorded) -> ProjectionState:
    """`fold`, with an event that cannot be folded reported as damaged at its seq."""
    try:
        return fold(state, recorded)
    except Exception as error:
        log.exception(
            "event %s of game %s cannot be folded", recorded.seq, recorded.envelope.game_id
        )
        raise CorruptEvent(recorded.seq, f"it cannot be applied ({type(error).__name__})") from None


def _dump(state: ProjectionState) -> str:
    key = projection_key(state.game.ruleset)
    return f'{{"schema":"{key}","state":{PROJECTION_STATE.dump_json(state).decode()}}}'


def _restore(raw: str) -> ProjectionState | None:
    """The stored projection state, or None when it was stored under another key."""
    stored = json.loads(raw)
    data = stored.get("state")
    if not isinstance(data, dict) or stored.get("schema") != projection_key(
        data["game"]["ruleset"]
    ):
        return None
    game = restore_state(data.pop("game"))
    return PROJECTION_STATE.validate_python({**data, "game": game})
