"""半壊状態、戦闘不能、爆散 (L430–464): hp, going down, death saves, coming back.

- 半壊 at hp ≤ ½ max (L437), public (L438).
- hp ≤ 0: 戦闘不能; every harmful effect ends and the unit is 無防備 (L443–444). Enemies at
  hp ≤ 0 are out for good (L464).
- Death save at the start of the turn, a raw d20: ≤ 9 fails, 10+ succeeds, 20+ spends a 回復力
  and restores hp to 回復力値 (L445–448); three failures in one encounter: 修理不能 (L447).
- 爆散 at hp ≤ −耐久力基本値, and lower from level 5, 9, 13 and 17 (L453–454, ruling MD-004).
- Healing at hp ≤ 0 counts from 0 (L461–462); the unit comes back 伏せ (L463).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from domain.model.messages import Message

from .rounding import halved
from .state import Status, Unit

SAVE_TARGET = 10  # L446: 9以下が失敗、10以上で成功
SURGE_ROLL = 20  # L448
FAILURES_TO_WRECK = 3  # L447
EXPLOSION_STEPS = ((17, 20), (13, 15), (9, 10), (5, 5), (1, 0))  # (from level, extra)

DeathSaveOutcome = Literal["failure", "success", "recovered"]


def bloodied(hp: int, max_hp: int) -> bool:
    """L437: 最大hpの1/2以下 (for whole hp, the same as hp ≤ ⌊max/2⌋)."""
    return hp <= halved(max_hp)


def explosion_threshold(level: int, durability: int) -> int:
    """The hp at or below which the unit explodes (L453–454, ruling MD-004).

    L1–4: −B; L5: −(B+5); L9: −(B+10); L13: −(B+15); the second 「13レベル」 read as 17: −(B+20).
    """
    extra = next(extra for start, extra in EXPLOSION_STEPS if level >= start)
    return -(durability + extra)


def out(unit: Unit) -> bool:
    """Out of the fight: 修理不能 or 爆散, or an enemy at hp ≤ 0 (L447, L455, L464)."""
    return unit.status in ("修理不能", "爆散") or (unit.kind == "npc" and unit.status != "active")


class HpChange(BaseModel):
    """What a change of hp does to a unit; deciders publish it, folds apply it."""

    model_config = ConfigDict(frozen=True)

    hp: int
    status: Status
    bloodied: bool
    dropped: bool = False  # went to 戦闘不能 now: harmful effects end (L444)
    revived: bool = False  # back from 戦闘不能: 伏せ (L463)


def damaged(unit: Unit, amount: int) -> HpChange:
    hp = unit.hp - amount
    status: Status = unit.status
    dropped = False
    if unit.status == "active" and hp <= 0:
        status, dropped = "戦闘不能", True  # L443
    if status == "戦闘不能" and hp <= explosion_threshold(unit.sheet.level, unit.sheet.durability):
        status = "爆散"  # L453
    return HpChange(hp=hp, status=status, bloodied=bloodied(hp, unit.sheet.max_hp), dropped=dropped)


def healed(unit: Unit, amount: int) -> HpChange:
    """Healing counts from 0 when hp ≤ 0 (L461) and never passes max hp."""
    start = max(unit.hp, 0)
    hp = min(unit.sheet.max_hp, start + amount)
    revived = unit.status == "戦闘不能" and hp > 0
    status: Status = "active" if revived else unit.status
    return HpChange(hp=hp, status=status, bloodied=bloodied(hp, unit.sheet.max_hp), revived=revived)


def may_heal(unit: Unit) -> Message | None:
    """Why healing cannot reach the unit, or None (L447, L455, L464)."""
    if unit.status in ("修理不能", "爆散"):
        return Message(
            "{unit} is {status}: out until a new unit.", {"unit": unit.name, "status": unit.status}
        )
    if unit.kind == "npc" and unit.status != "active":
        return Message(
            "{unit} is down: enemies at hp 0 or below do not come back (L464).", {"unit": unit.name}
        )
    return None


def death_save(natural: int, surges: int) -> DeathSaveOutcome:
    """L446–448; a 20 with no 回復力 left is a plain success (ruling MD-005)."""
    if natural >= SURGE_ROLL and surges > 0:
        return "recovered"
    return "success" if natural >= SAVE_TARGET else "failure"


def wrecked(failures: int) -> bool:
    """L447: three failures in total in one encounter."""
    return failures >= FAILURES_TO_WRECK
