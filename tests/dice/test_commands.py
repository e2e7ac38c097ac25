"""D66, C(), CHOICE, repetition, the S prefix on every command, Ninja Slayer's extra counts."""

from __future__ import annotations

import pytest

from domain.dice import DiceError, DiceRequest
from domain.rulesets.ninja_slayer.dice import parse  # the common commands and Ninja Slayer's


@pytest.mark.parametrize(
    ("command", "faces", "total"),
    [
        ("D66", [6, 1], 61),
        ("D66N", [6, 1], 61),
        ("D66A", [6, 1], 16),
        ("D66S", [6, 1], 16),
        ("D66D", [1, 6], 61),
        ("D66D", [6, 1], 61),
        ("D66A", [2, 2], 22),
    ],
)
def test_d66(command: str, faces: list[int], total: int) -> None:
    result = parse(command).evaluate(faces)
    assert result.total == total
    assert result.faces == tuple(faces)


def test_calculation_rolls_nothing() -> None:
    expr = parse("SC(1+2*3) 計算")
    assert (expr.text, expr.secret, expr.comment, expr.dice) == ("C(1+2*3)", True, "計算", ())
    result = expr.evaluate([])
    assert (result.total, result.faces, result.explanation) == (7, (), "計算結果 ＞ 7")
    assert parse("c1+4*3/2").evaluate([]).total == 7
    assert parse("C(-1---1)").evaluate([]).total == -2


def test_choice_keeps_items_as_typed() -> None:
    expr = parse("choice[The Call of Cthulhu, ＡＢＣ ,,  ,The Haunter] 運命")
    assert expr.text == "choice[The Call of Cthulhu,ＡＢＣ,The Haunter]"
    assert expr.comment == "運命"
    assert expr.dice == (DiceRequest(1, 3),)
    result = expr.evaluate([2])
    assert (result.value, result.total) == ("ＡＢＣ", None)
    assert result.explanation == "(choice[The Call of Cthulhu,ＡＢＣ,The Haunter]) ＞ ＡＢＣ"
    assert parse(expr.text).text == expr.text


def test_choice_forms() -> None:
    assert parse("ＣＨＯＩＣＥ［あ，い］").evaluate([2]).value == "い"
    assert parse("choice(A[], B[])").evaluate([1]).value == "A[]"
    spaced = parse("Schoice A,B P,J Z,Y")
    assert (spaced.secret, spaced.comment, spaced.text) == (True, "", "choice A,B P,J Z,Y")
    assert spaced.evaluate([3]).value == "Z,Y"


def test_repetition() -> None:
    expr = parse("x3 S2D6>=7 連撃")
    assert (expr.text, expr.secret, expr.comment) == ("x3 2D6>=7", True, "連撃")
    assert expr.dice == (DiceRequest(2, 6),) * 3
    result = expr.evaluate([1, 2, 6, 6, 3, 4])
    assert [p.success for p in result.parts] == [False, True, True]
    assert result.faces == (1, 2, 6, 6, 3, 4)
    assert (result.total, result.success, result.successes) == (None, None, None)
    assert parse("repeat2 1D6").text == parse("rep2 1D6").text == "x2 1D6"
    assert parse("Sx2 1D6").secret


@pytest.mark.parametrize(
    "command",
    [
        "S2D6",
        "S(2D6+1)*2",
        "S4D6KH3",
        "SD66",
        "S5B6>=4",
        "S3R6[6]",
        "S2U6[6]",
        "SC(1)",
        "Schoice[a,b]",
        "Sx2 1D6",
        "x2 S1D6",
        "SN5[S]",
        "SE1,N2",
        "SNJ4",
        "SAT4",
        "SEV4/1",
        "SEL4",
        "SWS8",
    ],
)
def test_the_secret_prefix_works_on_every_command(command: str) -> None:
    expr = parse(command)
    assert expr.secret
    assert not parse(expr.text).secret


def test_ninja_extra_counts_add_to_the_successes() -> None:
    result = parse("N5[S][C][>=5]").evaluate([4, 6, 3, 1, 5])
    assert result.successes == 3 + 1 + 1 + 2
    assert parse("U2[<=2]").evaluate([1, 1]).success  # BCDice: the counts make it a success
    assert parse("n3[s5][c][=1]").text == "N3[S5][C][=1]"
    assert parse("N3[<>1]").text == "N3[!=1]"


def test_a_difficulty_per_pool() -> None:
    expr = parse("E1,2,N3")
    assert expr.text == "E1,E2,N3"
    assert parse("N1,N2").text == "N1,2"
    result = expr.evaluate([3, 3, 2, 4, 4, 3])
    assert [p.text for p in result.parts] == ["E1", "E2", "N3"]
    assert [p.successes for p in result.parts] == [1, 1, 2]


def test_electronic_warfare_counts_each_six_again() -> None:
    result = parse("EL4[H]").evaluate([2, 5, 6, 6])
    assert (result.successes, result.success) == (5, True)
    assert result.explanation == "(4B6>=5) ＞ 2,5,6,6 ＞ 成功数3 + 2 ＞ 5"


@pytest.mark.parametrize(
    ("raw", "position"),
    [("x2 2D6>=", 8), ("  x2  1D6+", 10), ("S2D6>=", 6), ("choice[a,b]c", 11), ("2D6>=7 ok", None)],
)
def test_positions_point_into_what_was_typed(raw: str, position: int | None) -> None:
    if position is None:
        parse(raw)
        return
    with pytest.raises(DiceError) as caught:
        parse(raw)
    assert caught.value.position == position
