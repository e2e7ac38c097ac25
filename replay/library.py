"""Histories of the games a server replays, kept warm and brought up to date on each use.

A history holds every event of its game (as text) and the folded states beside them (about
1 KiB an event in the Python heap), so what is kept is bounded by events, not by games: the least
recently replayed games are let go while the kept histories hold more than `max_events`
events (`KIROKU_REPLAY_EVENTS`); the one just used always stays, whatever its size, so a seek
in a long game stays a seek and does not read the game again.
"""

from __future__ import annotations

import threading

from domain.application.service import GameService
from domain.application.settings import DEFAULT_REPLAY_EVENTS
from domain.model.recency import RecentByEvents
from replay.history import History


class Histories:
    def __init__(self, service: GameService, max_events: int = DEFAULT_REPLAY_EVENTS) -> None:
        self.service = service
        self._histories: RecentByEvents[History] = RecentByEvents(max_events)
        self._lock = threading.Lock()

    def get(self, game_id: str) -> History:
        state = self.service.state(game_id)  # 404 for an unknown game; the current version
        with self._lock:
            history = self._histories.pop(game_id) or History()
            if history.last_seq < state.version:
                history.extend(
                    self.service.records(game_id, after=history.last_seq, upto=state.version)
                )
            self._histories.put(game_id, history, history.last_seq)
        return history

    def kept(self) -> list[str]:
        """The games whose histories are kept, the least recently replayed first."""
        with self._lock:
            return list(self._histories)
