"""What a server keeps of the games it has read, bounded by their events: the game cache
(domain/adapters/cache.py), the replay's warm histories (replay/library.py) and the views'
folded states (projections/runner.py) all keep the most recently used games and let go of the
least recent while what they hold covers more events than their bound — the one used last
always stays, whatever its size, so a long game is not read again at every use."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Generic, TypeVar

V = TypeVar("V")


class RecentByEvents(Generic[V]):
    """Values by game id, the least recently used first out while their events exceed
    `max_events`. Each value is counted at the size it was `put` with (a history grows in
    place; it is put again when it has). Not locked: its owner holds its own lock."""

    def __init__(self, max_events: int) -> None:
        self.max_events = max_events
        self._kept: OrderedDict[str, tuple[V, int]] = OrderedDict()  # least recent first
        self._events = 0

    @property
    def events(self) -> int:
        """The events the kept values cover."""
        return self._events

    def get(self, game_id: str) -> V | None:
        """The value kept for the game, now the most recently used; None if none is."""
        kept = self._kept.get(game_id)
        if kept is None:
            return None
        self._kept.move_to_end(game_id)
        return kept[0]

    def put(self, game_id: str, value: V, events: int) -> list[str]:
        """Keep `value` (covering `events`) as the most recently used; the games let go to
        stay within the bound, least recent first."""
        self.pop(game_id)
        self._kept[game_id] = (value, events)
        self._events += events
        let_go: list[str] = []
        while self._events > self.max_events and len(self._kept) > 1:
            dropped, (_, size) = self._kept.popitem(last=False)
            self._events -= size
            let_go.append(dropped)
        return let_go

    def pop(self, game_id: str) -> V | None:
        kept = self._kept.pop(game_id, None)
        if kept is None:
            return None
        self._events -= kept[1]
        return kept[0]

    def clear(self) -> None:
        self._kept.clear()
        self._events = 0

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._kept

    def __len__(self) -> int:
        return len(self._kept)

    def __iter__(self) -> Iterator[str]:
        """The kept games' ids, the least recently used first."""
        return iter(list(self._kept))

    def sizes(self) -> dict[str, int]:
        """The kept games' ids and the events each is counted at, least recently used first."""
        return {game_id: events for game_id, (_, events) in self._kept.items()}
