"""Rolling a pool: the expression is built here, evaluated by the shared dice language.

Faces come from a fair draw or, where the game's dice policy allows, from physical dice,
exactly as the lifecycle's `roll` command takes them.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from domain.commands import Roll
from domain.game import GameState
from domain.lifecycle import roll_record
from domain.lifecycle_events import RollRecord

SIX = 6


class Pool(BaseModel):
    """Where each die of a pool came from."""

    model_config = ConfigDict(frozen=True)

    stat: str | None = None
    stat_value: int = 0
    bonus: int = 0
    reaction: int = 0  # 即応ダイス
    evasion: int = 0  # 回避ダイス
    emergency: int = 0  # 緊急回避ダイス

    @property
    def size(self) -> int:
        return max(0, self.stat_value + self.bonus + self.reaction + self.evasion + self.emergency)


def roll(
    game: GameState, expression: str, faces: list[int] | None, entropy: str, number: int
) -> RollRecord:
    command = Roll(expression=expression, faces=faces, entropy=entropy)
    record, _ = roll_record(game, command, number)
    return record


def patterns(faces: tuple[int, ...] | list[int]) -> list[str]:
    """The 【】 face patterns the faces satisfy (they ignore difficulty modifiers)."""
    sixes = sum(1 for face in faces if face == SIX)
    fives_up = sum(1 for face in faces if face >= SIX - 1)
    found = []
    if sixes >= 1 and fives_up >= 2:
        found.append("【6,5+】")
    if sixes >= 2:
        found.append("【6,6】")
    if sixes >= 3:
        found.append("【6,6,6】")
    return found


def faces_of(record: RollRecord) -> tuple[int, ...]:
    return tuple(record.result["faces"])


def successes_of(record: RollRecord) -> int:
    return int(record.result.get("successes") or 0)
