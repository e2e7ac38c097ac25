"""The encounter's flow through the decider: initiative, turns, delay, the action economy."""

from __future__ import annotations

from typing import Any

from domain.rulesets.mech_d20.turns import Delayed, TurnStarted

from .harness import Game


def duel(**boss: Any) -> Game:
    game = Game()
    game.add("aki")
    game.add("boss", kind="npc", max_hp=80, **boss)
    game.begin({"aki": 15, "boss": 5})
    return game


def test_a_basic_attack_from_the_public_sheet_against_the_sealed_defence() -> None:
    """L272: 1d20 + 【出力】4 + 命中補正3 + 習熟2 + 強化1; L287: 1W + 【出力】 + 強化."""
    game = duel()
    game.do("seat:1", "start_turn")
    game.do(
        "seat:1",
        "use_power",
        unit="aki",
        power="近接基礎攻撃",
        targets=["boss"],
        weapon="ビームサーベル",
    )
    (rolled,) = game.do("seat:1", "attack_roll", faces=[8])
    (roll,) = rolled.rolls
    assert (roll.total, roll.outcome) == (18, "hit")  # AC 18: a tie hits (L6)
    assert roll.roll.expression == "1D20+10"  # no target number in the public roll
    assert rolled.secret.rolls[0].defence.value == 18
    dealt = game.do("seat:1", "damage_roll", faces=[5])
    assert dealt[0].dealt[0].amount == 10 and game.unit("boss").hp == 70


def test_ties_go_to_agility_then_to_players() -> None:
    """L41–42."""
    game = Game()
    game.add("pc", abilities={"出力": 4, "敏捷力": 3})
    game.add("npc", kind="npc", abilities={"出力": 4, "敏捷力": 3})
    game.add("quick", kind="npc", abilities={"出力": 4, "敏捷力": 5})
    game.begin({"npc": 12, "pc": 12, "quick": 10})  # 17, 17, 17
    assert [p.unit for p in game.encounter.order] == ["quick", "pc", "npc"]


def test_server_rolled_initiative_is_sealed_for_npcs() -> None:
    game = Game()
    game.add("aki")
    game.add("boss", kind="npc")
    (began,) = game.do("gm", "begin_encounter", participants=["aki", "boss"])
    assert [r.unit for r in began.rolls] == ["aki"]
    assert [r.unit for r in began.secret.rolls] == ["boss"]
    assert began.rolls[0].roll.draw is not None and began.rolls[0].roll.draw.roll == 1


def test_turns_go_to_their_unit_in_order() -> None:
    game = duel()
    game.refused("gm", "start_turn", "not_up", unit="boss")
    game.refused("seat:2", "start_turn", "not_your_unit")
    game.do("seat:1", "start_turn")
    game.refused("seat:1", "start_turn", "turn_in_progress")
    game.do("seat:1", "end_turn")
    game.do("gm", "start_turn")
    game.do("gm", "end_turn")
    assert game.encounter.round == 2 and game.encounter.done == ()


def test_heavier_actions_taken_as_lighter_ones() -> None:
    """L13–15, L150: three minors (minor, move, standard), then nothing."""
    game = duel()
    game.do("seat:1", "start_turn")
    slots = [
        game.do("seat:1", "act", unit="aki", action="マイナー", what="武器を装備")[0].slot
        for _ in range(3)
    ]
    assert slots == ["minor", "move", "standard"]
    game.refused("seat:1", "act", "no_action_of_that_kind", unit="aki", action="マイナー", what="x")
    game.do("seat:1", "act", unit="aki", action="フリー", what="通信")


def test_a_delay_lowers_the_initiative_for_good() -> None:
    """L163–166; the delayer's own end-of-next-turn effects end (L167, ruling MD-008)."""
    game = Game()
    game.add("aki", powers=[FOCUS])
    game.add("ben", owner="seat:2")
    game.add("boss", kind="npc")
    game.begin({"aki": 15, "ben": 10, "boss": 5})
    game.do("seat:1", "start_turn")
    game.do("seat:1", "use_power", unit="aki", power="集中")
    game.do("seat:1", "end_turn")
    game.do("seat:2", "start_turn")
    game.do("seat:2", "end_turn")
    game.do("gm", "start_turn")
    game.do("gm", "end_turn")
    assert game.unit("aki").effects  # 集中 lasts until the end of アキ's next turn
    game.refused("seat:1", "delay", "delay_not_lower", value=20)
    delayed = game.do("seat:1", "delay", value=12)
    assert isinstance(delayed[0], Delayed) and delayed[0].ended == (1,)
    assert not game.unit("aki").effects
    assert [p.unit for p in game.encounter.order] == ["ben", "aki", "boss"]
    started = game.do("seat:2", "start_turn")
    assert isinstance(started[0], TurnStarted) and started[0].unit == "ben"
    game.do("seat:2", "end_turn")
    game.do("seat:1", "start_turn")
    game.do("seat:1", "end_turn")
    game.do("gm", "start_turn")
    game.do("gm", "end_turn")
    assert [p.unit for p in game.encounter.order] == ["ben", "aki", "boss"]  # round 3 too


def test_a_down_unit_cannot_delay() -> None:
    """Ruling MD-007."""
    game = duel()
    game.do("gm", "adjust", unit="aki", hp=-45, reason="test")
    game.refused("seat:1", "delay", "cannot_delay", value=1)


FOCUS = {
    "name": "集中",
    "action": "マイナー",
    "keywords": ["精神コマンド"],
    "range": "自身",
    "targets": 0,
    "self_effects": [
        {
            "modifiers": [{"name": "集中", "value": 2, "applies": "attack"}],
            "duration": "end_of_next_turn",
        }
    ],
}
