"""Sums with BCDice's full arithmetic: precedence, rounding, signs, keep/drop, bare D, d66."""

from __future__ import annotations

import pytest

from domain.dice import MAX_VALUE, DiceError, DiceRequest, parse


@pytest.mark.parametrize(
    ("command", "total"),
    [
        # Rounding: none/F toward minus infinity, U/C up, R to nearest with halves away from 0.
        ("1D1*7/2", 3),
        ("1D1*7/2F", 3),
        ("1D1*7/2U", 4),
        ("1D1*7/2C", 4),
        ("1D1*7/2R", 4),
        ("1D1*-7/2", -4),
        ("1D1*-7/2F", -4),
        ("1D1*-7/2U", -3),
        ("1D1*-7/2R", -4),
        ("1D1*5/3R", 2),
        ("1D1*4/3R", 1),
        ("1D1*-4/3R", -1),
        ("1D1*-5/3R", -2),
        ("1D1*6/-4R", -2),
        ("1D1*6/-4U", -1),
        # Precedence and signs.
        ("1D1+2*3", 7),
        ("(1D1+2)*3", 9),
        ("1D1-2-3", -4),
        ("1D1--2", 3),
        ("1D1+-2", -1),
        ("--1D1", 1),
        ("-(1D1+2)*2", -6),
        ("1D1*2/2*3", 3),
        ("2*-1D1", -2),
        ("+1D1", 1),
    ],
)
def test_arithmetic_values(command: str, total: int) -> None:
    assert parse(command).evaluate([1]).total == total


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("2d10--3-4", "2D10+3-4"),
        ("2d10+-3", "2D10-3"),
        ("--2D6", "2D6"),
        ("+2D6", "2D6"),
        ("1D6/2C", "1D6/2U"),
        ("1D6/2f", "1D6/2F"),
        ("(2+3)D(5+5)KH(5-2)", "5D10KH3"),
        ("3D6MAX", "3D6KH1"),
        ("3d6min+1", "3D6KL1+1"),
        ("5DKH3", "5D6KH3"),
        ("D20", "1D20"),
        ("d66", "D66"),
        ("D66+1", "1D66+1"),
        ("((2D6))", "((2D6))"),
        ("1d6>=1+2", "1D6>=3"),
        ("2D6>=(1+2)*3", "2D6>=9"),
        ("2D6<-1-2", "2D6<-3"),
    ],
)
def test_canonical_text(raw: str, text: str) -> None:
    assert parse(raw).text == text
    assert parse(text).text == text


def test_keep_and_drop_count_sorted_faces() -> None:
    faces = [8, 3, 2, 5, 8]
    totals = {rule: parse(f"5D10{rule}").evaluate(faces).total for rule in ("KH3", "KL3")}
    assert totals == {"KH3": 21, "KL3": 10}
    assert parse("5D10DH3").evaluate(faces).total == 5
    assert parse("5D10DL3").evaluate(faces).total == 16
    assert parse("5D10KH0").evaluate(faces).total == 0
    assert parse("5D10KH7").evaluate(faces).total == 26
    assert parse("5D10DH7").evaluate(faces).total == 0


def test_advantage_marks_no_natural() -> None:
    result = parse("2D20KH1+5").evaluate([20, 3])
    assert result.total == 25
    assert result.criticals == ()


def test_one_d20_in_a_calculation_is_still_marked() -> None:
    result = parse("(1D20+2)*2").evaluate([20])
    assert (result.total, result.criticals) == (44, ("critical",))


def test_d66_dice_in_a_sum_are_two_d6_each() -> None:
    expr = parse("1D3+2D66")
    assert expr.dice == (DiceRequest(1, 3), DiceRequest(4, 6))
    assert expr.evaluate([3, 1, 6, 6, 1]).total == 3 + 16 + 61


def test_lone_die_skips_the_middle_step_only_when_alone() -> None:
    assert parse("1D6").evaluate([4]).explanation == "(1D6) ＞ 4"
    assert parse("(1D6)").evaluate([4]).explanation == "((1D6)) ＞ (4[4]) ＞ 4"
    assert parse("1D6*1").evaluate([4]).explanation == "(1D6*1) ＞ 4[4]*1 ＞ 4"


def test_values_that_could_get_too_large_are_refused_before_rolling() -> None:
    parse(f"1D1*{MAX_VALUE // 1_000_000}*1000000")
    for command in ("1D6*1000000*1000000", "C(1000000*1000000*2)", "1D6>=1000000*1000000*2"):
        with pytest.raises(DiceError) as caught:
            parse(command)
        assert caught.value.code == "dice_limit"


@pytest.mark.parametrize("command", ["1D6/0", "1D6/(2-2)", "1D6/(1D2-1)", "C(1/0)", "1D6/(0*5)"])
def test_division_by_what_can_be_zero_is_refused(command: str) -> None:
    with pytest.raises(DiceError) as caught:
        parse(command)
    assert caught.value.code == "dice_syntax"
    assert "division by" in caught.value.message


def test_a_divisor_with_dice_that_cannot_be_zero_is_fine() -> None:
    assert parse("2D6/1D3").evaluate([6, 6, 3]).total == 4


def test_counts_and_sides_from_calculations_are_checked_like_numbers() -> None:
    for command, code in (
        ("(1-1)D6", "dice_limit"),
        ("2D(500*3)", "dice_limit"),
        ("(1D6)D6", "dice_syntax"),
    ):
        with pytest.raises(DiceError) as caught:
            parse(command)
        assert caught.value.code == code
