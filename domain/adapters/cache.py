"""The cache of game states (`KIROKU_CACHE_EVENTS`)."""

from __future__ import annotations

import threading

from domain.model.game import GameState, SecretRecord
from domain.model.recency import RecentByEvents

# A bucket of secrets (the object a state holds), its key, and the version of the stored
# snapshot row that holds exactly its content.
StoredBucket = tuple[dict[int, SecretRecord], int, int]


class GameCache:
    """Game states by id, least recently used first out, bounded by the events they cover
    (a state's memory grows with them); the one used last is kept whatever its size. Beside a
    state, which stored snapshot rows hold its buckets of secrets (`rows`), dropped with it.
    Thread-safe."""

    def __init__(self, max_events: int) -> None:
        self._states: RecentByEvents[GameState] = RecentByEvents(max_events)
        self._rows: dict[str, dict[int, StoredBucket]] = {}  # game → id(bucket) → its row
        self._guard = threading.Lock()

    def get(self, game_id: str) -> GameState | None:
        with self._guard:
            return self._states.get(game_id)

    def __contains__(self, game_id: str) -> bool:
        return game_id in self._states

    def __len__(self) -> int:
        return len(self._states)

    @property
    def events(self) -> int:
        """The events the cached states cover."""
        return self._states.events

    def put(self, state: GameState) -> None:
        with self._guard:
            for let_go in self._states.put(state.game_id, state, state.version):
                self._rows.pop(let_go, None)

    def pop(self, game_id: str) -> None:
        with self._guard:
            self._states.pop(game_id)
            self._rows.pop(game_id, None)

    def rows(self, game_id: str) -> dict[int, StoredBucket]:
        """The stored rows known to hold buckets of the game's states, by id(bucket)."""
        return self._rows.get(game_id, {})

    def set_rows(self, game_id: str, rows: dict[int, StoredBucket]) -> None:
        """Remember these rows while the game's state is cached (they hold its buckets)."""
        with self._guard:
            if game_id in self._states:
                self._rows[game_id] = rows
