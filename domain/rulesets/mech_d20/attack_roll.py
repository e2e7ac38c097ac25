"""The attack roll and the defence it is compared with (L6, L272–276, L335–397).

[武器]: 1d20 + 【ability】 + the weapon's 命中補正 + 習熟ボーナス + 強化ボーナス (L272);
[特殊武装]: 1d20 + 【ability】 + 習熟ボーナス + 強化ボーナス (L274). A hit is a total ≥ the defence
(L6). A natural 20 is a critical hit (L290, L296) and always hits (ruling MD-002); a natural 1 means
nothing. Situational numbers: 伏せ target of a ranged or area attack −2 (L347, L362); an unseen
target −5, or −3 for close and area attacks (L381); 無防備 −5 to every defence (L393).
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from .bonuses import DEFENCES, Modifier, counted, for_roll, stacked
from .conditions import conditions
from .sheet import ARMAMENT, WEAPON, Power, Sheet, Weapon
from .state import Unit

NATURAL_CRIT = 20
PRONE_RANGED = -2  # L347
UNSEEN_DIRECT = -5  # L381: 近接攻撃または遠隔攻撃
UNSEEN_AREA = -3  # L381: 近接範囲攻撃および遠隔範囲攻撃
HELPLESS = -5  # L393


class Component(BaseModel):
    """A fixed part of a roll: an ability, 習熟ボーナス, 命中補正, 強化ボーナス…"""

    model_config = ConfigDict(frozen=True)

    name: str
    value: int


def components(sheet: Sheet, power: Power, weapon: Weapon | None) -> tuple[Component, ...]:
    """The sheet's part of an attack roll (L272, L274), or the power's flat bonus (NPCs)."""
    spec = power.attack
    assert spec is not None
    parts: list[Component] = []
    if spec.ability is not None:
        parts.append(Component(name=f"【{spec.ability}】", value=sheet.abilities[spec.ability]))
        parts.append(Component(name="習熟ボーナス", value=sheet.proficiency))
        if weapon is not None and power.has(WEAPON) and weapon.kind == WEAPON:
            parts.append(Component(name="命中補正", value=weapon.accuracy))
        if weapon is not None and (power.has(WEAPON) or power.has(ARMAMENT)):
            parts.append(Component(name="強化ボーナス", value=weapon.enhancement))
    if spec.bonus:
        parts.append(Component(name=power.name, value=spec.bonus))
    return tuple(p for p in parts if p.value)


def situational(target: Unit, power: Power, *, seen: bool) -> list[Modifier]:
    """Penalties the target's state puts on the roll (L347, L381)."""
    found: list[Modifier] = []
    if "伏せ" in conditions(target) and power.range in ("遠隔", "遠隔範囲"):
        found.append(Modifier(name="伏せ", value=PRONE_RANGED))
    if not seen:
        value = UNSEEN_AREA if power.area else UNSEEN_DIRECT
        found.append(Modifier(name="不可視", value=value))
    return found


def effect_modifiers(unit: Unit, *applies: str) -> list[Modifier]:
    """The modifiers the unit's effects put on `applies` (attack, damage, a defence)."""
    return for_roll((m for a in unit.effects for m in a.effect.modifiers), *applies)


def attack_bonus(parts: Iterable[Component], modifiers: Iterable[Modifier]) -> int:
    return sum(p.value for p in parts) + stacked(modifiers)


class Defence(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    base: int
    modifiers: tuple[Modifier, ...]
    value: int


def defence(target: Unit, name: str) -> Defence:
    """The defence's sheet value plus what stacks on it: effects (防御専念 +3…), 無防備 −5."""
    modifiers = effect_modifiers(target, DEFENCES, name)
    if "無防備" in conditions(target):
        modifiers.append(Modifier(name="無防備", value=HELPLESS, applies=DEFENCES))
    kept = counted(modifiers)
    base = target.sheet.defences[name]
    return Defence(name=name, base=base, modifiers=kept, value=base + stacked(kept))


def hits(natural: int, total: int, defence_value: int) -> bool:
    """L6: total ≥ target; a natural 20 always hits (ruling MD-002)."""
    return natural == NATURAL_CRIT or total >= defence_value


def critical(natural: int, *, hit: bool, coup_de_grace: bool) -> bool:
    """L296: a natural 20; とどめの一撃 makes any hit a critical (L397)."""
    return natural == NATURAL_CRIT or (coup_de_grace and hit)
