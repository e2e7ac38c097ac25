"""Conditions and durations in play: saves, after-effects, the X-th failure, stacking, prone,
immobilized, coup de grace (L303–329, L356–397)."""

from __future__ import annotations

from typing import Any

from domain.rulesets.mech_d20.changes import EffectApplied, HpChanged
from domain.rulesets.mech_d20.turns import TurnEnded

from .harness import Game

SLOW = {"conditions": ["減速"], "duration": "save_ends"}
ACID = {
    "conditions": ["幻惑"],
    "duration": "save_ends",
    "aftereffect": SLOW,
    "failed_saves": [{"count": 2, "effect": {"conditions": ["朦朧"]}, "replaces": True}],
}
NET = {
    "name": "ネット弾",
    "keywords": ["攻撃", "特殊武装"],
    "range": "近接",
    "attack": {"ability": None, "defence": "反応", "bonus": 30},
    "effects": [{"conditions": ["動けない"], "duration": "save_ends"}],
}
TRIP = {
    "name": "足払い",
    "keywords": ["攻撃", "武器"],
    "range": "近接",
    "attack": {"ability": "出力", "defence": "反応"},
    "effects": [{"conditions": ["伏せ"]}],
}


def game_with(**boss: Any) -> Game:
    game = Game()
    game.add("aki", powers=[TRIP])
    game.add("boss", kind="npc", max_hp=90, **boss)
    game.begin({"aki": 15, "boss": 5})
    return game


def rounds(game: Game, *, aki: list[int] | None = None, boss: list[int] | None = None) -> list[Any]:
    game.do("seat:1", "start_turn")
    out = game.do("seat:1", "end_turn", faces=aki)
    game.do("gm", "start_turn")
    return out + game.do("gm", "end_turn", faces=boss)


def test_a_failed_save_keeps_the_effect_a_success_starts_its_aftereffect() -> None:
    """L306, L323: 後効果 on a success."""
    game = game_with()
    game.do("gm", "add_effect", unit="aki", effect=ACID, reason="酸")
    (ended,) = [e for e in rounds(game, aki=[9]) if isinstance(e, TurnEnded) and e.unit == "aki"]
    assert [(s.natural, s.success, s.failed) for s in ended.saves] == [(9, False, 1)]
    events = rounds(game, aki=[10])
    assert [e.effect.conditions for e in events if isinstance(e, EffectApplied)] == [("減速",)]
    assert [a.effect.conditions for a in game.unit("aki").effects] == [("減速",)]


def test_the_second_failure_starts_what_it_says() -> None:
    """L325 セーヴ失敗・2回目: 朦朧 instead."""
    game = game_with()
    game.do("gm", "add_effect", unit="aki", effect=ACID, reason="酸")
    rounds(game, aki=[3])
    rounds(game, aki=[4])
    assert [a.effect.conditions for a in game.unit("aki").effects] == [("朦朧",)]


def test_the_same_rider_twice_is_one_effect_and_one_save() -> None:
    """L314–318."""
    game = game_with()
    game.do("gm", "add_effect", unit="aki", effect=SLOW, reason="A")
    game.refused("gm", "add_effect", "already_has_effect", unit="aki", effect=SLOW, reason="B")
    game.do("seat:1", "start_turn")
    game.refused("seat:1", "end_turn", "faces_mismatch", faces=[10, 10])


def test_ongoing_damage_at_the_start_of_each_turn() -> None:
    """L382 「自身のターンの開始時にXダメージを受ける」; identical riders do not add up."""
    game = game_with()
    game.do("gm", "add_effect", unit="aki", effect={"ongoing": 5}, reason="炎")
    game.do("gm", "add_effect", unit="aki", effect={"ongoing": 3}, reason="酸")
    started = game.do("seat:1", "start_turn")
    (burn,) = [e for e in started if isinstance(e, HpChanged)]
    assert burn.change == -8 and burn.hp == 32


def test_total_defence_ends_at_the_start_of_the_next_turn() -> None:
    """L90."""
    game = game_with()
    game.do("seat:1", "start_turn")
    game.do("seat:1", "total_defence", unit="aki")
    game.do("seat:1", "end_turn")
    assert game.unit("aki").effects
    game.do("gm", "start_turn")
    game.do("gm", "end_turn")
    game.do("seat:1", "start_turn")
    assert not game.unit("aki").effects


def test_prone_melee_gains_advantage_ranged_takes_minus_2_and_the_unit_must_stand() -> None:
    """L346–347 (melee: 戦術的優位; ranged: −2), L363 (no shift), L365 (stand: a move)."""
    game = game_with()
    game.do("seat:1", "start_turn")
    game.do(
        "seat:1", "use_power", unit="aki", power="足払い", targets=["boss"], weapon="ビームサーベル"
    )
    game.do("seat:1", "attack_roll", faces=[15])
    assert game.unit("boss").prone
    game.do("seat:1", "end_turn")
    game.do("gm", "start_turn")
    game.refused("gm", "move", "prone", unit="boss", kind="シフト")
    game.do("gm", "move", unit="boss", kind="這い進み")
    game.do("gm", "end_turn")
    game.do("seat:1", "start_turn")
    game.do(
        "seat:1",
        "use_power",
        unit="aki",
        power="近接基礎攻撃",
        targets=["boss"],
        weapon="ビームサーベル",
    )
    (melee,) = game.do("seat:1", "attack_roll", faces=[2])
    assert [m.name for m in melee.rolls[0].modifiers] == ["戦術的優位"]
    assert melee.rolls[0].total == 2 + 10 + 2 and melee.complete  # a miss: nothing to roll
    game.do("seat:1", "end_turn")
    game.do("gm", "start_turn")
    game.do("gm", "end_turn")
    game.do("seat:1", "start_turn")
    game.do(
        "seat:1",
        "use_power",
        unit="aki",
        power="遠隔基礎攻撃",
        targets=["boss"],
        weapon="ビームライフル",
    )
    (ranged,) = game.do("seat:1", "attack_roll", faces=[2])
    assert [(m.name, m.value) for m in ranged.rolls[0].modifiers] == [("伏せ", -2)]


def test_immobilized_units_may_still_teleport_and_stand() -> None:
    """L374–376."""
    game = game_with(powers=[NET])
    game.do("seat:1", "start_turn")
    game.do("seat:1", "end_turn")
    game.do("gm", "start_turn")
    game.do("gm", "use_power", unit="boss", power="ネット弾", targets=["aki"])
    game.do("gm", "attack_roll", faces=[1])
    game.do("gm", "end_turn")
    game.do("seat:1", "start_turn")
    game.refused("seat:1", "move", "immobilized", unit="aki", kind="通常移動")
    game.do("seat:1", "move", unit="aki", kind="瞬間移動")


def test_a_coup_de_grace_on_a_helpless_unit_crits_on_a_hit() -> None:
    """L395–397 「ヒットしたならば、その攻撃はクリティカルヒット」."""
    game = game_with()
    game.do("seat:1", "start_turn")
    game.refused(
        "seat:1",
        "use_power",
        "bad_coup_de_grace",
        unit="aki",
        power="近接基礎攻撃",
        targets=["boss"],
        weapon="ビームサーベル",
        coup_de_grace=True,
    )
    game.do("gm", "add_effect", unit="boss", effect={"conditions": ["無防備"]}, reason="眠り")
    game.do(
        "seat:1",
        "use_power",
        unit="aki",
        power="近接基礎攻撃",
        targets=["boss"],
        weapon="ビームサーベル",
        coup_de_grace=True,
    )
    (rolled,) = game.do("seat:1", "attack_roll", faces=[5])  # 5 + 10 + CA 2 vs AC 18 − 5
    assert rolled.rolls[0].critical and rolled.rolls[0].outcome == "hit"
    (dealt, *_) = game.do("seat:1", "damage_roll")
    assert dealt.dealt[0].amount == 8 + 5  # 1W maximised + 【出力】4 + 強化1


def test_an_extra_save_ends_the_effect_or_fails_without_counting() -> None:
    """L327–329 「追加のセーヴィング・スローは失敗しても…『セーヴ失敗・X回目』には
    カウントされない」."""
    game = game_with()
    (applied,) = game.do("gm", "add_effect", unit="aki", effect=ACID, reason="酸")
    game.do("seat:1", "extra_save", unit="aki", effect=applied.id, faces=[3])
    game.do("seat:1", "extra_save", unit="aki", effect=applied.id, faces=[4])
    assert game.unit("aki").effects[0].failed == 0  # two failures, no セーヴ失敗・2回目
    game.refused("seat:2", "extra_save", "not_your_unit", unit="aki", effect=applied.id)
    game.do("seat:1", "extra_save", unit="aki", effect=applied.id, faces=[11])
    assert [a.effect.conditions for a in game.unit("aki").effects] == [("減速",)]
    game.refused("seat:1", "start_turn", "no_death_save", faces=[20])
