"""The table's form for a character (add_character): the rulebook's labels and a starting
ninja's numbers (domain/rulesets/form_hints.py)."""

from __future__ import annotations

from domain.model.messages import N_
from domain.rulesets.form_hints import FormHints, declare

from .characters import AddCharacter

declare(
    AddCharacter,
    FormHints(
        labels={
            "": N_("New character"),
            "id": N_("Short id (no spaces)"),
            "name": N_("Character name"),
            "kind": N_("Kind"),
            "owner": N_("Played by"),
            "sheet": N_("Character sheet"),
            "sheet.karate": N_("Karate"),
            "sheet.neuron": N_("Neuron"),
            "sheet.wazamae": N_("Wazamae"),
            "sheet.jitsu": N_("Jitsu"),
            "sheet.tairyoku": N_("Tairyoku (max)"),
            "sheet.seishin": N_("Seishinryoku (max)"),
            "sheet.kyakuryoku": N_("Kyakuryoku"),
            "sheet.dkk": N_("DKK"),
            "sheet.manzatsu": N_("Manzatsu"),
            "sheet.ninja": N_("Ninja"),
            "sheet.weapons": N_("Weapons"),
            "sheet.weapons.name": N_("Weapon name"),
            "sheet.weapons.slots": N_("Slots"),
            "sheet.weapons.rensha": N_("Weapon's own Rensha"),
            "sheet.weapons.renzoku_limit": N_("Renzoku Kougeki limit"),
            "sheet.weapons.rensha_limit": N_("Rensha limit"),
            "sheet.weapons.multi": N_("Multi-target"),
            "sheet.weapons.time_lag": N_("Time lag"),
            "sheet.skills": N_("Skills"),
            "sheet.multi_attack": N_("Renzoku Kougeki"),
            "sheet.multi_shot": N_("Rensha"),
            "sheet.evasion": N_("Has evasion dice (boss)"),
            "sheet.evasion_modifier": N_("Evasion modifier"),
            "sheet.initiative_modifier": N_("Initiative modifier"),
            "sheet.reaction_dice": N_("Reaction dice"),
            "sheet.emergency_dice": N_("Emergency evasion dice"),
            "sheet.sokushi_resistance": N_("Sokushi resistance"),
            "sheet.damage_reduction": N_("Damage reduction"),
            "sheet.strike_tsuda": N_("Unarmed Tsuda"),
            "sheet.injuries": N_("Injuries carried"),
        },
        defaults={
            "sheet.karate": 3,
            "sheet.neuron": 3,
            "sheet.wazamae": 3,
            "sheet.tairyoku": 6,
        },
        choices={
            "kind": {"pc": N_("PC"), "boss": N_("Boss"), "mob": N_("Mob")},
        },
        hidden=("id",),
    ),
)
