"""What an audience may see: NPC numbers are the GM's (private PCs' their seat's) until revealed."""

from __future__ import annotations

from typing import Any

from domain.audience import GM
from domain.game import GameState

from .initiative import initiative
from .state import Character, NinjaState


def _visible(character: Character, audience: str) -> bool:
    return audience in (GM, character.owner) or character.revealed


def character_view(character: Character, audience: str) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "id": character.id,
        "name": character.name,
        "owner": character.owner,
        "kind": character.kind,
        "status": character.status,
        "revealed": character.revealed,
        "weapon": character.weapon,  # in plain sight
    }
    if _visible(character, audience):
        shown.update(
            sheet=character.sheet.model_dump(mode="json"),
            now=character.now.model_dump(mode="json"),
            initiative=initiative(character),
            sixth_sense_used=character.sixth_sense_used,
            adrenaline_used=character.adrenaline_used,
            next_attack_difficulty=character.next_attack_difficulty,
        )
    return shown


def view(game: GameState, audience: str) -> dict[str, Any]:
    state: NinjaState = game.rules
    combat = state.combat
    shown: dict[str, Any] = {
        "characters": {i: character_view(c, audience) for i, c in state.characters.items()},
        "combats": state.combats,
        "combat": None,
    }
    if combat is not None:
        shown["combat"] = {
            **combat.model_dump(mode="json", exclude={"index", "evaded_attacks", "next_damage"}),
            "actor": combat.actor,
        }
    return shown
