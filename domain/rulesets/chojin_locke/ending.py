"""4.2: how the game ends — the ruleset's GameOver, then the lifecycle's end with every secret
revealed (as the lifecycle's own `end` does)."""

from __future__ import annotations

from domain.model.records import Draft
from domain.rulesets.chojin_locke.rules import ChojinTable
from domain.rulesets.chojin_locke.turn_events import GameOver
from domain.rulesets.chojin_locke.words import ENDINGS


def end_game(t: ChojinTable, over: GameOver) -> list[Draft]:
    return [Draft(over), *t.end(f"超人ロック: {ENDINGS[over.reason]}")]
