"""不利益を被っている状態 (L356–397): which conditions a unit has, and what each one forbids.

A unit's conditions come from the effects on it, from lying 伏せ, and from 戦闘不能, which makes
it 無防備 (L444); 無防備 includes 伏せ (L393: 「無防備状態のキャラクター倒れて伏せ状態になり」).
"""

from __future__ import annotations

from domain.model.messages import Message

from .state import CONDITION_ORDER, Unit

NO_ACTIONS = frozenset({"朦朧", "無防備"})  # L385, L394
ONE_ACTION = frozenset({"幻惑", "支配"})  # L383, L389
NO_OFF_TURN = frozenset({"幻惑", "朦朧"})  # L203, L383 (and 戦闘不能, a status)
GRANTS_ADVANTAGE = ("幻惑", "朦朧", "無防備", "支配")  # L342, L384, L387, L392, L393


def conditions(unit: Unit) -> frozenset[str]:
    found = {c for applied in unit.effects for c in applied.effect.conditions}
    if unit.prone:
        found.add("伏せ")
    if unit.status == "戦闘不能":
        found.add("無防備")  # L444
    if "無防備" in found:
        found.add("伏せ")  # L393
    return frozenset(found)


def listed(unit: Unit) -> list[str]:
    """The unit's conditions in a fixed order, for views and events."""
    found = conditions(unit)
    return [c for c in CONDITION_ORDER if c in found]


def action_limit(unit: Unit) -> int | None:
    """How many of standard/move/minor the unit may take on its turn (None: the usual three).

    朦朧: none (L385); 無防備 and 戦闘不能: none (L394, L445); 幻惑 and 支配: one (L383, L389).
    """
    found = conditions(unit)
    if unit.status != "active" or found & NO_ACTIONS:
        return 0
    if found & ONE_ACTION:
        return 1
    return None


def cannot_act_off_turn(unit: Unit, *, self_trigger: bool, sees_trigger: bool) -> Message | None:
    """Why `unit` may not act outside its turn (L200–208), or None.

    Not 幻惑, 朦朧 or 戦闘不能 (L203); it must see the trigger's source (L204), which a 盲目 unit
    never does (L207) unless it triggered it itself (L208).
    """
    if unit.status != "active":
        return Message(
            "{unit} is {status} and cannot act outside its turn.",
            {"unit": unit.name, "status": unit.status},
        )
    blocking = conditions(unit) & NO_OFF_TURN
    if blocking:
        return Message(
            "{unit} is {conditions}状態 and cannot act outside its turn.",
            {"unit": unit.name, "conditions": "・".join(sorted(blocking))},
        )
    if self_trigger:
        return None
    if "盲目" in conditions(unit) or not sees_trigger:
        return Message(
            "{unit} cannot see the trigger's source, so cannot act outside its turn.",
            {"unit": unit.name},
        )
    return None


def no_free_action(unit: Unit, *, own_turn: bool) -> Message | None:
    """Why `unit` may take no free action now, or None.

    戦闘不能: none at all, on its turn (L445 「自身のターンに一切の行動を行うことができず」) or
    outside it (L203); 無防備: none on its turn (L394 「自身のターンにおいて一切のアクションを
    行なうことができない」). 朦朧 may, as far as the GM allows (L387): ruling MD-023.
    """
    if unit.status != "active":
        return Message(
            "{unit}は{status}状態のため、一切の行動を行うことができない (L445)。",
            {"unit": unit.name, "status": unit.status},
        )
    if own_turn and "無防備" in conditions(unit):
        return Message(
            "{unit}は無防備状態のため、自身のターンに一切のアクションを行なうことができない "
            "(L394)。",
            {"unit": unit.name},
        )
    return None


def sees(attacker: Unit, target: Unit) -> bool:
    """A 盲目 unit sees nothing (L378); a 不可視 target is not seen."""
    return "盲目" not in conditions(attacker) and "不可視" not in conditions(target)
