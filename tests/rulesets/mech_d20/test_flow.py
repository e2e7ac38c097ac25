"""Encounter flow through the decider: initiative, turns, the action economy, attacks."""

from __future__ import annotations

from .harness import Game


def two_units() -> Game:
    game = Game()
    game.add("aki")
    game.add("boss", kind="npc", max_hp=80)
    game.begin({"aki": 15, "boss": 5})
    return game


def test_initiative_order_and_a_basic_attack() -> None:
    game = two_units()
    assert [p.unit for p in game.encounter.order] == ["aki", "boss"]
    game.do("seat:1", "start_turn")
    game.do(
        "seat:1",
        "use_power",
        unit="aki",
        power="近接基礎攻撃",
        targets=["boss"],
        weapon="ビームサーベル",
    )
    rolled = game.do("seat:1", "attack_roll", faces=[12])
    (roll,) = rolled[0].rolls
    assert roll.total == 12 + 4 + 2 + 3 + 1 and roll.outcome == "hit"
    dealt = game.do("seat:1", "damage_roll", faces=[5])
    assert dealt[0].dealt[0].amount == 5 + 4 + 1
    assert game.unit("boss").hp == 70
    game.do("seat:1", "end_turn")
    game.do("gm", "start_turn")
