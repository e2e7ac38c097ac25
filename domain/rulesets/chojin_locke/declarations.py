"""6.1: a declared stat is checked against the secret sheet before anything is rolled.

A refusal goes only to the declarer (a rejected command appends nothing) and never states the
true value: the message says the declaration is too high, not by how much.
"""

from __future__ import annotations

from domain.model.errors import RuleViolation
from domain.model.table import Dice, Rolled
from domain.rulesets.chojin_locke.state import Player
from domain.rulesets.chojin_locke.stats import current

STAT_NAMES = {
    "esp_level": "ESP能力レベル",
    "esp_power": "ESPパワー",
    "endurance": "耐久力",
    "willpower": "精神力",
}


def check_declaration(player: Player, stat: str, declared: int, *, minimum: int = 0) -> None:
    name = STAT_NAMES[stat]
    if stat in ("endurance", "willpower"):
        minimum = max(minimum, 1)  # 3.1: endurance and willpower are declared as 1 or more
    if declared < minimum:
        raise RuleViolation(
            "declaration_too_low",
            "{name} must be declared as at least {minimum} here.",
            params={"name": name, "minimum": minimum},
        )
    if declared > current(player, stat):
        raise RuleViolation(
            "declaration_too_high",
            "You may declare {name} lower than your character's, never higher: {declared} is more "
            "than your character has now.",
            params={"name": name, "declared": declared},
        )


def declared_roll(dice: Dice, expression: str, declared: int, faces: list[int] | None) -> Rolled:
    """The roll the declared value (not the true one) decides: `2D6<=declared` and the like."""
    return dice.roll(f"{expression}<={declared}", faces)
