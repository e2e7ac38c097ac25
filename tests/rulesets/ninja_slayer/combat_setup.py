"""A standard table for combat tests: two PCs, a boss and three クローンヤクザ."""

from __future__ import annotations

from typing import Any

from .harness import BOSS_SHEET, MOB_SHEET, PC_SHEET, Game

ADVANCE = {"type": "ninja_slayer.advance"}
MOBS = ["m1", "m2", "m3"]
BEN_SHEET = {"karate": 3, "neuron": 5, "wazamae": 6, "tairyoku": 5, "seishin": 2, "dkk": 4}


def table(**boss: Any) -> Game:
    game = Game()
    game.add("seat:1", "aki", "pc", PC_SHEET)  # initiative 4, evasion 5
    game.add("seat:2", "ben", "pc", BEN_SHEET)  # initiative 5, evasion 6
    game.add("gm", "boss", "boss", {**BOSS_SHEET, "multi_attack": 2, **boss})  # 6, evasion 8
    for mob in MOBS:
        game.do(
            "gm",
            {
                "type": "ninja_slayer.add_character",
                "id": mob,
                "name": "クローンヤクザ",
                "kind": "mob",
                "sheet": MOB_SHEET,
            },
        )
    return game


def begin(game: Game) -> None:
    game.do(
        "gm",
        {
            "type": "ninja_slayer.begin_combat",
            "participants": ["aki", "ben", "boss", *MOBS],
            "enemy_tie_order": MOBS,
        },
    )


def to_turn_of(game: Game, character: str) -> None:
    """The GM moves play on until `character`'s 手番 starts."""
    for _ in range(40):
        combat = game.combat
        if combat.phase == "teban_start" and combat.actor == character:
            return
        if combat.phase == "turn_end":
            game.do("gm", {"type": "ninja_slayer.next_turn", "enemy_tie_order": MOBS})
        else:
            game.do("gm", ADVANCE)
    raise AssertionError(f"never reached {character}'s 手番")


def to_attack(game: Game, character: str) -> None:
    to_turn_of(game, character)
    game.do("gm", ADVANCE)
    game.do("gm", ADVANCE)
    assert game.combat.phase == "attack"


def melee(game: Game, actor: str, target: str, faces: list[int], **extra: Any) -> list[Any]:
    body = {
        "type": "ninja_slayer.attack",
        "kind": "melee",
        "allocations": [{"target": target, "faces": faces}],
        **extra,
    }
    return game.do(actor, body)


def evade(
    game: Game, actor: str, who: str, damages: list[int], faces: list[int], **extra: Any
) -> list[Any]:
    body = {
        "type": "ninja_slayer.evade",
        "character": who,
        "damages": damages,
        "evasion_dice": len(faces) - extra.get("emergency_dice", 0),
        "faces": faces,
        **extra,
    }
    return game.do(actor, body)
