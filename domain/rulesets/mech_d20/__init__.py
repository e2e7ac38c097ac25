"""メカd20: the d20 mecha combat rules (docs/rulesets/mech-d20/index.md)."""

from __future__ import annotations

from . import (  # noqa: F401  (each module declares its commands, events and folds)
    attacks,
    audit,
    changes,
    damage_rolls,
    encounter,
    forced_movement,
    forms,
    glance,
    grid,
    heroes,
    movement,
    opportunity,
    powers,
    resolution,
    turns,
    units,
    view,
)
from .rules import MECH_D20

MECH_D20.complete(
    order=(
        units,
        grid,
        encounter,
        turns,
        movement,
        powers,
        opportunity,
        attacks,
        forced_movement,
        damage_rolls,
        resolution,
        heroes,
    )
)

__all__ = ["MECH_D20"]
