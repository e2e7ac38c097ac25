"""まとめて全弾回避 (2-11): what may be evaded together, and at which difficulty."""

from __future__ import annotations

from typing import Any

from .combat_setup import ADVANCE, evade, to_attack
from .harness import PC_SHEET, Game


def shooter_vs_boss(**shooter: Any) -> Game:
    game = Game()
    game.add(
        "seat:1", "aki", "pc", {**PC_SHEET, "wazamae": 6, "neuron": 7, "multi_shot": 3, **shooter}
    )
    game.add(
        "gm",
        "boss",
        "boss",
        {"karate": 3, "neuron": 2, "wazamae": 3, "tairyoku": 9, "evasion": True},
    )
    game.do("gm", {"type": "ninja_slayer.begin_combat", "participants": ["aki", "boss"]})
    to_attack(game, "aki")
    return game


def three_shots(game: Game, **body: Any) -> None:
    game.do(
        "seat:1",
        {
            "type": "ninja_slayer.attack",
            "kind": "ranged",
            **body,
            "allocations": [
                {"target": "boss", "dice": 2, "faces": [4, 1]},
                {"target": "boss", "dice": 2, "faces": [5, 1]},
                {"target": "boss", "dice": 2, "faces": [6, 1]},
            ],
        },
    )


def test_several_hits_of_one_attack_are_evaded_with_one_check() -> None:
    # 敵ニンジャから3発のカラテミサイル弾: one successful evasion evades them all.
    game = shooter_vs_boss()
    three_shots(game)
    (evaded,) = evade(game, "gm", "boss", [1, 2, 3], [4, 1, 1])
    assert evaded.success and evaded.damages == (1, 2, 3)
    assert game.combat.damages == ()


def test_time_lag_shots_are_evaded_one_by_one() -> None:
    game = shooter_vs_boss()
    three_shots(game, time_lag=True)
    game.refused(
        "gm",
        {
            "type": "ninja_slayer.evade",
            "character": "boss",
            "damages": [1, 2],
            "evasion_dice": 1,
            "faces": [6],
        },
        "batch_not_allowed",
    )
    for damage in (1, 2, 3):
        evade(game, "gm", "boss", [damage], [5])


def test_time_lag_needs_the_skill() -> None:
    game = shooter_vs_boss(neuron=6)
    game.refused(
        "seat:1",
        {
            "type": "ninja_slayer.attack",
            "kind": "ranged",
            "time_lag": True,
            "allocations": [{"target": "boss", "faces": [1] * 6}],
        },
        "no_time_lag",
    )


def squad(sniper_neuron: int) -> Game:
    game = Game()
    game.add("seat:1", "aki", "pc", PC_SHEET)
    mob = {"karate": 2, "neuron": 2, "wazamae": 3, "tairyoku": 1, "ninja": False}
    for cid, name, neuron in (
        ("s", "スナイパーヤクザ", sniper_neuron),
        ("g", "ショットガンヤクザ", 2),
    ):
        game.do(
            "gm",
            {
                "type": "ninja_slayer.add_character",
                "id": cid,
                "name": name,
                "kind": "mob",
                "sheet": {**mob, "neuron": neuron},
            },
        )
    order = ["s", "g"] if sniper_neuron == 2 else []
    game.do(
        "gm",
        {
            "type": "ninja_slayer.begin_combat",
            "participants": ["aki", "s", "g"],
            "enemy_tie_order": order,
        },
    )
    to_attack(game, "s")
    shot = {
        "type": "ninja_slayer.attack",
        "kind": "ranged",
        "evasion": "H",
        "allocations": [{"target": "aki", "faces": [4, 1, 1]}],
    }
    game.do("gm", shot)
    for _ in range(4):
        game.do("gm", ADVANCE)
    game.do("gm", {**shot, "evasion": "N", "allocations": [{"target": "aki", "faces": [4, 1, 1]}]})
    return game


def test_mobs_at_one_initiative_are_evaded_together_at_the_hardest_difficulty() -> None:
    game = squad(sniper_neuron=2)
    assert [d.difficulty for d in game.combat.damages] == ["H", "N"]
    evaded, taken = evade(game, "seat:1", "aki", [1, 2], [4, 4])
    assert evaded.detail.difficulty == "H" and not evaded.success
    assert taken.amount == 2


def test_mobs_of_other_kinds_and_initiatives_are_evaded_apart() -> None:
    game = squad(sniper_neuron=3)
    game.refused(
        "seat:1",
        {
            "type": "ninja_slayer.evade",
            "character": "aki",
            "damages": [1, 2],
            "evasion_dice": 1,
            "faces": [6],
        },
        "batch_not_allowed",
    )
    (evaded,) = evade(game, "seat:1", "aki", [1], [5])
    assert evaded.success


def test_shooting_several_targets_needs_multi_target_unless_shuriken() -> None:
    game = Game()
    game.add("seat:1", "aki", "pc", {**PC_SHEET, "wazamae": 4, "neuron": 6, "multi_shot": 2})
    for mob in ("m1", "m2"):
        game.add(
            "gm",
            mob,
            "mob",
            {"karate": 1, "neuron": 1, "wazamae": 1, "tairyoku": 1, "ninja": False},
        )
    game.do(
        "gm",
        {
            "type": "ninja_slayer.begin_combat",
            "participants": ["aki", "m1", "m2"],
            "enemy_tie_order": ["m1", "m2"],
        },
    )
    to_attack(game, "aki")
    body: dict[str, Any] = {
        "type": "ninja_slayer.attack",
        "kind": "ranged",
        "allocations": [
            {"target": "m1", "dice": 2, "faces": [4, 1]},
            {"target": "m2", "dice": 2, "faces": [4, 1]},
        ],
    }
    game.refused("seat:1", body, "no_multi_target")
    game.do("seat:1", {**body, "shuriken": True})
    assert {game.char(m).status for m in ("m1", "m2")} == {"removed"}
