"""The ruleset's state: characters with their current values, and the combat in progress."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.model.messages import N_

from .criticals import CriticalRule
from .details import CheckDetail, Strike, StrikeDetails
from .sheet import UNARMED, Kind, Sheet
from .tables import Tables

Status = Literal["active", "気絶", "爆発四散", "removed"]
# How a refusal reads a status or stage (api/errors.py reads a text argument through the catalogs).
STATUS_WORDS = (N_("気絶"), N_("爆発四散"), N_("removed"))
STAGE_WORDS = (N_("ダンゴウ"), N_("本編"), N_("評価"), N_("余暇"))
# 2-2: 「シナリオは「ダンゴウ」→「シナリオ本編」→「評価」→「余暇」の単位で構成され、
# 上記の順番で進行する」
Stage = Literal["ダンゴウ", "本編", "評価", "余暇"]
STAGES: tuple[Stage, ...] = ("ダンゴウ", "本編", "評価", "余暇")
Phase = Literal["turn_start", "teban_start", "movement", "attack", "teban_end", "turn_end"]
AttackKind = Literal["melee", "ranged", "counter", "hazard"]
HazardSource = Literal["trap", "environment", "collision", "other"]

PHASE_ORDER: tuple[Phase, ...] = (
    "turn_start",
    "teban_start",
    "movement",
    "attack",
    "teban_end",
    "turn_end",
)


class Current(BaseModel):
    """Values that change in play. Stats here include stat damage (never below 1)."""

    model_config = ConfigDict(frozen=True)

    karate: int
    neuron: int
    wazamae: int
    jitsu: int
    kyakuryoku: int
    tairyoku: int
    seishin: int
    reaction: int
    evasion: int = 0
    emergency: int
    dkk: int


class Note(BaseModel):
    """One line of a sheet's history: what a logged event changed, and in which scenario."""

    model_config = ConfigDict(frozen=True)

    scenario: int
    seq: int
    text: str


class Character(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    owner: str  # "seat:<n>" for a PC, "gm" for NPCs
    kind: Kind
    added_seq: int
    revealed: bool  # NPC sheets are GM-secret until the GM reveals them
    sheet: Sheet
    now: Current
    status: Status = "active"
    sixth_sense_used: bool = False
    adrenaline_used: bool = False  # this combat
    next_attack_difficulty: int = 0  # 連続側転 makes the next attack harder
    weapon: str = UNARMED  # what a combat starts with unless declared
    injuries: Mapping[str, int] = {}  # ●部位損傷: part → ×marks this scenario (kept until treated)
    carried: tuple[str, ...] = ()  # the parts injured when this scenario began (their penalty)
    history: tuple[Note, ...] = ()  # the sheet's changes, injuries and shares, scenario by scenario

    @property
    def can_act(self) -> bool:
        return self.status == "active"

    @property
    def on_map(self) -> bool:
        return self.status in ("active", "気絶")


class Damage(BaseModel):
    """A hit not yet evaded or taken."""

    model_config = ConfigDict(frozen=True)

    id: int
    attacker: str
    target: str
    amount: int
    kind: AttackKind
    difficulty: str  # evasion difficulty label
    attack_successes: int
    critical: str | None = None  # サツバツ / ナムアミダブツ
    time_lag: bool = False  # 時間差: cannot be evaded together with others
    mobs: str | None = None  # a mob attacker's name: same-name mobs are evaded together
    attack_seq: int
    source: HazardSource | None = None  # damage that is not an attack (hazards.py)


class StrikeTerms(BaseModel):
    """What an attack declared, shared by its strikes (and by a ニンジャ第六感 reroll)."""

    model_config = ConfigDict(frozen=True)

    kind: AttackKind
    amount: int
    shuriken: bool = False
    evasion: str = "N"
    time_lag: bool = False
    tsuda: int = 0  # the 痛打 in `amount` (one 痛打 per base damage: the largest counts)
    strike_tsuda: int = 0  # 痛打 for each strike that hits with `strike_pattern` (L209)
    strike_pattern: str = "6"
    critical: CriticalRule | None = None  # a declared ability's crits (criticals.py)
    auto_success: bool = False  # a mob's attack the GM made succeed (L16)


class CriticalDue(BaseModel):
    """An unevaded サツバツ!: 「攻撃側は直ちに以下のクリティカル表で内容を決定する」."""

    model_config = ConfigDict(frozen=True)

    attacker: str
    target: str
    critical: str
    amount: int = 0  # the hit's damage (痛打+2D6 adds to it: 即死耐性)


class CounterRight(BaseModel):
    """Earned by an evasion whose successes exceeded a melee attack's."""

    model_config = ConfigDict(frozen=True)

    holder: str
    attackers: tuple[str, ...]
    evasion_seq: int


class Combat(BaseModel):
    model_config = ConfigDict(frozen=True)

    turn: int = 1
    phase: Phase = "turn_start"
    order: tuple[str, ...] = ()
    index: int = 0  # whose 手番 (into order)
    participants: tuple[str, ...] = ()
    pc_ties: tuple[tuple[str, str], ...] = ()  # (first, second): kept for the whole combat
    boss_fight: bool = False
    atmosphere: int = 0  # 0 normal, 1 HARD mode, 2 ULTRA-HARD mode
    atmosphere_at_start: int = 0  # in force since this turn's start (never lowered below)
    count_from: int = 1  # the turn the atmosphere's turn count (経過ターン数) starts at
    dkk_this_turn: int = 0  # 【DKK】 gained this turn (3 or more: Wasshoi! is offered)
    placed: bool = False  # 新たなキャラの配置 done this turn end: it is the last thing there
    wasshoi_success: bool = False  # this turn end's Wasshoi! succeeded
    criticals: tuple[CriticalDue, ...] = ()  # unevaded サツバツ! waiting for the table
    rows: tuple[CriticalDue, ...] = ()  # サツバツ! effects rolled (or カイシャク's) this phase
    entry_rolls: int = 0  # 死神のエントリー決定表 rolls since the last successful Wasshoi!
    concentrating: bool = False
    moved: bool = False
    acted: bool = False  # the one attack-phase action
    switched: bool = False  # one weapon switch per 手番
    damages: tuple[Damage, ...] = ()
    next_damage: int = 1
    counters: tuple[CounterRight, ...] = ()
    evaded_attacks: tuple[int, ...] = ()  # attack seqs an evasion was rolled against
    wasshoi_rolled: bool = False

    @property
    def actor(self) -> str | None:
        if self.phase in ("turn_start", "turn_end") or not self.order:
            return None
        return self.order[self.index]


class NinjaOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    private_pc_sheets: bool = False  # the GM's call: each PC sheet only for its seat (and GM)
    tables: Tables = Field(
        default_factory=Tables,
        description="The GM's tables (サツバツ・クリティカル表, entry table, 弾幕): the seed's "
        "text has the rules but not the tables",
    )


class CheckMemo(BaseModel):
    """What ●ニンジャ第六感 needs to roll a check again."""

    model_config = ConfigDict(frozen=True)

    character: str
    purpose: str
    stat: str | None
    detail: CheckDetail


class AttackMemo(BaseModel):
    """What ●ニンジャ第六感 needs to roll one strike of an attack again."""

    model_config = ConfigDict(frozen=True)

    attacker: str
    terms: StrikeTerms
    strikes: tuple[Strike, ...]
    details: StrikeDetails


class EvasionMemo(BaseModel):
    """What ●ニンジャ第六感 needs to roll an evasion again and undo what it applied."""

    model_config = ConfigDict(frozen=True)

    character: str
    damages: tuple[Damage, ...]
    detail: CheckDetail
    success: bool
    counter_against: tuple[str, ...] = ()
    tairyoku_before: int
    seishin_before: int = 0
    status_before: Status


class NinjaState(BaseModel):
    model_config = ConfigDict(frozen=True)

    private_pc_sheets: bool = False
    tables: Tables = Tables()
    pc_ties: tuple[tuple[str, str], ...] = ()  # settled at a combat's start: kept for the scenario
    characters: Mapping[str, Character] = {}
    checks: Mapping[int, CheckMemo] = {}  # the latest checks, by seq
    attacks: Mapping[int, AttackMemo] = {}  # this combat's attacks, by seq
    evasions: Mapping[int, EvasionMemo] = {}  # this phase's evasions, by seq
    combat: Combat | None = None
    combats: int = 0
    hazards: tuple[Damage, ...] = ()  # damage declared outside a combat, not yet evaded or taken
    next_hazard: int = 1
    scenario: int = 1
    stage: Stage = "本編"  # a game opens in its first scenario's 本編 (ruling NS-038)
    pool: int = 0  # 万札プール: drops this scenario, split at its end
    dropped: tuple[str, ...] = ()  # enemies whose 【万札】 went into the pool
    staged: bool = False  # a stage was declared: the opening's ダンゴウ is past
    wasshoi_success: bool = False  # a Wasshoi! outside a combat succeeded: he may arrive
    entry_rolls: int = 0  # 死神のエントリー決定表 rolls since that Wasshoi!
