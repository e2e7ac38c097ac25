"""A unit's sheet (機体): numbers, weapons and powers, as the table enters them.

The seed gives no catalogue (seed notes §2.19): level, abilities, 習熟ボーナス, defences, hp,
回復力, 回復力値, 耐久力基本値, speed and size are sheet data. Powers are structured records
shaped like the seed's only two (L60–80). Every unit has both basic attacks (L58): 「全ての機体は
いわゆる「素殴り」である近接基礎攻撃と遠隔基礎攻撃という2つの攻撃パワーを持っている」, 1W and
2W from level 14.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from domain.model.messages import N_, Invalid

from .effects import Effect

Frequency = Literal["無限回", "遭遇毎", "1日毎"]
ActionType = Literal[
    "標準", "移動", "マイナー", "フリー", "機会", "即応・割込", "即応・対応", "アクション不要"
]
RangeKind = Literal["近接", "遠隔", "近接範囲", "遠隔範囲", "自身"]
Size = Literal["S", "M", "L", "LL"]
AreaShape = Literal["爆発", "噴射", "直線"]
ForcedKind = Literal["押しやる", "引き寄せる", "横滑り"]

POWER = "出力"
AGILITY = "敏捷力"
AC = "AC"
MELEE_BASIC = "近接基礎攻撃"
RANGED_BASIC = "遠隔基礎攻撃"
SPIRIT = "精神コマンド"
MODE = "モード"
WEAPON: Literal["武器"] = "武器"
ARMAMENT: Literal["特殊武装"] = "特殊武装"
TWO_W_LEVEL = 14  # 「レベル14 2W+【出力】ダメージ」 (L69, L80)

DiceText = Field(pattern=r"^[1-9][0-9]?[dD][1-9][0-9]{0,2}$", description="e.g. 1d8")
_DICE = re.compile(r"^(\d+)[dD](\d+)$")


def dice_of(text: str) -> tuple[int, int]:
    """(count, sides) of a sheet's dice text such as 1d8."""
    found = _DICE.match(text)
    assert found is not None, text  # the models' pattern admitted it
    return int(found.group(1)), int(found.group(2))


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Weapon(Frozen):
    """A weapon or special armament: its die is W (L282–283, ビームサーベル 1d8)."""

    name: str = Field(min_length=1, max_length=60)
    kind: Literal["武器", "特殊武装"] = WEAPON
    die: str = DiceText
    accuracy: int = Field(default=0, ge=-10, le=20, description="命中補正 (武器 only, L272)")
    enhancement: int = Field(default=0, ge=0, le=20, description="強化ボーナス")
    range: int | None = Field(
        default=None, ge=1, le=99, description="射程 of a ranged weapon (遠隔・武器), in squares"
    )
    crit_dice: str | None = Field(
        default=None,
        pattern=r"^[1-9][0-9]?[dD][1-9][0-9]{0,2}$",
        description="クリティカル時追加ダメージダイス (rolled, L300–301)",
    )


class AttackSpec(Frozen):
    """「攻撃 【出力】対AC」: the ability added and the defence aimed at.

    Without `ability` (an NPC power with a flat bonus) the roll is 1d20 + `bonus`.
    """

    ability: str | None = Field(default=POWER, max_length=20)
    defence: str = Field(default=AC, min_length=1, max_length=20)
    bonus: int = Field(default=0, ge=-20, le=60)


class DamageSpec(Frozen):
    """「ヒット 1W+【出力】ダメージ」: W dice, other dice, ability and a flat part."""

    weapon_dice: int = Field(default=0, ge=0, le=9, description="nW")
    dice: str | None = Field(
        default=None, pattern=r"^[1-9][0-9]?[dD][1-9][0-9]{0,2}$", description="e.g. 2d6"
    )
    ability: str | None = Field(default=None, max_length=20)
    bonus: int = Field(default=0, ge=-20, le=99)


class ForcedMove(Frozen):
    """A power's forced movement (L402–410): 「Xマス押しやる」 and the like, at most X (L404)."""

    kind: ForcedKind
    squares: int = Field(ge=1, le=20)


class Heal(Frozen):
    """A healing rider: the target spends a 回復力 (if `surge`) and regains 回復力値 + amount."""

    surge: bool = True
    amount: int = Field(default=0, ge=0, le=99)


class Power(Frozen):
    name: str = Field(min_length=1, max_length=60)
    frequency: Frequency = "無限回"
    action: ActionType = "標準"
    keywords: tuple[str, ...] = Field(default=(), max_length=12)
    range: RangeKind = "近接"
    distance: int | None = Field(
        default=None,
        ge=1,
        le=99,
        description="近接X, 遠隔X, or Y of 遠隔範囲・爆発X Yマス以内 (None: 近接 1, 遠隔 weapon's)",
    )
    shape: AreaShape | None = Field(default=None, description="爆発, 噴射 or 直線 (L233–263)")
    size: int = Field(default=1, ge=1, le=20, description="X of 爆発X, 噴射X, 直線X")
    forced: ForcedMove | None = Field(default=None, description="押しやる/引き寄せる/横滑り")
    targets: int = Field(default=1, ge=0, le=20, description="most targets (area: any number)")
    attack: AttackSpec | None = None
    hit: DamageSpec | None = None
    miss_half: bool = Field(default=False, description="ミス: 半減ダメージ (L281)")
    effects: tuple[Effect, ...] = Field(default=(), max_length=6, description="on each hit")
    self_effects: tuple[Effect, ...] = Field(default=(), max_length=6, description="on the user")
    heal: Heal | None = None
    basic: bool = Field(default=False, description="usable as a basic attack (OA, coup de grace)")
    text: str = Field(default="", max_length=1000)

    @property
    def area(self) -> bool:
        """近接範囲 and 遠隔範囲 are the area attacks (L220–221)."""
        return self.range in ("近接範囲", "遠隔範囲")

    @property
    def provokes(self) -> bool:
        """Any power whose range says 遠隔 provokes, damaging or not (L252–253, L257)."""
        return self.range in ("遠隔", "遠隔範囲")

    @property
    def melee_basic(self) -> bool:
        return self.basic and self.range == "近接" and self.attack is not None

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


def basic_attacks(level: int) -> tuple[Power, Power]:
    """近接基礎攻撃 and 遠隔基礎攻撃 (L60–80): [無限回][攻撃][武器], 1 target, 2W from level 14."""
    w = 2 if level >= TWO_W_LEVEL else 1
    melee = Power(
        name=MELEE_BASIC,
        keywords=("攻撃", WEAPON),
        range="近接",
        attack=AttackSpec(ability=POWER, defence=AC),
        hit=DamageSpec(weapon_dice=w, ability=POWER),
        basic=True,
        text="最も基本的な近接攻撃",
    )
    ranged = Power(
        name=RANGED_BASIC,
        keywords=("攻撃", WEAPON),
        range="遠隔",
        attack=AttackSpec(ability=AGILITY, defence=AC),
        hit=DamageSpec(weapon_dice=w, ability=AGILITY),
        basic=True,
        text="最も基本的な遠隔攻撃",
    )
    return melee, ranged


class Sheet(Frozen):
    """What the GM keeps sealed for an NPC until it is revealed."""

    level: int = Field(ge=1, le=30)
    abilities: dict[str, int] = Field(max_length=8, description="【出力】【敏捷力】…")
    proficiency: int = Field(ge=0, le=30, description="習熟ボーナス")
    defences: dict[str, int] = Field(max_length=6, description="AC and the others, by name")
    max_hp: int = Field(ge=1, le=9999)
    surges: int = Field(default=0, ge=0, le=99, description="回復力 (count)")
    surge_value: int = Field(default=0, ge=0, le=999, description="回復力値")
    durability: int = Field(default=0, ge=0, le=999, description="耐久力基本値")
    speed: int = Field(default=5, ge=0, le=30)
    size: Size = "M"
    super_sight: int = Field(default=0, ge=0, le=30, description="超視覚X (L380)")
    weapons: tuple[Weapon, ...] = Field(default=(), max_length=10)
    powers: tuple[Power, ...] = Field(default=(), max_length=40)

    @field_validator("abilities")
    @classmethod
    def _abilities(cls, value: dict[str, int]) -> dict[str, int]:
        missing = [name for name in (POWER, AGILITY) if name not in value]
        if missing:
            raise Invalid(
                "abilities need {missing} (the basic attacks use them)", missing=", ".join(missing)
            )
        if any(not -10 <= v <= 40 for v in value.values()):
            raise Invalid("ability values are between -10 and 40")
        return value

    @field_validator("defences")
    @classmethod
    def _defences(cls, value: dict[str, int]) -> dict[str, int]:
        if AC not in value:
            raise Invalid("defences need AC (the basic attacks aim at it)")
        if any(not 0 <= v <= 99 for v in value.values()):
            raise Invalid("defence values are between 0 and 99")
        return value

    @model_validator(mode="after")
    def _names(self) -> Sheet:
        for label, names in (
            (N_("weapons"), [w.name for w in self.weapons]),
            (N_("powers"), [p.name for p in self.powers]),
        ):
            if len(set(names)) != len(names):
                raise Invalid("Two of the sheet's {label} share a name.", label=label)
        for power in self.powers:
            for spec in (power.attack, power.hit):
                ability = getattr(spec, "ability", None)
                if ability is not None and ability not in self.abilities:
                    raise Invalid(
                        "{power} uses 【{ability}】, not on the sheet",
                        power=power.name,
                        ability=ability,
                    )
        return self

    def all_powers(self) -> tuple[Power, ...]:
        """The sheet's powers and the two basic attacks (a sheet may redefine either)."""
        own = {p.name for p in self.powers}
        basics = tuple(p for p in basic_attacks(self.level) if p.name not in own)
        return (*self.powers, *basics)

    def power(self, name: str) -> Power | None:
        return next((p for p in self.all_powers() if p.name == name), None)

    def weapon(self, name: str) -> Weapon | None:
        return next((w for w in self.weapons if w.name == name), None)
