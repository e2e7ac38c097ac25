"""Stat names as the rules write them, mapped to the sheet's fields."""

from __future__ import annotations

from .state import Character

FIELDS = {
    "カラテ": "karate",
    "ニューロン": "neuron",
    "ワザマエ": "wazamae",
    "ジツ": "jitsu",
    "脚力": "kyakuryoku",
}
# Stat damage never takes these below 1 in a scenario (能力値ダメージ).
FLOORED = frozenset({"karate", "neuron", "wazamae", "kyakuryoku"})


def value(character: Character, stat: str | None) -> int:
    if stat is None:
        return 0
    return int(getattr(character.now, FIELDS[stat]))


def evasion_dice(character: Character) -> int:
    now = character.now
    return max(now.karate, now.neuron, now.wazamae) + character.sheet.evasion_modifier
