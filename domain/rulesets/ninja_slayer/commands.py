"""The ruleset's commands (HTTP `type`: `ninja_slayer.<name>`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.commands import Command

from .difficulty import Modifier
from .sheet import Kind, Sheet, StatName
from .state import Status

CharacterId = Field(min_length=1, max_length=40, pattern=r"^[^\s]+$")
Faces = Field(default=None, max_length=60)
Entropy = Field(default="", max_length=64)


class AddCharacter(Command):
    """A PC (owned by a seat; a seat may add its own) or an NPC (GM; sheet sealed to the GM)."""

    type: Literal["ninja_slayer.add_character"] = "ninja_slayer.add_character"
    id: str = CharacterId
    name: str = Field(min_length=1, max_length=60)
    kind: Kind = "pc"
    owner: str | None = Field(default=None, description="seat:<n> for a PC")
    sheet: Sheet


class Adjust(Command):
    """GM: change a character's current values or status, with the reason (table, ruling)."""

    type: Literal["ninja_slayer.adjust"] = "ninja_slayer.adjust"
    character: str = CharacterId
    changes: dict[str, int] = Field(default_factory=dict, max_length=12)
    status: Status | None = None
    reason: str = Field(min_length=1, max_length=500)


class Check(Command):
    """A check: stat dice + bonus dice + declared 即応ダイス against a modified difficulty."""

    type: Literal["ninja_slayer.check"] = "ninja_slayer.check"
    character: str = CharacterId
    stat: StatName | None = Field(default=None, description="None: fixed dice (bonus only)")
    difficulty: str = "N"
    modifiers: list[Modifier] = Field(default_factory=list, max_length=12)
    bonus_dice: int = Field(default=0, ge=-20, le=20)
    reaction_dice: int = Field(default=0, ge=0, le=20)
    purpose: Literal["check", "resistance", "opposed", "table", "damage"] = "check"
    faces: list[int] | None = Faces
    entropy: str = Entropy


class BeginCombat(Command):
    """GM: start a combat sequence; PC ties are settled here once and kept."""

    type: Literal["ninja_slayer.begin_combat"] = "ninja_slayer.begin_combat"
    participants: list[str] = Field(min_length=1, max_length=40)
    pc_tie_order: list[str] = Field(default_factory=list, max_length=40)
    enemy_tie_order: list[str] = Field(default_factory=list, max_length=40)
    weapons: dict[str, str] = Field(
        default_factory=dict, max_length=40, description="Declared weapons; else 素手&スリケン"
    )


class Advance(Command):
    """Move to the next phase (the acting character's owner, or the GM)."""

    type: Literal["ninja_slayer.advance"] = "ninja_slayer.advance"


class Concentrate(Command):
    """手番開始: enter 集中状態 (skip movement; attack-phase actions −1 difficulty)."""

    type: Literal["ninja_slayer.concentrate"] = "ninja_slayer.concentrate"


class SwitchWeapon(Command):
    """手番開始: switch weapons (once until the next 手番)."""

    type: Literal["ninja_slayer.switch_weapon"] = "ninja_slayer.switch_weapon"
    weapon: str = Field(min_length=1, max_length=60)


class Move(Command):
    """移動フェイズ: normal movement, or one movement style (連続側転: ワザマエ NORMAL)."""

    type: Literal["ninja_slayer.move"] = "ninja_slayer.move"
    style: str | None = Field(default=None, max_length=40)
    reaction_dice: int = Field(default=0, ge=0, le=20)
    faces: list[int] | None = Faces
    entropy: str = Entropy


class Allocation(BaseModel):
    """One target of an attack and the dice given to it (declared before rolling)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: str = CharacterId
    dice: int | None = Field(default=None, ge=0, le=60, description="None: the whole pool")
    faces: list[int] | None = Faces


class Attack(Command):
    """攻撃フェイズ: melee (【カラテ】 攻撃判定) or ranged (【ワザマエ】 射撃判定)."""

    type: Literal["ninja_slayer.attack"] = "ninja_slayer.attack"
    kind: Literal["melee", "ranged"] = "melee"
    stat: StatName | None = Field(
        default=None, description="Default カラテ (melee) / ワザマエ (ranged); e.g. ジツ"
    )
    allocations: list[Allocation] = Field(min_length=1, max_length=9)
    modifiers: list[Modifier] = Field(default_factory=list, max_length=12)
    bonus_dice: int = Field(default=0, ge=-20, le=20)
    reaction_dice: int = Field(default=0, ge=0, le=20)
    base_damage: int = Field(default=1, ge=0, le=20)
    tsuda: list[int] = Field(default_factory=list, max_length=6, description="痛打+X sources")
    time_lag: bool = Field(default=False, description="●時間差 on a multi-shot")
    shuriken: bool = Field(default=False, description="スリケン or ジツ: ULTRA-HARD mode +1")
    evasion: str = Field(default="N", description="The weapon's 回避 difficulty (e.g. H)")
    style: str | None = Field(default=None, max_length=40, description="戦闘/射撃スタイル")
    entropy: str = Entropy


class Act(Command):
    """攻撃フェイズ: another action (ジツ, hacking, カイシャク, looting…) instead of attacking."""

    type: Literal["ninja_slayer.other_action"] = "ninja_slayer.other_action"
    action: str = Field(min_length=1, max_length=200)


class Evade(Command):
    """回避判定 against one damage, or several evaded together (まとめて全弾回避)."""

    type: Literal["ninja_slayer.evade"] = "ninja_slayer.evade"
    character: str = CharacterId
    damages: list[int] = Field(min_length=1, max_length=40)
    evasion_dice: int = Field(ge=0, le=60)
    emergency_dice: int = Field(default=0, ge=0, le=20)
    reaction_dice: int = Field(default=0, ge=0, le=20, description="always refused: rules")
    modifiers: list[Modifier] = Field(default_factory=list, max_length=12)
    faces: list[int] | None = Faces
    entropy: str = Entropy


class TakeDamage(Command):
    """Take pending damage without evading it."""

    type: Literal["ninja_slayer.take_damage"] = "ninja_slayer.take_damage"
    damages: list[int] = Field(min_length=1, max_length=40)


class Counter(Command):
    """カウンターカラテ after an evasion that earned it: 1 damage, evaded at NORMAL."""

    type: Literal["ninja_slayer.counter_karate"] = "ninja_slayer.counter_karate"
    character: str = CharacterId
    target: str = CharacterId


class Adrenaline(Command):
    """●アドレナリン・ブースト: once per combat, 1 【精神力】."""

    type: Literal["ninja_slayer.adrenaline_boost"] = "ninja_slayer.adrenaline_boost"
    character: str = CharacterId


class Reroll(Command):
    """●ニンジャ第六感: once per scenario, reroll one of your own checks."""

    type: Literal["ninja_slayer.sixth_sense"] = "ninja_slayer.sixth_sense"
    character: str = CharacterId
    check_seq: int = Field(ge=1, description="A check's or an attack's seq")
    strike: int = Field(default=0, ge=0, le=8, description="Which strike of a multi-attack")
    faces: list[int] | None = Faces
    entropy: str = Entropy


class Wasshoi(Command):
    """GM, ターン終了フェイズ: the Wasshoi! check, 2D6 ≤ the highest 【DKK】 (+ modifier)."""

    type: Literal["ninja_slayer.wasshoi"] = "ninja_slayer.wasshoi"
    modifier: int = Field(default=0, ge=-12, le=12)
    faces: list[int] | None = Faces
    entropy: str = Entropy


class NextTurn(Command):
    """GM, from ターン終了フェイズ: the next turn (enemy ties ordered by the GM each turn)."""

    type: Literal["ninja_slayer.next_turn"] = "ninja_slayer.next_turn"
    enemy_tie_order: list[str] = Field(default_factory=list, max_length=40)
    pc_tie_order: list[str] = Field(default_factory=list, max_length=40)


class EndScenario(Command):
    """GM, outside combat: the scenario ends; once-per-scenario resources come back."""

    type: Literal["ninja_slayer.end_scenario"] = "ninja_slayer.end_scenario"


class EndCombat(Command):
    """GM: the combat is over; 気絶 characters with 【精神力】 ≥ 1 revive."""

    type: Literal["ninja_slayer.end_combat"] = "ninja_slayer.end_combat"


COMMANDS: tuple[type[Command], ...] = (
    AddCharacter,
    Adjust,
    Check,
    BeginCombat,
    Advance,
    Concentrate,
    Move,
    Attack,
    Act,
    Evade,
    TakeDamage,
    Counter,
    Adrenaline,
    Reroll,
    Wasshoi,
    NextTurn,
    EndCombat,
    SwitchWeapon,
    EndScenario,
)
