"""●ニンジャ第六感 on a multi-attack: one strike only, never after the enemy's evasion."""

from __future__ import annotations

from typing import Any

from .combat_setup import evade, to_attack
from .harness import PC_SHEET, Game

REROLL = "ninja_slayer.sixth_sense"


def duel() -> Game:
    game = Game()
    game.add("seat:1", "aki", "pc", {**PC_SHEET, "neuron": 13, "wazamae": 4, "multi_shot": 2})
    game.add(
        "gm",
        "boss",
        "boss",
        {"karate": 3, "neuron": 2, "wazamae": 3, "tairyoku": 9, "evasion": True},
    )
    game.add(
        "gm", "m1", "mob", {"karate": 1, "neuron": 1, "wazamae": 1, "tairyoku": 1, "ninja": False}
    )
    game.do("gm", {"type": "ninja_slayer.begin_combat", "participants": ["aki", "boss", "m1"]})
    to_attack(game, "aki")
    return game


def two_shots(game: Game, second: list[int]) -> int:
    game.do(
        "seat:1",
        {
            "type": "ninja_slayer.attack",
            "kind": "ranged",
            "allocations": [
                {"target": "boss", "dice": 2, "faces": [4, 1]},
                {"target": "boss", "dice": 2, "faces": second},
            ],
        },
    )
    return game.state.version


def reroll(seq: int, strike: int, faces: list[int]) -> dict[str, Any]:
    return {"type": REROLL, "character": "aki", "check_seq": seq, "strike": strike, "faces": faces}


def test_one_missed_strike_is_rolled_again_and_hits() -> None:
    game = duel()
    seq = two_shots(game, [1, 1])
    assert [d.id for d in game.combat.damages] == [1]
    used, rerolled = game.do("seat:1", reroll(seq, 1, [6, 2]))
    assert used.of_seq == seq and rerolled.index == 1
    assert rerolled.strike.hit and rerolled.replaces is None and rerolled.damage.id == 2
    assert rerolled.detail.pool.bonus == 2  # the same two dice, no more
    assert [d.id for d in game.combat.damages] == [1, 2]
    (evaded,) = evade(game, "gm", "boss", [1, 2], [5, 1])  # one attack: evaded together
    assert evaded.success
    game.refused("seat:1", reroll(seq, 0, [6, 6]), "sixth_sense_used")


def test_a_hit_rerolled_into_a_miss_takes_its_damage_back() -> None:
    game = duel()
    seq = two_shots(game, [5, 1])
    _, rerolled = game.do("seat:1", reroll(seq, 1, [1, 1]))
    assert rerolled.replaces == 2 and rerolled.damage is None
    assert [d.id for d in game.combat.damages] == [1]


def test_no_reroll_after_the_enemy_rolled_an_evasion() -> None:
    game = duel()
    seq = two_shots(game, [1, 1])
    evade(game, "gm", "boss", [1], [1, 1])
    game.refused("seat:1", reroll(seq, 1, [6, 6]), "evasion_already_rolled")


def test_no_reroll_of_damage_already_taken() -> None:
    game = duel()
    game.do(
        "seat:1",
        {
            "type": "ninja_slayer.attack",
            "allocations": [{"target": "m1", "faces": [4, 1, 1, 1, 1]}],
        },
    )
    seq = game.state.version - 1
    game.refused("seat:1", reroll(seq, 0, [1] * 5), "damage_resolved")
    game.refused("seat:1", reroll(seq, 3, [1] * 5), "unknown_strike")
