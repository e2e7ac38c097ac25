"""ニンジャスレイヤーTRPG 2nd edition (docs/rulesets/ninja-slayer/index.md).

Importing the package loads every module that declares on NINJA_SLAYER, then completes it.
"""

from __future__ import annotations

from . import (  # noqa: F401  (each module declares its commands or events)
    abilities,
    atmosphere,
    attacks,
    campaign,
    characters,
    combat_events,
    danmaku,
    equipment,
    evasion,
    events,
    flow,
    forms,
    glance,
    growth,
    hazards,
    injuries,
    kaishaku,
    movement,
    placement,
    table_rolls,
    view,
)
from .rules import NINJA_SLAYER

NINJA_SLAYER.complete(
    order=(
        characters,
        flow,
        movement,
        attacks,
        evasion,
        hazards,
        abilities,
        equipment,
        table_rolls,
        atmosphere,
        placement,
        campaign,
        injuries,
        growth,
        kaishaku,
        danmaku,
    )
)

__all__ = ["NINJA_SLAYER"]
