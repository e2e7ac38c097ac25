"""Histories of the games a server replays, kept warm and brought up to date on each use."""

from __future__ import annotations

import threading
from collections import OrderedDict

from domain.application.service import GameService
from replay.history import History

KEEP = 16  # games whose checkpoints stay in memory


class Histories:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self._histories: OrderedDict[str, History] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> History:
        state = self.service.state(game_id)  # 404 for an unknown game; the current version
        with self._lock:
            history = self._histories.pop(game_id, None) or History()
            if history.last_seq < state.version:
                history.extend(
                    self.service.records(game_id, after=history.last_seq, upto=state.version)
                )
            self._histories[game_id] = history
            while len(self._histories) > KEEP:
                self._histories.popitem(last=False)
        return history
