"""3.1 l.293–300: within one combat turn, an [攻撃] action and an [逃避] action exclude each
other (rulings CL-096–CL-099).

l.293–295: 「[攻撃] 攻撃を行う能力であることを表す特性です。この行動を主要・支援行動で行った場合、
その手番中の主要・支援行動では[逃避]を行えません。」 l.298–300: 「[逃避] 逃避を行う能力であることを
表す特性です。逃避とは戦闘からの離脱を行うことです。この行動を主要・支援行動で行った場合、その
手番中の主要・支援行動では[攻撃]を行えません。」

`Combat.turn_actions` holds what the fighter whose combat turn it is has done of the two, by a
main or support action: an attack C-card (even one that misfired or that an ESPジャマー voided,
6.1 l.1256), 格闘, an [攻撃] ability or ability card ([主要]/[先制]/[支援]); an escape C-card
(likewise), an [逃避] ability or ability card. It is emptied when a combat turn begins. An
answer to an attack ([対抗(攻撃)]: `respond`, `counter_ability`) or a 同調 is no 主要・支援行動:
neither recorded nor refused (ruling CL-099). 格闘 is an attack (ruling CL-098).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from domain.model.errors import RuleViolation
from domain.rulesets.chojin_locke.changes import combat, fighter
from domain.rulesets.chojin_locke.combat.state import Combat
from domain.rulesets.chojin_locke.state import ChojinState

Action = Literal["攻撃", "逃避"]
ACTIONS: tuple[Action, ...] = ("攻撃", "逃避")


def actions_of(kinds: Iterable[str]) -> tuple[Action, ...]:
    """The [攻撃]/[逃避] among a C-card's kind or an ability's tags."""
    given = set(kinds)
    return tuple(a for a in ACTIONS if a in given)


def acted(state: ChojinState, number: int, kinds: Iterable[str]) -> ChojinState:
    """Fold: fighter `number` took an [攻撃]/[逃避] action (of `kinds`) in its combat turn."""
    fight = state.combat
    if fight is None or fight.current != number:
        return state
    new = [a for a in actions_of(kinds) if a not in fight.turn_actions]
    if not new:
        return state
    return combat(state, turn_actions=[*fight.turn_actions, *new])


def check(fight: Combat, number: int, kinds: Iterable[str]) -> None:
    """Refuses an [攻撃] action after an [逃避] one in fighter `number`'s combat turn, and an
    [逃避] action after an [攻撃] one (3.1 l.295, l.300)."""
    if fight.current != number:
        return
    wanted = actions_of(kinds)
    if "逃避" in wanted and "攻撃" in fight.turn_actions:
        raise RuleViolation(
            "attacked_this_turn",
            "You made an attack this combat turn: no [逃避] in it (3.1 l.295).",
        )
    if "攻撃" in wanted and "逃避" in fight.turn_actions:
        raise RuleViolation(
            "escaped_this_turn",
            "You made an escape this combat turn: no [攻撃] in it (3.1 l.300).",
        )


def support_used(
    state: ChojinState, number: int, tags: Iterable[str], escaped: bool
) -> ChojinState:
    """Fold: a [支援] ability or ability card used in fighter `number`'s combat turn (5.2 l.968,
    ruling CL-093). l.293–300 hold for a support action as for a main one (ruling CL-096): an [攻撃]
    one
    is an attack action (the round saw an attack, 5.1 l.933), an [逃避] one (`escaped`) takes
    its user out of the combat (「逃避とは戦闘からの離脱を行うことです」)."""
    fight = state.combat
    if fight is None or number not in fight.fighters:
        return state
    tags = tuple(tags)
    if "攻撃" in tags:
        state = combat(state, attacked=True)
    state = acted(state, number, tags)
    if escaped:
        state = fighter(state, number, left=True)
    return state
