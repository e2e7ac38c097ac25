"""Sum commands: NdS terms, constants, comparisons, d20 criticals."""

from __future__ import annotations

import pytest

from domain.dice import DiceRequest, RollResult, parse


@pytest.mark.parametrize(
    ("command", "faces", "total", "success", "explanation"),
    [
        ("2D6", [3, 4], 7, None, "(2D6) ＞ 7[3,4] ＞ 7"),
        ("2D6>=7", [3, 4], 7, True, "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"),
        ("2D6>=7", [2, 4], 6, False, "(2D6>=7) ＞ 6[2,4] ＞ 6 ＞ 失敗"),
        ("2D6<=7", [6, 2], 8, False, "(2D6<=7) ＞ 8[6,2] ＞ 8 ＞ 失敗"),
        ("2D6>7", [3, 4], 7, False, "(2D6>7) ＞ 7[3,4] ＞ 7 ＞ 失敗"),
        ("2D6<7", [3, 3], 6, True, "(2D6<7) ＞ 6[3,3] ＞ 6 ＞ 成功"),
        ("2D6=7", [1, 6], 7, True, "(2D6=7) ＞ 7[1,6] ＞ 7 ＞ 成功"),
        ("2D6!=7", [1, 6], 7, False, "(2D6!=7) ＞ 7[1,6] ＞ 7 ＞ 失敗"),
        ("3D6+2>=12", [4, 5, 1], 12, True, "(3D6+2>=12) ＞ 10[4,5,1]+2 ＞ 12 ＞ 成功"),
        ("2D6+1D4-1", [5, 3, 4], 11, None, "(2D6+1D4-1) ＞ 8[5,3]+4[4]-1 ＞ 11"),
        ("1D6", [3], 3, None, "(1D6) ＞ 3"),
        ("1D6>=4", [3], 3, False, "(1D6>=4) ＞ 3 ＞ 失敗"),
        ("-1D4+10", [2], 8, None, "(-1D4+10) ＞ -2[2]+10 ＞ 8"),
        ("1D6-3>=-1", [1], -2, False, "(1D6-3>=-1) ＞ 1[1]-3 ＞ -2 ＞ 失敗"),
        ("2+1D6", [6], 8, None, "(2+1D6) ＞ 2+6[6] ＞ 8"),
    ],
)
def test_sum_examples(
    command: str, faces: list[int], total: int, success: bool | None, explanation: str
) -> None:
    result = parse(command).evaluate(faces)
    assert result.total == total
    assert result.success is success
    assert result.successes is None
    assert result.explanation == explanation
    assert result.faces == tuple(faces)
    assert result.criticals == ()


def test_dice_requests_in_order() -> None:
    expr = parse("2d6+1d4-1")
    assert expr.dice == (DiceRequest(2, 6), DiceRequest(1, 4))
    assert expr.dice[0] == DiceRequest(count=2, sides=6)


@pytest.mark.parametrize(
    ("raw", "text", "secret"),
    [
        ("2d6>=7", "2D6>=7", False),
        ("２Ｄ６＜＝７", "2D6<=7", False),
        ("ｓ２ｄ６", "2D6", True),
        ("S2D6", "2D6", True),
        ("s1d20+5>=15", "1D20+5>=15", True),
        ("2D6=>7", "2D6>=7", False),
        ("2D6=<7", "2D6<=7", False),
        ("2D6<>7", "2D6!=7", False),
        ("2D6==7", "2D6=7", False),
        ("  2D6  ", "2D6", False),
        ("02D06+007", "2D6+7", False),
        ("2D", "2D6", False),
        ("2d+1D>=5", "2D6+1D6>=5", False),
    ],
)
def test_normalisation(raw: str, text: str, secret: bool) -> None:
    expr = parse(raw)
    assert expr.text == text
    assert expr.secret is secret


def test_comment_after_blank_is_kept_and_not_parsed() -> None:
    expr = parse("2D6>=7 回避判定 + 3")
    assert expr.text == "2D6>=7"
    assert expr.comment == "回避判定 + 3"
    full_width_space = parse("2D6\u3000攻撃")
    assert full_width_space.text == "2D6"
    assert full_width_space.comment == "攻撃"


@pytest.mark.parametrize(
    ("command", "face", "criticals", "suffix"),
    [
        ("1D20+5>=15", 20, ("critical",), " ＞ 成功 ＞ クリティカル"),
        ("1D20+5>=15", 1, ("fumble",), " ＞ 失敗 ＞ ファンブル"),
        ("1D20+5>=15", 19, (), " ＞ 成功"),
        ("1D20", 20, ("critical",), " ＞ クリティカル"),
        ("1D20>=10", 1, ("fumble",), " ＞ ファンブル"),
    ],
)
def test_d20_naturals(command: str, face: int, criticals: tuple[str, ...], suffix: str) -> None:
    result = parse(command).evaluate([face])
    assert result.criticals == criticals
    assert result.explanation.endswith(suffix)


def test_natural_20_does_not_change_success() -> None:
    # The ruleset decides what a natural 20 means; the dice layer only reports it.
    result = parse("1D20>=25").evaluate([20])
    assert result.success is False
    assert result.criticals == ("critical",)


@pytest.mark.parametrize(
    ("command", "faces", "criticals"),
    [
        ("2D20", [20, 20], ()),
        ("2D20", [1, 1], ()),
        ("1D20+1D20", [20, 3], ()),
        ("1D20+1D4+2>=15", [20, 4], ("critical",)),
        ("1D4+1D20", [4, 1], ("fumble",)),
        ("1D100", [20], ()),
        ("2D10", [10, 10], ()),
    ],
)
def test_d20_naturals_need_exactly_one_d20(
    command: str, faces: list[int], criticals: tuple[str, ...]
) -> None:
    assert parse(command).evaluate(faces).criticals == criticals


def test_result_is_json_safe_and_frozen() -> None:
    result = parse("S2D6+1>=7").evaluate([3, 4])
    dumped = result.model_dump(mode="json")
    assert dumped == {
        "text": "2D6+1>=7",
        "total": 8,
        "successes": None,
        "success": True,
        "criticals": [],
        "explanation": "(2D6+1>=7) ＞ 7[3,4]+1 ＞ 8 ＞ 成功",
        "faces": [3, 4],
        "parts": [],
    }
    assert RollResult.model_validate(dumped) == result
    with pytest.raises(ValueError, match="frozen"):
        result.total = 1  # type: ignore[misc]
