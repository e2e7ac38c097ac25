"""ヒーローポイント (L418–428): per player, hold at most 1, spend at most 1 a day.

The GM awards one (L422), or a player gives theirs to another (L423); each player holds at
most 1 and spends at most 1 per day (L424, per seat: seed notes 1a #9); in an encounter
(L425) it buys an extra action on one's own turn (L427) or rerolls one's own attack roll (L428).
A 朦朧 unit may buy an action (L386), a 支配 one may not (L391); a 幻惑 one may (ruling MD-011).
"""

from __future__ import annotations

from domain.model.errors import RuleViolation

from .state import Hero

HOLD_AT_MOST = 1


def receive(hero: Hero, seat: int) -> Hero:
    if hero.held >= HOLD_AT_MOST:
        raise RuleViolation(
            "hero_point_full",
            "seat:{seat} already holds a hero point (at most 1, L424).",
            params={"seat": seat},
        )
    return hero.model_copy(update={"held": hero.held + 1})


def spend(hero: Hero, seat: int, day: int) -> Hero:
    if hero.held < 1:
        raise RuleViolation(
            "no_hero_point", "seat:{seat} holds no hero point.", params={"seat": seat}
        )
    if hero.spent_day == day:
        raise RuleViolation(
            "hero_point_spent_today",
            "seat:{seat} has spent a hero point today (1 a day, L424).",
            params={"seat": seat},
        )
    return hero.model_copy(update={"held": hero.held - 1, "spent_day": day})
