"""chat_command: is the start of a chat line a command to roll, a near miss, or chat?"""

from __future__ import annotations

import pytest

from domain.dice import MAX_LENGTH, SUPPORTED, chat_command


@pytest.mark.parametrize(
    ("line", "text", "comment", "secret"),
    [
        ("2D6>=7 忍び足", "2D6>=7", "忍び足", False),
        ("s1d100 こっそり", "1D100", "こっそり", True),
        ("x3 2D6 三連撃", "x3 2D6", "三連撃", False),
        ("choice 右 左 まっすぐ", "choice 右 左 まっすぐ", "", False),
        ("ＮＪ４［Ｈ］ 回避！", "NJ4[H]", "回避！", False),
        ("C(10+5) mokekeke", "C(10+5)", "mokekeke", False),
    ],
)
def test_commands_are_rolled(line: str, text: str, comment: str, secret: bool) -> None:
    read = chat_command(line)
    assert read.kind == "roll" and read.hint is None and read.expression is not None
    assert (read.expression.text, read.expression.comment) == (text, comment)
    assert read.expression.secret is secret


@pytest.mark.parametrize(
    ("line", "code", "words"),
    [
        ("2D6> 目標値が空", "dice_syntax", "target"),
        ("3R6 振り足し", "dice_syntax", "threshold"),
        ("CC<=50 目星", "dice_unsupported", "'CC'"),
        ("x3 hello", "dice_unsupported", "'HELLO'"),
        ("choice[a,b", "dice_syntax", "closing"),
        ("1D6X", "dice_syntax", "'X'"),
        ("SB@3", "dice_unsupported", "サツバツ"),
        ("1000D6", "dice_limit", "100"),
        ("2D6 " + "あ" * MAX_LENGTH, "dice_limit", str(MAX_LENGTH)),
    ],
)
def test_near_misses_get_a_quiet_one_line_hint(line: str, code: str, words: str) -> None:
    read = chat_command(line)
    assert read.kind == "hint" and read.expression is None and read.hint is not None
    assert read.code == code
    assert words in read.hint
    assert "\n" not in read.hint
    assert read.hint.startswith("Sent as chat, not rolled: ")
    if code != "dice_limit":
        assert SUPPORTED in read.hint


@pytest.mark.parametrize(
    "line",
    [
        "こんにちは",
        "",
        "   ",
        "2nd round",
        "3rd time lucky",
        "Do it",
        "Hello there",
        "1+2",
        "choices are hard",
        "x-ray",
        "NPC1 says hi",
        "OK!",
        "lol",
        "Dude",
    ],
)
def test_everything_else_is_plain_chat(line: str) -> None:
    read = chat_command(line)
    assert (read.kind, read.expression, read.hint, read.code) == ("chat", None, None, None)
