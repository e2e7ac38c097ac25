"""戦術的優位 (combat advantage, L331–354): +2 to the attack roll, never more.

「目標が複数の戦術的優位を与えるような状態になっていたからといって、攻撃ロールへのボーナスが
増加したり重複したりすることはない」 (L336). It needs sight of the target (L340–341). Its sources:
a target 幻惑/朦朧/無防備 (L342), 支配 (L392) or 盲目 (L379); an attacker the target cannot see
(L343); a 伏せ target of a melee or close attack (L346); flanking (L348–354), declared, since
Kiroku has no map. 幻惑 and 朦朧 units, and those who cannot see the target, cannot flank (L351).
"""

from __future__ import annotations

from collections.abc import Iterable

from domain.model.messages import Message

from .bonuses import Modifier
from .conditions import GRANTS_ADVANTAGE, conditions, sees
from .sheet import Power
from .state import Unit

ADVANTAGE = 2  # L335
FLANKING = "挟撃"
UNSEEN_ATTACKER = "不可視の攻撃者"
DECLARED_SOURCES = (FLANKING, UNSEEN_ATTACKER)
NO_FLANKING = frozenset({"幻惑", "朦朧"})


def sources(
    attacker: Unit, target: Unit, power: Power, *, declared: Iterable[str], seen: bool
) -> tuple[str, ...]:
    """Every reason the attacker has 戦術的優位 against the target (empty without sight)."""
    if not (seen and sees(attacker, target)):
        return ()  # L340–341
    found: list[str] = []
    target_has = conditions(target)
    found += [c for c in GRANTS_ADVANTAGE if c in target_has]
    if "盲目" in target_has or "不可視" in conditions(attacker):
        found.append(UNSEEN_ATTACKER)  # L343–344, L379
    if "伏せ" in target_has and power.range in ("近接", "近接範囲"):
        found.append("伏せ")  # L346
    found += [d for d in declared if d not in found]
    return tuple(dict.fromkeys(found))


def modifier(found: tuple[str, ...]) -> Modifier | None:
    """One +2, however many sources (L336–337)."""
    if not found:
        return None
    return Modifier(name="戦術的優位", value=ADVANTAGE)


def cannot_flank(attacker: Unit, *, seen: bool) -> Message | None:
    if conditions(attacker) & NO_FLANKING or not seen or "盲目" in conditions(attacker):
        return Message(
            "{attacker} cannot take part in flanking (幻惑, 朦朧, or not seeing the target).",
            {"attacker": attacker.name},
        )
    return None
