"""Reroll (R) and upper (U) dice: dice asked for after the faces they depend on."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from domain.dice import MAX_REROLLS, DiceError, DiceRequest, parse


def cycling(*faces: int) -> Callable[[int], int]:
    source = itertools.cycle(faces)
    return lambda sides: min(next(source), sides)


def test_reroll_rounds_go_group_by_group() -> None:
    expr = parse("2R4+2R6[<=2]>=4")
    assert expr.dice == (DiceRequest(2, 4), DiceRequest(2, 6))
    assert expr.rerolls
    faces = [4, 2, 3, 5, 2, 4]
    requests = expr.requests_for(faces)
    assert [(r.count, r.sides) for r in requests] == [(2, 4), (2, 6), (1, 4), (1, 4)]
    result = expr.evaluate(faces)
    assert (result.successes, result.success) == (3, True)


@pytest.mark.parametrize(
    ("command", "condition"),
    [
        ("3R6>=5", "[5]>=5"),  # the target is the condition
        ("3R6[6]>=5", "[6]>=5"),
        ("3R6@6>=5", None),  # @ comes after the target
        ("3R6>=5@6", "[6]>=5"),
        ("3R6[>5]>=5", "[>5]>=5"),
        ("3R6>3", "[3]>3"),  # a bare number takes the target's comparison
        ("3R6[6]", "[>=6]"),  # no target: >= and no successes
        ("3R6[<=2]", "[<=2]"),
    ],
)
def test_reroll_conditions(command: str, condition: str | None) -> None:
    if condition is None:
        with pytest.raises(DiceError):
            parse(command)
        return
    assert parse(command).text == "3R6" + condition


def test_without_a_target_reroll_dice_count_nothing() -> None:
    result = parse("2R6[3]").evaluate([3, 2, 1])
    assert (result.successes, result.success) == (0, None)


def test_upper_dice_roll_die_by_die() -> None:
    expr = parse("2U6+2U4[4]+6")
    faces = [1, 5, 5, 3, 2, 4, 4, 4, 3]
    sides = [r.sides for r in expr.requests_for(faces) for _ in range(r.count)]
    assert sides == [6, 6, 6, 6, 4, 4, 4, 4, 4]
    result = expr.evaluate(faces)
    assert (result.total, result.highest, result.successes) == (37, 21, None)
    with_target = parse("2U6+2U4[4]+6>=8").evaluate(faces)
    assert (with_target.successes, with_target.total, with_target.highest) == (3, None, None)


def test_upper_modifier_is_ordinary_arithmetic() -> None:
    assert parse("1U6[6]-3+2").text == "1U6[6]-1"
    assert parse("1U6[6]+1+2+10").text == "1U6[6]+13"


def test_upper_dice_json_leaves_unset_fields_out() -> None:
    plain = parse("2D6").evaluate([1, 2]).model_dump(mode="json")
    assert "highest" not in plain and "value" not in plain
    upper = parse("1U6[3]").evaluate([3, 2]).model_dump(mode="json")
    assert upper["highest"] == 5 and "value" not in upper


def test_rolling_with_a_die_and_evaluating_its_faces_agree() -> None:
    for command in ("5R6[5]>=4", "x3 2U6[5]+1", "3R10[<=3]", "2U4[3]>=6"):
        expr = parse(command)
        rolled = expr.roll(cycling(5, 6, 1, 3, 2, 4))
        again = expr.replay(rolled.result.faces)
        assert again == rolled
        assert sum(r.count for r in rolled.requests) == len(rolled.result.faces)


@pytest.mark.parametrize("command", ["1R6[6]", "2U6[6]", "x2 1R6[6]>=6"])
def test_rerolls_stop_at_the_limit_and_say_so(command: str) -> None:
    expr = parse(command)
    rolled = expr.roll(lambda sides: sides)  # every die shows its highest face
    written = sum(r.count for r in expr.dice)
    assert len(rolled.result.faces) == written + MAX_REROLLS
    assert f"振り足し上限{MAX_REROLLS}個" in rolled.result.explanation
    assert expr.evaluate(rolled.result.faces) == rolled.result


def test_reroll_faces_must_be_exactly_those_the_rerolls_need() -> None:
    expr = parse("2R6[6]>=5")
    assert expr.evaluate([6, 1, 2]).successes == 1
    with pytest.raises(DiceError) as short:
        expr.evaluate([6, 1])
    assert short.value.code == "bad_faces" and "not enough faces" in short.value.message
    with pytest.raises(DiceError) as extra:
        expr.evaluate([6, 1, 2, 3])
    assert extra.value.code == "bad_faces" and "expected 3 faces" in extra.value.message
    with pytest.raises(DiceError) as wrong:
        expr.evaluate([6, 1, 7])
    assert wrong.value.code == "bad_faces" and "outside 1..6" in wrong.value.message


@pytest.mark.parametrize(
    "command",
    [
        "2R6",
        "2R6<=7",
        "2R6[1]",
        "2R6[>0]",
        "2R6[<7]",
        "2R6[!=7]",
        "1R1[=1]",
        "2R6[6]@6",
        "4U6",
        "4U6[1]",
        "4U6[0]>=3",
        "4U6==21",
        "4U6[6]+1>=9@6",
    ],
)
def test_conditions_that_cannot_stop_or_are_missing_are_refused(command: str) -> None:
    with pytest.raises(DiceError) as caught:
        parse(command)
    assert caught.value.code == "dice_syntax"


def test_written_dice_count_against_the_limit() -> None:
    with pytest.raises(DiceError) as caught:
        parse("60R6+41R6[6]")
    assert caught.value.code == "dice_limit"
