"""Keep the views current: read the application sequence after the tracked position, fold,
and save views with the new position in one transaction. Rebuild drops and folds from zero.

Catching up is cheap when nothing is new (two indexed reads), so `view()` catches up first:
a caller always sees at least its own last write. Several workers may catch up at once; the
tracking row lets exactly one commit a given position, the others reload what it wrote.
"""

from __future__ import annotations

import gc
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from uuid import UUID

from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.utils import get_topic

from domain import codec
from domain.errors import NotFound
from domain.lifecycle import restore_state
from domain.store import EventLog, StoredRecord, read_records
from projections.store import Rows, States, ViewStore
from projections.views import (
    PROJECTION_STATE,
    AudienceView,
    ProjectionState,
    fold,
    render_all,
)

BATCH = 10_000  # events folded between saves: each save renders and writes every changed game
_TOPIC = get_topic(StoredRecord)


class ViewRunner:
    def __init__(self, log: EventLog, store: ViewStore) -> None:
        self.log = log
        self.store = store
        self._states: dict[str, ProjectionState] = {}
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
        notifications = self.log.recorder.select_notifications(
            start=position + 1, limit=BATCH, topics=(_TOPIC,)
        )
        if not notifications:
            return True, position
        changed: dict[str, ProjectionState] = {}
        for notification in notifications:
            recorded = codec.decode_stored(notification.state)
            game_id = recorded.envelope.game_id
            state = changed.get(game_id) or self._load(game_id)
            changed[game_id] = fold(state, recorded)
        last = notifications[-1].id
        try:
            self._save(changed, Tracking(self.log.name, last))
        except IntegrityError:
            # Another worker saved this position first; take its views instead.
            self._states.clear()
            return False, self.store.max_tracking_id(self.log.name) or 0
        self._states.update(changed)
        return False, last

    def view(self, game_id: str, audience: str) -> AudienceView:
        self.catch_up()
        data = self.store.view(game_id, audience)
        if data is None:
            raise NotFound("game_not_found", "There is no such game.")
        return AudienceView.model_validate(data)

    def rebuild(self, game_id: str | None = None) -> int:
        """Drop views (all, or one game's) and fold them again from the log."""
        with self._lock:
            self._states.clear()
            self.store.drop(game_id)
        if game_id is None:
            return self.catch_up()
        with self._lock:
            state: ProjectionState | None = None
            for recorded in read_records(self.log, UUID(game_id)):
                state = fold(state, recorded)
            if state is None:
                raise NotFound("game_not_found", "There is no such game.")
            # The tracked position stays: folding is idempotent by seq, so events past it that
            # this fold already includes are skipped when catching up.
            self._save({game_id: state}, None)
            self._states[game_id] = state
            return self.store.max_tracking_id(self.log.name) or 0

    def _load(self, game_id: str) -> ProjectionState | None:
        state = self._states.get(game_id)
        if state is not None:
            return state
        raw = self.store.state(game_id)
        if raw is None:
            return None
        return _restore(raw)

    def _save(self, states: dict[str, ProjectionState], tracking: Tracking | None) -> None:
        views: Rows = []
        rows: States = []
        for game_id, state in states.items():
            for audience, view in render_all(state).items():
                views.append((game_id, audience, view.seq, view.model_dump_json()))
            rows.append((game_id, state.game.version, _dump(state)))
        self.store.save(views, rows, tracking)


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


def _dump(state: ProjectionState) -> str:
    return PROJECTION_STATE.dump_json(state).decode()


def _restore(raw: str) -> ProjectionState:
    data = json.loads(raw)
    game = restore_state(data.pop("game"))
    return PROJECTION_STATE.validate_python({**data, "game": game})
