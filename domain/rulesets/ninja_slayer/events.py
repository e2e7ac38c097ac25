"""The ruleset's events. Unrevealed numbers travel in `secret` (sealed to the GM, and the seat
of a private PC).

Every roll's detail (pool, difficulty, faces) is in `detail` when the table may see it and in
`secret` when it would give away an NPC's stats; the outcome is public either way.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from domain.events import Event
from domain.lifecycle_events import RollRecord

from .difficulty import Modifier
from .rolls import Pool
from .sheet import Kind, Sheet
from .state import AttackKind, Damage, Phase, Status, StrikeTerms


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


class CharacterAdded(Event):
    type = "ninja_slayer.CharacterAdded"
    id: str
    name: str
    owner: str
    kind: Kind
    sheet: Sheet | None = None  # PCs: public to the table
    secret: Sheet | None = None  # NPCs (and private PCs): the GM's (and the seat's) until revealed


class CharacterAdjusted(Event):
    """The GM applies what a table or ruling decided (サツバツ table, items, stat damage)."""

    type = "ninja_slayer.CharacterAdjusted"
    character: str
    changes: dict[str, int] = {}
    status: Status | None = None
    reason: str


class CheckRolled(Event):
    type = "ninja_slayer.CheckRolled"
    character: str
    purpose: str
    stat: str | None
    success: bool
    successes: int
    reroll_of: int | None = None
    detail: CheckDetail | None = None
    secret: CheckDetail | None = None


class CombatBegan(Event):
    type = "ninja_slayer.CombatBegan"
    participants: tuple[str, ...]
    pc_tie_order: tuple[str, ...] = ()
    boss_fight: bool
    placement_order: tuple[str, ...]
    weapons: dict[str, str] = {}


class TurnStarted(Event):
    """Turn start: evasion dice are reset (first of all) and the order for this turn fixed."""

    type = "ninja_slayer.TurnStarted"
    turn: int
    order: tuple[str, ...]
    pc_tie_order: tuple[str, ...] = ()


class PhaseChanged(Event):
    type = "ninja_slayer.PhaseChanged"
    turn: int
    phase: Phase
    character: str | None = None


class WeaponSwitched(Event):
    type = "ninja_slayer.WeaponSwitched"
    character: str
    weapon: str


class ScenarioEnded(Event):
    """即応ダイス, 緊急回避ダイス, stat damage and ニンジャ第六感 are restored."""

    type = "ninja_slayer.ScenarioEnded"


class Concentrated(Event):
    type = "ninja_slayer.Concentrated"
    character: str


class Moved(Event):
    type = "ninja_slayer.Moved"
    character: str
    style: str | None = None
    success: bool | None = None  # 連続側転判定


class AttackRolled(Event):
    type = "ninja_slayer.AttackRolled"
    attacker: str
    kind: AttackKind
    weapon: str | None = None
    style: str | None = None
    terms: StrikeTerms | None = None
    strikes: tuple[Strike, ...]
    damages: tuple[Damage, ...] = ()
    detail: StrikeDetails | None = None
    secret: StrikeDetails | None = None


class OtherAction(Event):
    type = "ninja_slayer.OtherAction"
    character: str
    action: str


class EvasionRolled(Event):
    type = "ninja_slayer.EvasionRolled"
    character: str
    damages: tuple[int, ...]
    success: bool
    successes: int
    counter_against: tuple[str, ...] = ()
    detail: CheckDetail | None = None
    secret: CheckDetail | None = None


class DamageTaken(Event):
    type = "ninja_slayer.DamageTaken"
    character: str
    amount: int
    damages: tuple[int, ...] = ()
    status: Status
    unevaded_critical: str | None = None  # the サツバツ table is now rolled by the attacker


class CounterKarate(Event):
    type = "ninja_slayer.CounterKarate"
    character: str
    target: str
    damage: Damage


class AdrenalineBoost(Event):
    type = "ninja_slayer.AdrenalineBoost"
    character: str


class SixthSense(Event):
    type = "ninja_slayer.SixthSense"
    character: str
    of_seq: int


class StrikeRerolled(Event):
    """ニンジャ第六感 on one strike of an attack: its new result replaces the old one."""

    type = "ninja_slayer.StrikeRerolled"
    attacker: str
    of_seq: int
    index: int
    strike: Strike
    replaces: int | None = None  # the pending damage the old result dealt
    damage: Damage | None = None
    detail: CheckDetail | None = None
    secret: CheckDetail | None = None


class AtmosphereRaised(Event):
    type = "ninja_slayer.AtmosphereRaised"
    turn: int
    level: int


class WasshoiRolled(Event):
    type = "ninja_slayer.WasshoiRolled"
    target: int
    highest: str | None
    success: bool
    roll: RollRecord


class CombatEnded(Event):
    type = "ninja_slayer.CombatEnded"
    revived: tuple[str, ...] = ()
