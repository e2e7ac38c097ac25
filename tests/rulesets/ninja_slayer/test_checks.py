"""Checks, difficulty steps, face patterns and 即応ダイス: the seed's worked examples."""

from __future__ import annotations

from typing import Any

import pytest

from domain.rulesets.ninja_slayer import difficulty as ladder
from domain.rulesets.ninja_slayer.rolls import patterns
from domain.rulesets.ninja_slayer.sheet import Sheet

from .harness import PC_SHEET, Game

CHECK = "ninja_slayer.check"


def game_with_pc(**sheet: Any) -> Game:
    game = Game()
    game.add("seat:1", "aki", "pc", {**PC_SHEET, **sheet})
    return game


def check(game: Game, **body: Any) -> Any:
    (event,) = game.do("seat:1", {"type": CHECK, "character": "aki", **body})
    return event


@pytest.mark.parametrize(("difficulty", "successes"), [("UH3", 4), ("UH2", 5), ("UH", 6)])
def test_ultra_hard_counting_seed_example(difficulty: str, successes: int) -> None:
    # 超高難易度での成功数比較: six 6s are 4 successes at UH3, 5 at UH2, 6 at UH.
    game = game_with_pc(karate=6)
    event = check(game, stat="カラテ", difficulty=difficulty, faces=[6] * 6)
    assert event.successes == successes
    assert event.detail.difficulty == difficulty


def test_a_check_records_its_pool_difficulty_faces_and_patterns() -> None:
    game = game_with_pc()
    event = check(
        game,
        stat="カラテ",
        difficulty="N",
        modifiers=[{"name": "暗闇", "delta": 1}, {"name": "援護", "delta": -1}],
        bonus_dice=1,
        reaction_dice=2,
        faces=[6, 6, 1, 2, 3, 4, 4, 5],
    )
    detail = event.detail
    assert detail.pool.stat_value == 5 and detail.pool.bonus == 1 and detail.pool.reaction == 2
    assert detail.pool.size == 8
    assert detail.roll.expression == "NJ8[N]" and detail.roll.manual is True
    assert detail.difficulty == "N" and [m.name for m in detail.modifiers] == ["暗闇", "援護"]
    assert event.successes == 5 and event.success is True
    assert detail.patterns == ("【6,5+】", "【6,6】")
    assert game.char("aki").now.reaction == 3  # 5 unarmed, 2 declared and spent


@pytest.mark.parametrize(
    ("base", "deltas", "final"),
    [
        ("N", [1], "H"),  # NORMAL +1 → HARD (the seed's example)
        ("N", [-1], "E"),  # 集中状態 on an attack: EASY
        ("N", [1, 1], "UH"),
        ("N", [1, -1, 1], "H"),  # all modifiers add up
        ("H", [2], "UH2"),
        ("K", [-1], "K"),  # the ladder's end (docs/rulings.md)
        ("UH3", [1], "UH3"),
    ],
)
def test_difficulty_steps(base: str, deltas: list[int], final: str) -> None:
    modifiers = [ladder.Modifier(name=f"m{i}", delta=d) for i, d in enumerate(deltas)]
    assert ladder.apply(base, modifiers)[0] == final


def test_a_modified_difficulty_does_not_change_face_patterns() -> None:
    game = game_with_pc(karate=3)
    event = check(game, stat="カラテ", modifiers=[{"name": "x", "delta": 2}], faces=[6, 6, 1])
    assert event.detail.difficulty == "UH" and event.successes == 2
    assert "【6,6】" in event.detail.patterns


@pytest.mark.parametrize(
    ("faces", "found"),
    [
        ([6, 6, 1], ["【6,5+】", "【6,6】"]),  # two 6s satisfy 【6,5+】 too
        ([6, 6, 6], ["【6,5+】", "【6,6】", "【6,6,6】"]),  # better faces satisfy 【6,6】
        ([6, 5, 1], ["【6,5+】"]),
        ([6, 4, 4], []),
        ([5, 5, 5], []),
    ],
)
def test_face_patterns(faces: list[int], found: list[str]) -> None:
    assert patterns(faces) == found


@pytest.mark.parametrize(
    ("weapons", "dice"),
    [
        ([], 5),  # unarmed starting ninja
        ([{"name": "カタナ"}], 4),  # カタナ as a starting item
        ([{"name": "ウイルス入りフロッピー"}], 4),
        ([{"name": "カタナ"}, {"name": "ノダチ", "slots": 2}], 2),
    ],
)
def test_reaction_dice_start_from_weapon_slots(weapons: list[dict[str, Any]], dice: int) -> None:
    assert Sheet.model_validate({**PC_SHEET, "weapons": weapons}).starting_reaction_dice() == dice
    game = game_with_pc(weapons=weapons)
    assert game.char("aki").now.reaction == dice


def test_overspent_reaction_dice_are_refused_and_nothing_changes() -> None:
    game = game_with_pc(weapons=[{"name": "カタナ"}])
    check(game, stat="カラテ", reaction_dice=3, faces=[1] * 8)
    error = game.refused(
        "seat:1",
        {"type": CHECK, "character": "aki", "stat": "カラテ", "reaction_dice": 2, "faces": [1] * 7},
        "not_enough_reaction_dice",
    )
    assert "only 1 left" in error.message


@pytest.mark.parametrize(
    "body",
    [
        {"purpose": "table", "stat": None, "bonus_dice": 1},
        {"purpose": "damage", "stat": None, "bonus_dice": 2},
        {"purpose": "check", "stat": None, "bonus_dice": 2},  # fixed dice
    ],
)
def test_reaction_dice_are_refused_on_tables_damage_and_fixed_dice(body: dict[str, Any]) -> None:
    game = game_with_pc()
    game.refused(
        "seat:1",
        {"type": CHECK, "character": "aki", "reaction_dice": 1, **body},
        "reaction_dice_not_allowed",
    )


def test_only_the_owner_or_gm_rolls_for_a_character() -> None:
    game = game_with_pc()
    game.refused(
        "seat:2", {"type": CHECK, "character": "aki", "stat": "カラテ"}, "not_your_character"
    )
    check(game, stat="ジツ", faces=[])  # ジツ 0: no dice, a failure, not an error


def test_server_dice_when_the_policy_allows_them() -> None:
    game = Game(policy="server")
    game.add("seat:1", "aki", "pc", PC_SHEET)
    event = check(game, stat="カラテ")
    assert event.detail.roll.draw is not None and event.detail.roll.draw.roll == 1
    assert game.state.draws == 1
    game.refused(
        "seat:1",
        {"type": CHECK, "character": "aki", "stat": "カラテ", "faces": [1] * 5},
        "manual_dice_not_allowed",
    )


def test_sixth_sense_rerolls_one_check_once_per_scenario() -> None:
    game = game_with_pc(neuron=13)
    first = check(game, stat="カラテ", reaction_dice=1, faces=[1] * 6)
    seq = game.state.version
    assert first.success is False
    _, again = game.do(
        "seat:1",
        {
            "type": "ninja_slayer.sixth_sense",
            "character": "aki",
            "check_seq": seq,
            "faces": [6, 1, 1, 1, 1, 1],
        },
    )
    assert again.reroll_of == seq and again.success is True
    assert again.detail.pool.size == 6
    assert game.char("aki").now.reaction == 4  # the reroll costs no new 即応ダイス
    game.refused(
        "seat:1",
        {"type": "ninja_slayer.sixth_sense", "character": "aki", "check_seq": seq},
        "sixth_sense_used",
    )


def test_sixth_sense_needs_neuron_13_and_is_not_for_tables() -> None:
    game = game_with_pc(neuron=12)
    check(game, stat="カラテ", faces=[1] * 5)
    body = {"type": "ninja_slayer.sixth_sense", "character": "aki", "check_seq": 4}
    game.refused("seat:1", body, "no_sixth_sense")
    sixth = game_with_pc(neuron=13)
    check(sixth, purpose="table", bonus_dice=1, faces=[3])
    body["check_seq"] = sixth.state.version
    sixth.refused("seat:1", body, "not_a_check")
