"""The extension point: a ruleset's dice words (domain/dice/words.py) are read where they are
given and nowhere else, and the dice language knows no game system's words."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from domain.dice import SUPPORTED, DiceError, DiceRequest, parse, supported
from domain.dice.words import Cursor, DiceBudget, DiceWords, Roller, RollResult
from domain.rulesets.ninja_slayer import dice as ninja
from tests.test_import_graph import imports, modules


@dataclass(frozen=True)
class Zap:
    """A made-up command `ZAP`: one d6, succeeding on 5 or more."""

    def render(self) -> str:
        return "ZAP"

    def requests(self) -> tuple[DiceRequest, ...]:
        return (DiceRequest(1, 6),)

    def rerolls(self) -> bool:
        return False

    def evaluate(self, roller: Roller) -> RollResult:
        (face,) = roller.roll(1, 6)
        return RollResult(
            text="ZAP", total=face, success=face >= 5, explanation=f"ZAP ＞ {face}", faces=(face,)
        )


def _zap(cursor: Cursor, budget: DiceBudget) -> Zap:
    start = cursor.peek
    cursor.word()
    budget.spend(1, start.position)
    cursor.end()
    return Zap()


ZAP = DiceWords(
    words=frozenset({"ZAP"}),
    parse=_zap,
    supported="Zap's ZAP",
    refused={"SZ": "the SZ table is game data, not a dice command"},
)


@pytest.mark.parametrize("command", ["N5", "K5,3", "UH3", "NJ4[N]", "AT4", "EV4/2", "EL4", "WS8"])
def test_the_common_parser_reads_no_ninja_slayer_word(command: str) -> None:
    assert ninja.parse(command).text  # read in a Ninja Slayer game
    with pytest.raises(DiceError) as caught:
        parse(command)
    error = caught.value
    assert error.code == "dice_unsupported" and error.position == 0
    assert error.message.startswith("unknown dice command '")
    assert error.message.endswith(SUPPORTED) and "Ninja Slayer" not in error.message


def test_each_refusal_names_the_words_it_was_given() -> None:
    with pytest.raises(DiceError) as common:
        parse("2D6>=")
    with pytest.raises(DiceError) as in_ninja:
        ninja.parse("2D6>=")
    assert common.value.message.endswith(SUPPORTED)
    assert in_ninja.value.message.endswith(ninja.SUPPORTED)
    assert "Ninja Slayer's N5" in ninja.SUPPORTED and "Ninja Slayer" not in SUPPORTED


def test_a_word_set_is_read_where_it_is_given() -> None:
    expr = parse("zap 雷", (ZAP,))
    assert (expr.text, expr.comment, expr.secret) == ("ZAP", "雷", False)
    assert expr.dice == (DiceRequest(1, 6),)
    assert expr.evaluate([5]).success is True
    assert parse("SZAP", (ZAP,)).secret is True
    assert parse("x2 ZAP", (ZAP,)).evaluate([1, 6]).parts[1].total == 6
    assert parse("2D6+1", (ZAP,)).evaluate([3, 4]).total == 8  # the common commands too
    with pytest.raises(DiceError, match="unknown dice command 'ZAP'"):
        parse("ZAP")
    with pytest.raises(DiceError) as caught:
        parse("ZAP1", (ZAP,))
    assert caught.value.message.endswith(supported(["Zap's ZAP"]))


def test_a_refused_word_is_refused_with_its_reason_even_after_the_secret_s() -> None:
    for raw in ("SZ", "sz"):  # BCDice tries SZ as a command before reading S as secret
        with pytest.raises(DiceError) as caught:
            parse(raw, (ZAP,))
        assert caught.value.code == "dice_unsupported" and caught.value.position == 0
        assert caught.value.message.startswith("the SZ table is game data")
    with pytest.raises(DiceError, match="unknown dice command 'Z'"):
        parse("SZ")


def test_the_parse_cache_keeps_each_set_of_words_apart() -> None:
    assert ninja.parse("N5").text == "N5"
    with pytest.raises(DiceError):
        parse("N5")
    assert ninja.parse("N5").text == "N5"


def test_the_dice_language_imports_no_ruleset_and_no_model() -> None:
    """The dice language stands alone: no ruleset, nothing of the model but the catalog keys'
    mechanism (domain/model/messages.py: a refusal is a key read in the reader's language)."""
    known = modules()
    dice = {name: path for name, path in known.items() if name.startswith("domain.dice")}
    assert "domain.dice.words" in dice
    for name, path in dice.items():
        outside = {m for m in imports(name, path, known) if not m.startswith("domain.dice")}
        assert outside <= {"domain", "domain.model", "domain.model.messages"}, (name, outside)
