"""A character's sheet as entered at the table: base stats, equipment and combat values.

The sheet never changes in play; what does (体力, dice left, stat damage) lives in Current.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .fields import DICE_BOUND

Kind = Literal["pc", "boss", "mob"]
StatName = Literal["カラテ", "ニューロン", "ワザマエ", "ジツ", "脚力"]

UNARMED = "素手&スリケン"
UNARMED_REACTION_DICE = 5  # 即応ダイスの個数: 5 for an unarmed starting ninja
SIXTH_SENSE_NEURON = 13  # ●ニンジャ第六感 needs base 【ニューロン】 13
# 2-16 自動獲得スキル: ●連続攻撃2/3 at base 【カラテ】 7/13, ●連射2/3 at base 【ワザマエ】 7/13.
AUTO_SKILL_LEVELS = ((13, 3), (7, 2))


def _auto_level(base: int) -> int:
    return next((level for at, level in AUTO_SKILL_LEVELS if base >= at), 1)


class Weapon(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    slots: int = Field(default=1, ge=0, le=5)
    rensha: int | None = Field(
        default=None, ge=1, le=9, description="A gun's own 連射 (used instead of ●連射)"
    )
    renzoku_limit: int | None = Field(
        default=None, ge=1, le=9, description="連続攻撃上限: caps ●連続攻撃 with it in hand"
    )
    rensha_limit: int | None = Field(
        default=None, ge=1, le=9, description="連射上限: caps ●連射 (スリケン…) with it in hand"
    )
    multi: Literal["なし", "マルチ可", "マルチターゲット"] | None = Field(
        default=None,
        description="Several targets: マルチ可 needs ●マルチターゲット; None: not given",
    )
    time_lag: Literal["時間差可", "時間差"] | None = Field(
        default=None, description="時間差可 needs ●時間差; 時間差 is the weapon's own"
    )


class Sheet(BaseModel):
    """What the GM keeps secret for an NPC until it is revealed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    karate: int = Field(ge=0, le=99, description="【カラテ】")
    neuron: int = Field(ge=0, le=99, description="【ニューロン】")
    wazamae: int = Field(ge=0, le=99, description="【ワザマエ】")
    jitsu: int = Field(default=0, ge=0, le=99, description="【ジツ】")
    tairyoku: int = Field(ge=1, le=99, description="【体力】 (maximum)")
    seishin: int = Field(default=0, ge=0, le=99, description="【精神力】 (maximum)")
    kyakuryoku: int = Field(default=0, ge=0, le=99, description="【脚力】")
    dkk: int = Field(default=0, ge=0, le=12, description="【DKK】 (at most 12)")
    manzatsu: int = Field(
        default=0, ge=0, le=9999, description="【万札】: a PC's money; an enemy's drop"
    )
    ninja: bool = Field(default=True, description="Only ninjas crit (サツバツ!) and explode")
    weapons: tuple[Weapon, ...] = Field(default=(), max_length=10)
    skills: tuple[str, ...] = Field(default=(), max_length=40)
    multi_attack: int = Field(
        default=1, ge=1, le=9, description="●連続攻撃X beyond the 【カラテ】 ones (連続攻撃+X…)"
    )
    multi_shot: int = Field(
        default=1, ge=1, le=9, description="●連射X beyond the 【ワザマエ】 ones (連射+X…)"
    )
    evasion: bool | None = Field(
        default=None, description="Gets 回避ダイス (PCs always; bosses with 【回避】; never mobs)"
    )
    evasion_modifier: int = Field(default=0, ge=-20, le=20)
    initiative_modifier: int = Field(default=0, ge=-20, le=20)
    reaction_dice: int | None = Field(
        default=None, ge=0, le=DICE_BOUND, description="即応ダイス; default 5 minus weapon slots"
    )
    emergency_dice: int = Field(
        default=0, ge=0, le=DICE_BOUND, description="緊急回避ダイス（上限なし）"
    )
    sokushi_resistance: bool = Field(
        default=False, description="●即死耐性: 『即死!』 becomes 『痛打+2D6』"
    )
    damage_reduction: int = Field(
        default=0, ge=0, le=20, description="ダメージ軽減: taken off each damage's final value"
    )
    strike_tsuda: int = Field(
        default=0, ge=0, le=6, description="素手: 痛打 of each melee strike hitting with a 6 (L209)"
    )
    injuries: int = Field(
        default=0, ge=0, le=20, description="●部位損傷 carried into this scenario (難易度+1/+2)"
    )

    def starting_reaction_dice(self) -> int:
        if self.reaction_dice is not None:
            return self.reaction_dice
        slots = sum(weapon.slots for weapon in self.weapons)
        return max(0, UNARMED_REACTION_DICE - slots)

    def has_evasion(self, kind: Kind) -> bool:
        if kind == "mob":
            return False  # モブ敵は回避ダイスを持たない
        if kind == "pc":
            return True
        return bool(self.evasion)

    @property
    def renzoku(self) -> int:
        """●連続攻撃X: gained at base 【カラテ】 7/13 (stat damage keeps it), or the sheet's."""
        return max(self.multi_attack, _auto_level(self.karate))

    @property
    def rensha(self) -> int:
        """●連射X: gained from base 【ワザマエ】, or the sheet's."""
        return max(self.multi_shot, _auto_level(self.wazamae))

    @property
    def sixth_sense(self) -> bool:
        return self.ninja and self.neuron >= SIXTH_SENSE_NEURON
