"""The standard actions every unit has besides its powers: 突撃, 防御専念, とどめの一撃.

- 突撃 (L82–88): move up to speed and make a 近接基礎攻撃 with +1 untyped to the attack and the
  damage roll (「+1の無名ボーナス」, L84); the turn ends there (L85). Distance and path are
  the table's (Kiroku has no map).
- 防御専念 (L89–90): +3 untyped to every defence until the start of one's next turn.
- とどめの一撃 (L395–397): one basic attack on an adjacent 無防備 unit; a hit is a critical hit.
"""

from __future__ import annotations

from .bonuses import ATTACK, DAMAGE, DEFENCES, Modifier
from .effects import Effect

CHARGE = "突撃"
TOTAL_DEFENCE = "防御専念"
COUP_DE_GRACE = "とどめの一撃"

CHARGE_BONUS = 1  # L84
TOTAL_DEFENCE_BONUS = 3  # L90

CHARGE_MODIFIERS = (
    Modifier(name=CHARGE, value=CHARGE_BONUS, applies=ATTACK),
    Modifier(name=CHARGE, value=CHARGE_BONUS, applies=DAMAGE),
)
TOTAL_DEFENCE_EFFECT = Effect(
    modifiers=(Modifier(name=TOTAL_DEFENCE, value=TOTAL_DEFENCE_BONUS, applies=DEFENCES),),
    duration="start_of_next_turn",
    turn_of="user",
    text="次の自身のターン開始時まで全ての防御値に+3の無名ボーナス",
)
