"""Damage rolls, critical hits and area attacks (L279–301, L16–17).

Damage = the power's dice (nW: n of the weapon's damage dice, L282–283) + 【ability】 + 強化ボーナス
(L287). A critical hit counts every normal damage die at its maximum (L297), class-feature
extra dice too (L299); crit-only dice are rolled and added (L300–301). An area attack rolls
damage once for all its targets (L17, L289); several critical targets share one critical
computation (L292). A power that deals half damage on a miss halves the roll, rounding toward
−∞ (L281, L11). Damage below 0 deals none (seed silent; docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict

from .bonuses import Modifier, counted, stacked
from .rounding import halved
from .sheet import ARMAMENT, WEAPON, Power, Sheet, Weapon, dice_of

Dice = tuple[tuple[int, int], ...]  # (count, sides)


class DamageTerms(BaseModel):
    """What one damage roll of a power adds up (shared by every target of an area attack)."""

    model_config = ConfigDict(frozen=True)

    dice: Dice  # the normal damage dice (maximised on a critical)
    flat: int  # 【ability】 + 強化ボーナス + the power's bonus + stacked damage modifiers
    modifiers: tuple[Modifier, ...] = ()
    crit_dice: Dice = ()  # rolled only for critical targets

    @property
    def expression(self) -> str:
        return expression(self.dice, self.flat)

    @property
    def maximum(self) -> int:
        """L297–298: 2d10+【出力】 on a critical is 20+【出力】."""
        return sum(count * sides for count, sides in self.dice) + self.flat


def expression(dice: Dice, flat: int = 0) -> str:
    """A dice-language sum such as 2D8+1D6+5 (or just the number)."""
    text = "+".join(f"{count}D{sides}" for count, sides in dice)
    if flat or not text:
        text += f"{flat:+d}" if text else str(flat)
    return text


def merged(dice: Iterable[tuple[int, int]]) -> Dice:
    """Dice of the same size added together: 1d8 + 1d8 is 2D8."""
    by_sides: dict[int, int] = {}
    for count, sides in dice:
        by_sides[sides] = by_sides.get(sides, 0) + count
    return tuple((count, sides) for sides, count in by_sides.items())


def terms(
    sheet: Sheet,
    power: Power,
    weapon: Weapon | None,
    *,
    extra_dice: Sequence[str] = (),
    crit_dice: Sequence[str] = (),
    modifiers: Iterable[Modifier] = (),
) -> DamageTerms:
    spec = power.hit
    assert spec is not None
    dice: list[tuple[int, int]] = []
    if spec.weapon_dice and weapon is not None:
        count, sides = dice_of(weapon.die)
        dice.append((count * spec.weapon_dice, sides))  # 2W of 1d8 is 2d8 (L283)
    if spec.dice:
        dice.append(dice_of(spec.dice))
    dice += [dice_of(d) for d in extra_dice]
    flat = spec.bonus
    if spec.ability is not None:
        flat += sheet.abilities[spec.ability]
    if weapon is not None and (power.has(WEAPON) or power.has(ARMAMENT)):
        flat += weapon.enhancement
    kept = counted(modifiers)
    crits = [dice_of(d) for d in crit_dice]
    if weapon is not None and weapon.crit_dice and (power.has(WEAPON) or power.has(ARMAMENT)):
        crits.insert(0, dice_of(weapon.crit_dice))
    return DamageTerms(
        dice=merged(dice), flat=flat + stacked(kept), modifiers=kept, crit_dice=merged(crits)
    )


def dealt(*, hit: bool, critical: bool, half_on_miss: bool, rolled: int, crit_total: int) -> int:
    """The damage one target takes from the shared roll (never below 0)."""
    if critical:
        amount = crit_total
    elif hit:
        amount = rolled
    elif half_on_miss:
        amount = halved(rolled)  # L281, rounded toward −∞ (L11)
    else:
        amount = 0
    return max(0, amount)
