"""Refusals: stable codes, positions into the raw input, readable messages."""

from __future__ import annotations

import pytest

from domain.dice import MAX_DICE, MAX_LENGTH, MAX_SIDES, DiceError, parse


@pytest.mark.parametrize(
    ("raw", "code", "position", "words"),
    [
        ("", "dice_syntax", None, "empty"),
        ("   ", "dice_syntax", None, "empty"),
        ("2D6>=", "dice_syntax", 5, "target"),
        ("2D6#", "dice_syntax", 3, "'#'"),
        ("2D6+", "dice_syntax", 4, "end of the command"),
        ("2D+", "dice_syntax", 3, "end of the command"),
        ("2DX", "dice_unsupported", 1, "'DX'"),
        ("2D6>>7", "dice_syntax", 3, "'>>'"),
        ("2D6>=7>=8", "dice_syntax", 6, "'>='"),
        ("5+3", "dice_syntax", 0, "dice term"),
        ("S", "dice_syntax", 1, "secret"),
        ("  s2D6+x", "dice_syntax", 7, "'X'"),
        ("２Ｄ６＄２", "dice_syntax", 3, "'$'"),
        ("２Ｄ６＊２", "dice_unsupported", 3, "multiplication"),
        ("(2D6+1)*2", "dice_unsupported", 0, "parentheses"),
        ("2D6/2", "dice_unsupported", 3, "division"),
        ("1D6+3/2U", "dice_unsupported", 5, "division"),
        ("0D6", "dice_limit", 0, "at least one"),
        ("2D0", "dice_limit", 2, "sides"),
        (f"2D{MAX_SIDES + 1}", "dice_limit", 2, str(MAX_SIDES)),
        (f"{MAX_DICE + 1}D6", "dice_limit", 0, str(MAX_DICE)),
        (f"60D6+{MAX_DICE - 60}D6+1D6", "dice_limit", 10, str(MAX_DICE)),
        ("1D6+10000000", "dice_limit", 4, "at most"),
        ("2" * (MAX_LENGTH + 1), "dice_limit", MAX_LENGTH, str(MAX_LENGTH)),
        ("CC<=50", "dice_unsupported", 0, "'CC'"),
        ("2R6", "dice_unsupported", 1, "'R'"),
    ],
)
def test_refusals(raw: str, code: str, position: int | None, words: str) -> None:
    with pytest.raises(DiceError) as caught:
        parse(raw)
    error = caught.value
    assert error.code == code
    assert error.position == position
    assert words in error.message
    if position is not None:
        assert f"position {position}" in str(error)


def test_error_is_an_exception_with_fields() -> None:
    error = DiceError("dice_syntax", "bad", 3)
    assert isinstance(error, Exception)
    assert (error.code, error.message, error.position) == ("dice_syntax", "bad", 3)
    assert str(error) == "bad (at position 3)"
    assert str(DiceError("bad_faces", "wrong")) == "wrong"


@pytest.mark.parametrize(
    ("command", "faces", "words"),
    [
        ("2D6", [3], "expected 2 faces for 2D6, got 1"),
        ("2D6", [3, 4, 5], "expected 2 faces for 2D6, got 3"),
        ("2D6+1D4", [3, 4, 5], "outside 1..4"),
        ("2D6", [0, 4], "outside 1..6"),
        ("2D6", [7, 4], "outside 1..6"),
        ("2D6", [True, 4], "integer"),
        ("2D6", [3.0, 4], "integer"),
        ("2D6", "34", "string"),
    ],
)
def test_bad_faces(command: str, faces: list[object], words: str) -> None:
    with pytest.raises(DiceError) as caught:
        parse(command).evaluate(faces)  # type: ignore[arg-type]
    assert caught.value.code == "bad_faces"
    assert words in caught.value.message
    assert caught.value.position is None


def test_non_text_input_is_refused() -> None:
    with pytest.raises(DiceError) as caught:
        parse(26)  # type: ignore[arg-type]
    assert caught.value.code == "dice_syntax"
