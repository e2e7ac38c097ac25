"""Draw numbers for a command that may roll several times (each server draw takes the next)."""

from __future__ import annotations

from domain.game import GameState


class DrawNumbers:
    def __init__(self, game: GameState) -> None:
        self._next = game.draws + 1

    def take(self, faces: list[int] | None) -> int:
        # Manual faces use no draw, so the next server draw keeps the next number.
        number = self._next
        if faces is None:
            self._next += 1
        return number
