"""What a rolled check records: its pool, difficulty and roll (public, or sealed when it would
give a secret sheet away), and an attack's strikes."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from domain.model.lifecycle_events import RollRecord

from .difficulty import Modifier
from .rolls import Pool


class CheckDetail(BaseModel):
    model_config = ConfigDict(frozen=True)

    pool: Pool
    base_difficulty: str
    modifiers: tuple[Modifier, ...] = ()
    difficulty: str
    clamped: bool = False
    roll: RollRecord
    patterns: tuple[str, ...] = ()


class Strike(BaseModel):
    """One allocation of a (multi-)attack, as the table sees it."""

    model_config = ConfigDict(frozen=True)

    target: str
    hit: bool
    successes: int
    critical: str | None = None
    damage: int | None = None  # the pending damage's id, or None on a miss


class StrikeDetails(BaseModel):
    model_config = ConfigDict(frozen=True)

    pool: Pool
    strikes: tuple[CheckDetail, ...]
