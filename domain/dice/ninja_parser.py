"""Recursive descent for the NinjaSlayer2 commands, chosen by their leading letters."""

from __future__ import annotations

from .budget import DiceBudget
from .errors import DICE_LIMIT, DICE_UNSUPPORTED, DiceError
from .ninja_checks import NinjaCheckCommand
from .ninja_difficulty import LETTER_TARGETS, NORMAL, from_letter, parse_label
from .ninja_legacy import NinjaLegacyCommand
from .tokens import Cursor, Kind, Token
from .wasshoi import WasshoiCommand

LEGACY_NAMES = frozenset({"NJ", "AT", "EV"})
WASSHOI_MAX = 99

# BCDice NinjaSlayer2 commands Kiroku leaves out, with the reason players will read.
_LEFT_OUT = {
    "SB": "the サツバツ・クリティカル表 is game data the GM loads, not a dice command",
    "WSE": "the 死神のエントリー決定表 is game data the GM loads, not a dice command",
    "NRS": "the NRS table is game data the GM loads, not a dice command",
    "EL": "EL (1st-edition electronic warfare) is not in the 2nd-edition core rules",
}

NinjaCommand = NinjaCheckCommand | NinjaLegacyCommand | WasshoiCommand


def is_ninja_word(token: Token) -> bool:
    return token.kind is Kind.WORD and (
        token.text in LETTER_TARGETS
        or token.text in LEGACY_NAMES
        or token.text == "WS"
        or token.text in _LEFT_OUT
    )


def left_out_reason(word: str) -> str | None:
    """Why a BCDice NinjaSlayer2 command is not offered, or None if it is not one."""
    return _LEFT_OUT.get(word)


def _pool_size(cursor: Cursor, budget: DiceBudget) -> int:
    count, position = cursor.number("the number of dice")
    budget.spend(count, position)
    return count


def _check(cursor: Cursor, word: Token, budget: DiceBudget) -> NinjaCheckCommand:
    counts = [_pool_size(cursor, budget)]
    while cursor.accept(Kind.PUNCT, ","):
        counts.append(_pool_size(cursor, budget))
    if cursor.peek.kind is Kind.PUNCT and cursor.peek.text == "[":
        raise DiceError(
            DICE_UNSUPPORTED,
            "BCDice's extra counts ([S], [C], [>=5]) are not supported",
            cursor.peek.position,
        )
    cursor.end()
    return NinjaCheckCommand(difficulty=from_letter(word.text), counts=tuple(counts))


def _legacy(cursor: Cursor, word: Token, budget: DiceBudget) -> NinjaLegacyCommand:
    count = _pool_size(cursor, budget)
    difficulty, explicit = NORMAL, False
    if cursor.accept(Kind.PUNCT, "["):
        difficulty, explicit = parse_label(cursor), True
        cursor.expect(Kind.PUNCT, "']'", "]")
    elif cursor.accept(Kind.PUNCT, "@"):
        difficulty, explicit = parse_label(cursor), True
    counter_over = None
    if word.text == "EV" and cursor.accept(Kind.PUNCT, "/"):
        counter_over, _ = cursor.number("the attack's successes after '/'")
    cursor.end()
    return NinjaLegacyCommand(
        name=word.text,
        count=count,
        difficulty=difficulty,
        explicit_difficulty=explicit,
        counter_over=counter_over,
    )


def _wasshoi(cursor: Cursor) -> WasshoiCommand:
    target, position = cursor.number("the 【DKK】 target after WS")
    if target > WASSHOI_MAX:
        raise DiceError(DICE_LIMIT, f"a Wasshoi! target is at most {WASSHOI_MAX}", position)
    cursor.end()
    return WasshoiCommand(target=target)


def parse_ninja(cursor: Cursor, budget: DiceBudget) -> NinjaCommand:
    word = cursor.take()
    if word.text in _LEFT_OUT:
        raise DiceError(DICE_UNSUPPORTED, _LEFT_OUT[word.text], word.position)
    if word.text in LETTER_TARGETS:
        return _check(cursor, word, budget)
    if word.text in LEGACY_NAMES:
        return _legacy(cursor, word, budget)
    return _wasshoi(cursor)
