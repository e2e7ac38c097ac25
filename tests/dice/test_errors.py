"""Refusals: stable codes, positions into the raw input, readable messages."""

from __future__ import annotations

import pytest

from domain.dice import (
    MAX_DEPTH,
    MAX_DICE,
    MAX_LENGTH,
    MAX_REPEAT,
    MAX_SIDES,
    DiceError,
)
from domain.rulesets.ninja_slayer.dice import SUPPORTED, parse  # with Ninja Slayer's words


@pytest.mark.parametrize(
    ("raw", "code", "position", "words"),
    [
        ("", "dice_syntax", None, "empty"),
        ("   ", "dice_syntax", None, "empty"),
        ("2D6>=", "dice_syntax", 5, "target"),
        ("2D6#", "dice_syntax", 3, "'#'"),
        ("2D6+", "dice_syntax", 4, "end of the command"),
        ("2D+", "dice_syntax", 3, "end of the command"),
        ("2DX", "dice_syntax", 2, "'X'"),
        ("2X6", "dice_unsupported", 1, "'X' dice"),
        ("2D6>>7", "dice_syntax", 3, "'>>'"),
        ("2D6>=7>=8", "dice_syntax", 6, "'>='"),
        ("5+3", "dice_syntax", 0, "dice term"),
        ("S", "dice_syntax", 1, "secret"),
        ("  s2D6+x", "dice_syntax", 7, "'X'"),
        ("２Ｄ６＄２", "dice_syntax", 3, "'$'"),
        ("２Ｄ６＊", "dice_syntax", 4, "end of the command"),
        ("(2D6+1", "dice_syntax", 6, "')'"),
        ("2D6+1)", "dice_syntax", 5, "')'"),
        ("1D6/0", "dice_syntax", 3, "division by 0"),
        ("1D6/(1D2-1)", "dice_syntax", 3, "can be 0"),
        ("C(1D6)", "dice_syntax", 3, "numbers only"),
        ("2D6>=1D6", "dice_syntax", 6, "not a roll"),
        ("2D6>=?", "dice_unsupported", 5, "'?'"),
        ("1D6/2X", "dice_syntax", 5, "'X'"),
        ("2R6", "dice_syntax", 3, "threshold"),
        ("2R6<=7", "dice_syntax", 3, "never ends"),
        ("1R1[=1]", "dice_syntax", 3, "never ends"),
        ("2R6[6]@6", "dice_syntax", 6, "once"),
        ("4U6", "dice_syntax", 3, "threshold"),
        ("4U6[1]", "dice_syntax", 3, "1 or less"),
        ("4U6[6]>=9@6", "dice_syntax", 9, "once"),
        ("3B6+2D6", "dice_syntax", 5, "cannot be mixed"),
        ("2D6+3B6", "dice_syntax", 5, "cannot be mixed"),
        ("5D66KH1", "dice_unsupported", 1, "d66"),
        ("D", "dice_syntax", 1, "sides"),
        ("x2 x2 1D6", "dice_syntax", 3, "cannot be repeated"),
        ("x2", "dice_syntax", 2, "after a blank"),
        ("x0 1D6", "dice_limit", 0, "1 to 100"),
        (f"x{MAX_REPEAT + 1} 1D6", "dice_limit", 0, "1 to 100"),
        ("x60 2D6", "dice_limit", 0, str(MAX_DICE)),
        ("x2 CC", "dice_unsupported", 3, "'CC'"),
        ("choice[]", "dice_syntax", 6, "at least one item"),
        ("choice[, ,,  ,, ,]", "dice_syntax", 6, "at least one item"),
        ("choice[a,b", "dice_syntax", 10, "closing ']'"),
        ("choice[a,b)", "dice_syntax", 11, "closing ']'"),
        ("choice{a,b}", "dice_syntax", 6, "[a,b]"),
        ("choice[a]x", "dice_syntax", 9, "'x'"),
        ("1D6*1000000*1000000", "dice_limit", 11, "beyond"),
        ("(" * (MAX_DEPTH + 1) + "1D6" + ")" * (MAX_DEPTH + 1), "dice_limit", MAX_DEPTH, "deep"),
        ("0D6", "dice_limit", 0, "at least 1"),
        ("2D0", "dice_limit", 2, "sides"),
        (f"2D{MAX_SIDES + 1}", "dice_limit", 2, str(MAX_SIDES)),
        (f"{MAX_DICE + 1}D6", "dice_limit", 0, str(MAX_DICE)),
        (f"60D6+{MAX_DICE - 60}D6+1D6", "dice_limit", 10, str(MAX_DICE)),
        ("1D6+10000000", "dice_limit", 4, "at most"),
        ("2" * (MAX_LENGTH + 1), "dice_limit", MAX_LENGTH, str(MAX_LENGTH)),
        ("CC<=50", "dice_unsupported", 0, "'CC'"),
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
    # Every refusal says what is supported: limits name the limit, the others end with the list.
    if code == "dice_limit":
        assert any(ch.isdigit() for ch in error.message)
    else:
        assert error.message.endswith(SUPPORTED)


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


@pytest.mark.parametrize(
    ("kind", "code", "commands"),
    [
        ("an unknown command", "dice_unsupported", ["CC<=50", "FOO", "SCC", "TY3", "X5D6"]),
        ("an unknown kind of dice", "dice_unsupported", ["2X6", "2Z6>=3", "(1+1)Q6"]),
        (
            "a comparison without a target",
            "dice_syntax",
            ["2D6>=", "3B6>=", "3R6[6]>=", "4U6[6]>=", "N5[>=]", "2D6+1>", "x2 2D6<="],
        ),
        ("an unbalanced bracket", "dice_syntax", ["(2D6", "2D6)", "3R6[6", "N5[S", "choice[a"]),
        (
            "too many dice",
            "dice_limit",
            ["101D6", "101B6", "101R6[6]", "101U6[6]", "N101", "NJ101", "x51 2D6", "51D66"],
        ),
        ("too many sides", "dice_limit", ["2D1001", "2B1001", "2R1001[2]", "2U1001[2]"]),
        ("no dice", "dice_limit", ["0D6", "0B6", "0R6[6]", "0U6[6]", "(1-1)D6"]),
        ("a reroll that never stops", "dice_syntax", ["2R6", "2R6<=7", "2U6", "2U6[1]"]),
    ],
)
def test_the_same_mistake_gets_the_same_code_in_every_family(
    kind: str, code: str, commands: list[str]
) -> None:
    for command in commands:
        with pytest.raises(DiceError) as caught:
            parse(command)
        assert caught.value.code == code, (kind, command, caught.value)
