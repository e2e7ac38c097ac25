"""Success pools in BCDice B notation."""

from __future__ import annotations

import pytest

from domain.dice import DiceError, DiceRequest, parse


@pytest.mark.parametrize(
    ("command", "faces", "successes", "success", "explanation"),
    [
        ("4B6>=4", [2, 3, 6, 4], 2, True, "(4B6>=4) ＞ 2,3,6,4 ＞ 成功数2"),
        ("4B6>=4", [2, 3, 1, 3], 0, False, "(4B6>=4) ＞ 2,3,1,3 ＞ 成功数0"),
        ("3B6+2B6>=5", [5, 1, 6, 2, 5], 3, True, "(3B6+2B6>=5) ＞ 5,1,6,2,5 ＞ 成功数3"),
        ("5B10<=3", [1, 3, 4, 10, 2], 3, True, "(5B10<=3) ＞ 1,3,4,10,2 ＞ 成功数3"),
        ("3B6=6", [6, 6, 5], 2, True, "(3B6=6) ＞ 6,6,5 ＞ 成功数2"),
        ("3B6>5", [6, 5, 5], 1, True, "(3B6>5) ＞ 6,5,5 ＞ 成功数1"),
        ("3B6<2", [6, 5, 5], 0, False, "(3B6<2) ＞ 6,5,5 ＞ 成功数0"),
        ("3B6!=1", [1, 5, 1], 1, True, "(3B6!=1) ＞ 1,5,1 ＞ 成功数1"),
    ],
)
def test_pool_examples(
    command: str, faces: list[int], successes: int, success: bool, explanation: str
) -> None:
    result = parse(command).evaluate(faces)
    assert result.successes == successes
    assert result.success is success
    assert result.total is None
    assert result.explanation == explanation
    assert result.faces == tuple(faces)


def test_pool_without_target_only_lists_faces() -> None:
    result = parse("4b6").evaluate([2, 3, 6, 4])
    assert result.text == "4B6"
    assert (result.successes, result.success) == (None, None)
    assert result.explanation == "(4B6) ＞ 2,3,6,4"


def test_pool_requests_keep_group_order() -> None:
    expr = parse("S3B6+2B10>=5")
    assert expr.secret
    assert expr.text == "3B6+2B10>=5"
    assert expr.dice == (DiceRequest(3, 6), DiceRequest(2, 10))
    with pytest.raises(DiceError, match=r"outside 1\.\.6"):
        expr.evaluate([1, 2, 10, 1, 1])


@pytest.mark.parametrize(
    ("raw", "code", "position"),
    [
        ("3B6+2D6", "dice_syntax", 5),
        ("3B6-2B6", "dice_syntax", 3),
        ("3B6>=", "dice_syntax", 5),
        ("3B6+1", "dice_syntax", 3),
        ("0B6", "dice_limit", 0),
        ("3B0>=1", "dice_limit", 2),
        ("60B6+41B6", "dice_limit", 5),
    ],
)
def test_pool_refusals(raw: str, code: str, position: int) -> None:
    with pytest.raises(DiceError) as caught:
        parse(raw)
    assert (caught.value.code, caught.value.position) == (code, position)
