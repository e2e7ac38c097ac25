"""A character's current stats from its sheet and what happened to it (3.1's stat rules)."""

from __future__ import annotations

from domain.rulesets.chojin_locke.state import Player


def max_power(player: Player) -> int:
    sheet = player.sheet
    assert sheet is not None
    # 3.1: max power 0 with ESP level ≥ 1 counts as 10
    return 10 if sheet.esp_power == 0 and sheet.esp_level >= 1 else sheet.esp_power


def current(player: Player, stat: str) -> int:
    """The true value a declaration of `stat` may not exceed."""
    sheet = player.sheet
    assert sheet is not None
    power = max(max_power(player) - player.power_spent, 0)
    if stat == "esp_power":
        return power
    if stat == "endurance":
        return sheet.endurance - player.endurance_damage
    if stat == "willpower":
        return sheet.willpower - player.willpower_damage
    level = sheet.esp_level
    if level == 0 and max_power(player) >= 1:
        level = 1  # 3.1: level 0 with max power ≥ 1 counts as 1
    return min(level, power)  # 3.1: remaining power below the level lowers it
