"""Worked examples from shared/rules and shared/seeds that concern dice."""

from __future__ import annotations

import pytest

from domain.rulesets.ninja_slayer.dice import parse  # the common commands and Ninja Slayer's


def test_mech_d20_critical_damage_example() -> None:
    # 戦闘ルール: 2W with a 1d10 weapon on a critical counts as 2d10's maximum, 20.
    result = parse("2D10").evaluate([10, 10])
    assert result.total == 20


@pytest.mark.parametrize(
    ("face", "success", "criticals"),
    [(9, False, ()), (10, True, ()), (20, True, ("critical",)), (1, False, ("fumble",))],
)
def test_mech_d20_death_save(face: int, success: bool, criticals: tuple[str, ...]) -> None:
    # 戦闘不能セーヴ: raw 1d20, 9 or less fails, 10 or more succeeds, 20 spends a 回復力.
    result = parse("1D20>=10").evaluate([face])
    assert result.success is success
    assert result.criticals == criticals


def test_mech_d20_attack_natural_20_is_critical() -> None:
    # 命中ロールで出目20が出てしまった場合…クリティカルヒット.
    result = parse("1D20+7>=30").evaluate([20])
    assert result.total == 27
    assert result.criticals == ("critical",)


@pytest.mark.parametrize(("faces", "success"), [([2, 3], True), ([3, 3], False)])
def test_chojin_locke_stat_check(faces: list[int], success: bool) -> None:
    # (能力値)チェック: 2D6, success iff the roll is at most the declared value.
    assert parse("2D6<=5").evaluate(faces).success is success


@pytest.mark.parametrize(("face", "success"), [(3, True), (4, False)])
def test_chojin_locke_teleport(face: int, success: bool) -> None:
    # テレポート: 1D6 at most the declared ESP level moves exactly that many squares.
    result = parse("1D6<=3").evaluate([face])
    assert result.success is success
    assert result.total == face


def test_chojin_locke_prison_chart_after_one_failure() -> None:
    # 刑務所チャート: +1 to the roll for each earlier failed escape.
    result = parse("2D6+1").evaluate([4, 5])
    assert result.total == 10
    assert result.explanation == "(2D6+1) ＞ 9[4,5]+1 ＞ 10"


def test_ninja_slayer_counter_karate_needs_more_successes_than_the_attack() -> None:
    # カウンターカラテ: evasion successes must exceed the attack's; 3 vs 2 counters.
    assert parse("EV5/2").evaluate([4, 4, 4, 1, 1]).criticals == ("カウンターカラテ",)
    assert parse("EV5/3").evaluate([4, 4, 4, 1, 1]).criticals == ()


def test_ninja_slayer_check_is_not_a_sum() -> None:
    # 判定: any die at or above the difficulty succeeds; dice are not added.
    result = parse("N3").evaluate([1, 1, 4])
    assert result.success is True
    assert result.total is None
