"""Field shapes several commands share."""

from __future__ import annotations

from pydantic import Field

CharacterId = Field(min_length=1, max_length=40, pattern=r"^[^\s]+$")
Faces = Field(default=None, max_length=60)
Entropy = Field(default="", max_length=64)

# 即応ダイス and 緊急回避ダイス have no upper limit in the rules (「上限値は存在しない」, 2-1);
# this bound is technical only (JSON-safe, no table reaches it). One roll still holds at most
# domain.dice.MAX_DICE dice.
DICE_BOUND = 999
