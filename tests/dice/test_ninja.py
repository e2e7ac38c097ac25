"""NinjaSlayer2 commands. Cases marked BCDice are BCDice's own test data (same faces, output)."""

from __future__ import annotations

import pytest

from domain.dice import DiceError, DiceRequest
from domain.rulesets.ninja_slayer.dice import parse

ENTRY = "ニンジャスレイヤー=サンのエントリーだ!!"


@pytest.mark.parametrize(
    ("command", "faces", "successes", "explanation"),
    [
        # BCDice test/data/NinjaSlayer2.toml (the trailing " \n" is dropped: one line).
        ("K5", [4, 6, 3, 1, 5], 4, "(5B6>=2) ＞ 4,6,3,1,5 ＞ 成功数:4"),
        ("E5", [4, 6, 3, 1, 5], 4, "(5B6>=3) ＞ 4,6,3,1,5 ＞ 成功数:4"),
        ("N5", [4, 6, 3, 1, 5], 3, "(5B6>=4) ＞ 4,6,3,1,5 ＞ 成功数:3"),
        ("H5", [4, 6, 3, 1, 5], 2, "(5B6>=5) ＞ 4,6,3,1,5 ＞ 成功数:2"),
        ("U5", [4, 2, 3, 1, 5], 0, "(5B6>=6) ＞ 4,2,3,1,5 ＞ 成功数:0"),
        ("UH3", [6, 5, 6], 2, "(3B6>=6) ＞ 6,5,6 ＞ 成功数:2"),
        ("n2", [4, 3], 1, "(2B6>=4) ＞ 4,3 ＞ 成功数:1"),
    ],
)
def test_second_edition_checks(
    command: str, faces: list[int], successes: int, explanation: str
) -> None:
    result = parse(command).evaluate(faces)
    assert result.successes == successes
    assert result.success is (successes > 0)
    assert result.explanation == explanation
    assert result.total is None
    assert result.parts == ()


def test_series_gives_one_result_with_parts() -> None:
    # BCDice "N5,3,4" (its [..] extra counts left out), same faces.
    expr = parse("N5,3,4")
    assert expr.text == "N5,3,4"
    assert expr.dice == (DiceRequest(5, 6), DiceRequest(3, 6), DiceRequest(4, 6))
    result = expr.evaluate([4, 6, 3, 1, 5, 1, 1, 2, 6, 6, 1, 2])
    assert [p.text for p in result.parts] == ["N5", "N3", "N4"]
    assert [p.successes for p in result.parts] == [3, 0, 2]
    assert [p.success for p in result.parts] == [True, False, True]
    assert [p.faces for p in result.parts] == [(4, 6, 3, 1, 5), (1, 1, 2), (6, 6, 1, 2)]
    assert result.successes == 5
    assert result.success is True
    assert result.faces == (4, 6, 3, 1, 5, 1, 1, 2, 6, 6, 1, 2)
    assert result.explanation == (
        "(5B6>=4) ＞ 4,6,3,1,5 ＞ 成功数:3 / (3B6>=4) ＞ 1,1,2 ＞ 成功数:0"
        " / (4B6>=4) ＞ 6,6,1,2 ＞ 成功数:2"
    )
    dumped = result.model_dump(mode="json")
    assert dumped["parts"][1]["faces"] == [1, 1, 2]


def test_series_of_failures_fails() -> None:
    result = parse("H2,2").evaluate([1, 4, 3, 2])
    assert result.successes == 0
    assert result.success is False


def test_empty_pool_rolls_nothing_and_fails() -> None:
    # 回避ダイス can run out; a pool of 0 is legal play, not an error.
    expr = parse("N0")
    assert expr.dice == ()
    result = expr.evaluate([])
    assert (result.successes, result.success) == (0, False)
    assert result.explanation == "(0B6>=4) ＞ (ダイスなし) ＞ 成功数:0"
    series = parse("N2,0,1")
    assert series.dice == (DiceRequest(2, 6), DiceRequest(1, 6))
    assert [p.faces for p in series.evaluate([4, 5, 6]).parts] == [(4, 5), (), (6,)]


@pytest.mark.parametrize(
    ("command", "faces", "successes", "explanation"),
    [
        # BCDice test/data/NinjaSlayer2.toml, 1st-edition-compatible commands.
        ("NJ4[N]", [2, 3, 6, 4], 2, "(4B6>=4) ＞ 2,3,6,4 ＞ 成功数2"),
        ("NJ4[N]", [2, 3, 2, 1], 0, "(4B6>=4) ＞ 2,3,2,1 ＞ 成功数0"),
        ("NJ4[n]", [2, 3, 6, 4], 2, "(4B6>=4) ＞ 2,3,6,4 ＞ 成功数2"),
        ("NJ4[4]", [2, 3, 6, 4], 2, "(4B6>=4) ＞ 2,3,6,4 ＞ 成功数2"),
        ("NJ4", [2, 3, 6, 4], 2, "(4B6>=4) ＞ 2,3,6,4 ＞ 成功数2"),
        ("NJ4@N", [2, 3, 6, 4], 2, "(4B6>=4) ＞ 2,3,6,4 ＞ 成功数2"),
        ("NJ4@4", [2, 3, 6, 4], 2, "(4B6>=4) ＞ 2,3,6,4 ＞ 成功数2"),
        ("NJ4[H]", [2, 3, 6, 4], 1, "(4B6>=5) ＞ 2,3,6,4 ＞ 成功数1"),
        ("NJ4[H]", [2, 3, 3, 4], 0, "(4B6>=5) ＞ 2,3,3,4 ＞ 成功数0"),
        ("NJ4[UH]", [2, 3, 6, 4], 1, "(4B6>=6) ＞ 2,3,6,4 ＞ 成功数1"),
        ("NJ4[UH]", [2, 3, 5, 4], 0, "(4B6>=6) ＞ 2,3,5,4 ＞ 成功数0"),
        ("NJ4[K]", [2, 3, 6, 4], 4, "(4B6>=2) ＞ 2,3,6,4 ＞ 成功数4"),
        ("NJ4@K", [2, 3, 6, 4], 4, "(4B6>=2) ＞ 2,3,6,4 ＞ 成功数4"),
        ("NJ4[2]", [2, 3, 6, 4], 4, "(4B6>=2) ＞ 2,3,6,4 ＞ 成功数4"),
        ("NJ4[E]", [2, 3, 6, 4], 3, "(4B6>=3) ＞ 2,3,6,4 ＞ 成功数3"),
        ("NJ4@3", [2, 3, 6, 4], 3, "(4B6>=3) ＞ 2,3,6,4 ＞ 成功数3"),
        ("NJ4[U]", [6, 3, 6, 4], 2, "(4B6>=6) ＞ 6,3,6,4 ＞ 成功数2"),
        ("SNJ4", [2, 3, 6, 4], 2, "(4B6>=4) ＞ 2,3,6,4 ＞ 成功数2"),
    ],
)
def test_nj(command: str, faces: list[int], successes: int, explanation: str) -> None:
    result = parse(command).evaluate(faces)
    assert result.successes == successes
    assert result.success is (successes > 0)
    assert result.criticals == ()
    assert result.explanation == explanation


@pytest.mark.parametrize(
    ("difficulty", "successes"),
    [("UH3", 4), ("UH2", 5), ("UH", 6)],
)
def test_ultra_hard_success_counting_seed_example(difficulty: str, successes: int) -> None:
    # Core rules, 超高難易度での成功数比較: six 6s at UH3 → 4, UH2 → 5, UH → 6.
    result = parse(f"NJ6[{difficulty}]").evaluate([6] * 6)
    assert result.successes == successes


@pytest.mark.parametrize(
    ("command", "faces", "successes"),
    [
        ("NJ3[UH2]", [6, 5, 5], 0),
        ("NJ3[UH2]", [6, 6, 5], 1),
        ("NJ4@UH2", [6, 6, 6, 1], 2),
        ("NJ4[UH3]", [6, 6, 5, 5], 0),
        ("NJ4[UH3]", [6, 6, 6, 5], 1),
    ],
)
def test_ultra_hard_sets_of_sixes(command: str, faces: list[int], successes: int) -> None:
    result = parse(command).evaluate(faces)
    assert result.successes == successes
    assert result.success is (successes > 0)


def test_ultra_hard_level_explanation_says_so() -> None:
    result = parse("NJ6@UH2").evaluate([6, 6, 6, 1, 2, 3])
    assert result.explanation == "(6B6[UH2]) ＞ 6,6,6,1,2,3 ＞ 成功数2"
    assert parse("NJ6@UH2").text == "NJ6[UH2]"


@pytest.mark.parametrize(
    ("command", "faces", "criticals", "explanation"),
    [
        # BCDice.
        ("AT4[N]", [2, 2, 6, 6], ("サツバツ",), "(4B6>=4) ＞ 2,2,6,6 ＞ 成功数2 ＞ サツバツ!!"),
        ("AT4", [1, 1, 1, 1], (), "(4B6>=4) ＞ 1,1,1,1 ＞ 成功数0"),
        ("AT4", [2, 2, 6, 6], ("サツバツ",), "(4B6>=4) ＞ 2,2,6,6 ＞ 成功数2 ＞ サツバツ!!"),
        ("AT4[n]", [2, 2, 6, 6], ("サツバツ",), "(4B6>=4) ＞ 2,2,6,6 ＞ 成功数2 ＞ サツバツ!!"),
        # Core rules: one 6 is no crit; three 6s are ナムアミダブツ.
        ("AT4", [6, 5, 4, 4], (), "(4B6>=4) ＞ 6,5,4,4 ＞ 成功数4"),
        (
            "AT5[H]",
            [6, 6, 6, 1, 2],
            ("ナムアミダブツ",),
            "(5B6>=5) ＞ 6,6,6,1,2 ＞ 成功数3 ＞ ナムアミダブツ!!",
        ),
        # A miss cannot crit (reachable only at UH3 with exactly two 6s).
        ("AT3[UH3]", [6, 6, 1], (), "(3B6[UH3]) ＞ 6,6,1 ＞ 成功数0"),
    ],
)
def test_attack(
    command: str, faces: list[int], criticals: tuple[str, ...], explanation: str
) -> None:
    result = parse(command).evaluate(faces)
    assert result.criticals == criticals
    assert result.explanation == explanation


@pytest.mark.parametrize(
    ("command", "faces", "criticals", "explanation"),
    [
        # BCDice.
        (
            "EV4[N]/2",
            [2, 5, 6, 4],
            ("カウンターカラテ",),
            "(4B6>=4) ＞ 2,5,6,4 ＞ 成功数3 ＞ カウンターカラテ!!",
        ),
        ("EV4[N]/2", [2, 5, 3, 1], (), "(4B6>=4) ＞ 2,5,3,1 ＞ 成功数1"),
        (
            "EV4@N/2",
            [2, 5, 6, 4],
            ("カウンターカラテ",),
            "(4B6>=4) ＞ 2,5,6,4 ＞ 成功数3 ＞ カウンターカラテ!!",
        ),
        ("EV4[H]/2", [2, 5, 6, 4], (), "(4B6>=5) ＞ 2,5,6,4 ＞ 成功数2"),
        ("EV4[UH]/2", [6, 5, 6, 4], (), "(4B6>=6) ＞ 6,5,6,4 ＞ 成功数2"),
        (
            "EV4[K]/2",
            [2, 5, 6, 4],
            ("カウンターカラテ",),
            "(4B6>=2) ＞ 2,5,6,4 ＞ 成功数4 ＞ カウンターカラテ!!",
        ),
        ("EV4[N]", [2, 5, 6, 4], (), "(4B6>=4) ＞ 2,5,6,4 ＞ 成功数3"),
        ("EV4", [2, 5, 6, 4], (), "(4B6>=4) ＞ 2,5,6,4 ＞ 成功数3"),
        # Core rules: equal successes evade but do not counter.
        ("EV3/2", [4, 4, 1], (), "(3B6>=4) ＞ 4,4,1 ＞ 成功数2"),
    ],
)
def test_evasion(
    command: str, faces: list[int], criticals: tuple[str, ...], explanation: str
) -> None:
    result = parse(command).evaluate(faces)
    assert result.criticals == criticals
    assert result.explanation == explanation


@pytest.mark.parametrize(
    ("command", "faces", "total", "success", "explanation"),
    [
        # BCDice (it puts a line break before the entry line; Kiroku keeps one line).
        ("WS8", [4, 5], 9, False, "Wasshoi!判定(2D6) ＞ (4+5) ＞ 9(>8) 判定失敗"),
        (
            "WS8",
            [3, 1],
            4,
            True,
            "Wasshoi!判定(2D6) ＞ (3+1) ＞ 4(<=8) 判定成功!! " + ENTRY,
        ),
        # Core rules: success iff the total is at most the target, so equal succeeds.
        (
            "WS7",
            [3, 4],
            7,
            True,
            "Wasshoi!判定(2D6) ＞ (3+4) ＞ 7(<=7) 判定成功!! " + ENTRY,
        ),
    ],
)
def test_wasshoi(
    command: str, faces: list[int], total: int, success: bool, explanation: str
) -> None:
    expr = parse(command)
    assert expr.dice == (DiceRequest(2, 6),)
    result = expr.evaluate(faces)
    assert (result.total, result.success, result.successes) == (total, success, None)
    assert result.explanation == explanation


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("nj4@n", "NJ4[N]"),
        ("ＮＪ４［Ｈ］", "NJ4[H]"),
        ("ev4@uh2/1", "EV4[UH2]/1"),
        ("AT4", "AT4"),
        ("uh5", "UH5"),
        ("k1,2,3", "K1,2,3"),
        ("ws10", "WS10"),
    ],
)
def test_ninja_normalised_text(raw: str, text: str) -> None:
    assert parse(raw).text == text


@pytest.mark.parametrize(
    ("raw", "code", "position"),
    [
        ("NJ4[7]", "dice_syntax", 4),
        ("NJ4[UH4]", "dice_syntax", 6),
        ("NJ4[X]", "dice_syntax", 4),
        ("NJ4[N", "dice_syntax", 5),
        ("AT4/2", "dice_syntax", 3),
        ("NJ4/2", "dice_syntax", 3),
        ("N", "dice_syntax", 1),
        ("N5,", "dice_syntax", 3),
        ("N5[X]", "dice_syntax", 3),
        ("N5[>=7]", "dice_syntax", 5),
        ("N5[S7]", "dice_syntax", 4),
        ("N5[>=5", "dice_syntax", 6),
        ("E1,X2", "dice_syntax", 3),
        ("SB", "dice_unsupported", 0),
        ("SSB@3", "dice_unsupported", 1),
        ("WSE", "dice_unsupported", 0),
        ("NRS_E4", "dice_unsupported", 0),
        ("EL4/2", "dice_syntax", 3),
        ("WS100", "dice_limit", 2),
        ("N101", "dice_limit", 1),
        ("N50,50,1", "dice_limit", 7),
    ],
)
def test_ninja_refusals(raw: str, code: str, position: int) -> None:
    with pytest.raises(DiceError) as caught:
        parse(raw)
    assert (caught.value.code, caught.value.position) == (code, position)
