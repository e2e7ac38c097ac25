"""Pools and the face patterns the rules read off a roll.

A pool's dice are rolled by the table's dice (domain/table.py): a fair draw or, where the
game's dice policy allows, physical faces, exactly as the lifecycle's `roll` command takes them.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

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


def patterns(faces: Sequence[int]) -> list[str]:
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
