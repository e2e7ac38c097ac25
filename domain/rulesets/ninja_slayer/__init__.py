"""ニンジャスレイヤーTRPG 2nd edition (docs/rulesets/ninja-slayer.md)."""

from __future__ import annotations

from .ruleset import NINJA_SLAYER

__all__ = ["NINJA_SLAYER"]
