"""The table's form for a unit (add_unit): the rulebook's labels, a starting 機体's numbers and
the names offered for its abilities and defences (domain/rulesets/form_hints.py)."""

from __future__ import annotations

from domain.model.messages import N_
from domain.rulesets.form_hints import FormHints, declare

from .effects import DURATION_NAMES
from .sheet import AGILITY, POWER
from .state import DEFAULT_DEFENCES
from .units import AddUnit

_EFFECT = {
    "conditions": N_("Conditions"),
    "ongoing": N_("Ongoing damage"),
    "modifiers": N_("Modifiers"),
    "modifiers.name": N_("Source"),
    "modifiers.value": N_("Value"),
    "modifiers.type": N_("Bonus type"),
    "modifiers.applies": N_("Applies to"),
    "duration": N_("Duration"),
    "turn_of": N_("Whose turn"),
    "aftereffect": N_("Aftereffect"),
    "failed_saves": N_("On failed saves"),
    "failed_saves.count": N_("Failed save count"),
    "failed_saves.effect": N_("Effect"),
    "failed_saves.replaces": N_("Replaces the first effect"),
    "text": N_("Text"),
}
_POWER = "sheet.powers"

declare(
    AddUnit,
    FormHints(
        labels={
            "": N_("New unit"),
            "id": N_("Short id (no spaces)"),
            "name": N_("Unit name"),
            "kind": N_("Kind"),
            "owner": N_("Played by"),
            "sheet": N_("Unit sheet"),
            "sheet.level": N_("Level"),
            "sheet.abilities": N_("Abilities"),
            "sheet.proficiency": N_("Proficiency bonus"),
            "sheet.defences": N_("Defences"),
            "sheet.max_hp": N_("Max HP"),
            "sheet.surges": N_("Healing surges"),
            "sheet.surge_value": N_("Surge value"),
            "sheet.durability": N_("Base durability"),
            "sheet.speed": N_("Speed"),
            "sheet.size": N_("Size"),
            "sheet.super_sight": N_("Super sight"),
            "sheet.weapons": N_("Weapons"),
            "sheet.weapons.name": N_("Weapon name"),
            "sheet.weapons.kind": N_("Weapon kind"),
            "sheet.weapons.die": N_("Weapon die"),
            "sheet.weapons.accuracy": N_("Accuracy"),
            "sheet.weapons.enhancement": N_("Enhancement bonus"),
            "sheet.weapons.range": N_("Range (squares)"),
            "sheet.weapons.crit_dice": N_("Critical dice"),
            _POWER: N_("Powers"),
            f"{_POWER}.name": N_("Power name"),
            f"{_POWER}.frequency": N_("Usage"),
            f"{_POWER}.action": N_("Action"),
            f"{_POWER}.keywords": N_("Keywords"),
            f"{_POWER}.range": N_("Range"),
            f"{_POWER}.distance": N_("Distance (squares)"),
            f"{_POWER}.shape": N_("Area shape"),
            f"{_POWER}.size": N_("Area size"),
            f"{_POWER}.forced": N_("Forced movement"),
            f"{_POWER}.forced.kind": N_("Forced movement kind"),
            f"{_POWER}.forced.squares": N_("Squares"),
            f"{_POWER}.targets": N_("Targets"),
            f"{_POWER}.attack": N_("Attack"),
            f"{_POWER}.attack.ability": N_("Ability"),
            f"{_POWER}.attack.defence": N_("Against"),
            f"{_POWER}.attack.bonus": N_("Bonus"),
            f"{_POWER}.hit": N_("Hit"),
            f"{_POWER}.hit.weapon_dice": N_("Weapon dice (W)"),
            f"{_POWER}.hit.dice": N_("Dice"),
            f"{_POWER}.hit.ability": N_("Ability"),
            f"{_POWER}.hit.bonus": N_("Bonus"),
            f"{_POWER}.miss_half": N_("Miss: half damage"),
            f"{_POWER}.effects": N_("Effects on hit"),
            f"{_POWER}.self_effects": N_("Effects on the user"),
            f"{_POWER}.heal": N_("Healing"),
            f"{_POWER}.heal.surge": N_("Spends a healing surge"),
            f"{_POWER}.heal.amount": N_("Extra hit points"),
            f"{_POWER}.basic": N_("Usable as a basic attack"),
            f"{_POWER}.text": N_("Text"),
            **{f"{_POWER}.effects.{k}": v for k, v in _EFFECT.items()},
            **{f"{_POWER}.self_effects.{k}": v for k, v in _EFFECT.items()},
        },
        defaults={
            "sheet.level": 1,
            "sheet.abilities": {POWER: 3, AGILITY: 2},
            "sheet.proficiency": 2,
            "sheet.defences": {name: 12 for name in DEFAULT_DEFENCES} | {"AC": 15},
            "sheet.max_hp": 30,
            "sheet.weapons.die": "1d8",
        },
        keys={
            "sheet.abilities": (POWER, AGILITY),
            "sheet.defences": DEFAULT_DEFENCES,
        },
        choices={
            "kind": {"pc": N_("PC"), "npc": N_("NPC")},
            f"{_POWER}.effects.duration": DURATION_NAMES,
            f"{_POWER}.self_effects.duration": DURATION_NAMES,
            f"{_POWER}.effects.turn_of": {"user": N_("The user's"), "target": N_("The target's")},
            f"{_POWER}.self_effects.turn_of": {
                "user": N_("The user's"),
                "target": N_("The target's"),
            },
        },
        hidden=("id",),
    ),
)
