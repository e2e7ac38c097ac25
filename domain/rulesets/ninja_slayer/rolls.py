"""Pools and the face patterns the rules read off a roll.

A pool's dice are rolled by the table's dice (domain/model/table.py): a fair draw or, where the
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


PATTERN_TOKEN = r"[1-6]\+?"
PATTERN = rf"^【?{PATTERN_TOKEN}(,{PATTERN_TOKEN}){{0,9}}】?$"


def tokens(pattern: str) -> list[str]:
    """「【6,5+】」 or "6,5+" → ["6", "5+"]."""
    return pattern.strip("【】").split(",")


def matches(pattern: str, faces: Sequence[int]) -> bool:
    """2-1 「【】による出目の指定」: each token takes a die of its own — 「6」 a six, 「5+」 a
    five or better — so 【6,5+】 is met by 6,6 and 【6,6】 by three sixes (「それより良い出目…
    でも条件を満たせる」), while 【4】 needs 「「4」の出目」そのもの. Difficulty never changes it
    (L10).

    Exact faces take theirs first; then the 「N+」 tokens, strictest first, each the lowest
    die that will do — which finds an assignment whenever one exists."""
    left = sorted(faces)
    wanted = tokens(pattern)
    for token in [t for t in wanted if not t.endswith("+")]:
        face = int(token)
        if face not in left:
            return False
        left.remove(face)
    for token in sorted((t for t in wanted if t.endswith("+")), reverse=True):
        floor = int(token[:-1])
        found = next((face for face in left if face >= floor), None)
        if found is None:
            return False
        left.remove(found)
    return True
