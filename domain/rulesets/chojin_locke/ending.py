"""4.2: how the game ends — the ruleset's GameOver, then the lifecycle's end with every secret
revealed (as the lifecycle's own `end` does)."""

from __future__ import annotations

from domain.game import GameState
from domain.lifecycle_events import GameEnded, Revealed
from domain.records import Draft
from domain.rulesets.chojin_locke.events import GameOver


def end_game(game: GameState, over: GameOver) -> list[Draft]:
    reveals = [
        Draft(Revealed(of_seq=seq, salt=secret.salt, body=secret.body))
        for seq, secret in sorted(game.unrevealed.items())
    ]
    return [Draft(over), Draft(GameEnded(summary=f"超人ロック: {over.reason}")), *reveals]
