"""Recursive descent for the NinjaSlayer2 commands, chosen by their leading letters: the
ruleset's dice words (domain/dice/words.py), which the generic parser reads in a Ninja Slayer
game."""

from __future__ import annotations

from typing import cast

from domain.dice.words import DICE_LIMIT, Cursor, DiceBudget, DiceError, DiceWords, Kind
from domain.model.messages import N_

from .checks import NinjaCheckCommand, NinjaPool
from .counts import parse_extra
from .difficulty import LETTER_TARGETS, NORMAL, Difficulty, from_letter, parse_label
from .legacy import LegacyName, NinjaLegacyCommand
from .wasshoi import WasshoiCommand

LEGACY_NAMES = frozenset({"NJ", "AT", "EV", "EL"})
WASSHOI_MAX = 99

# BCDice NinjaSlayer2 commands Kiroku leaves out, with the reason players will read.
LEFT_OUT = {
    "SB": N_("the サツバツ・クリティカル表 is game data the GM loads, not a dice command"),
    "WSE": N_("the 死神のエントリー決定表 is game data the GM loads, not a dice command"),
    "NRS": N_("the NRS table is game data the GM loads, not a dice command"),
}

NinjaCommand = NinjaCheckCommand | NinjaLegacyCommand | WasshoiCommand


def _pool_size(cursor: Cursor, budget: DiceBudget) -> int:
    count, position = cursor.number(N_("the number of dice"))
    budget.spend(count, position)
    return count


def _check(cursor: Cursor, word: str, budget: DiceBudget) -> NinjaCheckCommand:
    pools = [NinjaPool(from_letter(word), _pool_size(cursor, budget))]
    while cursor.accept(Kind.PUNCT, ","):
        difficulty: Difficulty = pools[-1].difficulty
        letters = cursor.peek
        if letters.kind is Kind.LETTER:
            named = cursor.word()
            if named not in LETTER_TARGETS:
                cursor.fail("expected a difficulty K, E, N, H, U or UH before the dice", letters)
            difficulty = from_letter(named)
        pools.append(NinjaPool(difficulty, _pool_size(cursor, budget)))
    extras = []
    while cursor.accept(Kind.PUNCT, "["):
        extras.append(parse_extra(cursor))
    cursor.end()
    return NinjaCheckCommand(pools=tuple(pools), extras=tuple(extras))


def _legacy(cursor: Cursor, word: str, budget: DiceBudget) -> NinjaLegacyCommand:
    count = _pool_size(cursor, budget)
    difficulty, explicit = NORMAL, False
    if cursor.accept(Kind.PUNCT, "["):
        difficulty, explicit = parse_label(cursor), True
        cursor.expect(Kind.PUNCT, "']'", "]")
    elif cursor.accept(Kind.PUNCT, "@"):
        difficulty, explicit = parse_label(cursor), True
    counter_over = None
    if word == "EV" and cursor.accept(Kind.PUNCT, "/"):
        counter_over, _ = cursor.number(N_("the attack's successes after '/'"))
    cursor.end()
    return NinjaLegacyCommand(
        name=cast(LegacyName, word),
        count=count,
        difficulty=difficulty,
        explicit_difficulty=explicit,
        counter_over=counter_over,
    )


def _wasshoi(cursor: Cursor) -> WasshoiCommand:
    target, position = cursor.number(N_("the 【DKK】 target after WS"))
    if target > WASSHOI_MAX:
        raise DiceError(
            DICE_LIMIT,
            "a Wasshoi! target is at most {WASSHOI_MAX}",
            position,
            params={"WASSHOI_MAX": WASSHOI_MAX},
        )
    cursor.end()
    return WasshoiCommand(target=target)


def parse_ninja(cursor: Cursor, budget: DiceBudget) -> NinjaCommand:
    word = cursor.word()
    if word in LETTER_TARGETS:
        return _check(cursor, word, budget)
    if word in LEGACY_NAMES:
        return _legacy(cursor, word, budget)
    return _wasshoi(cursor)


NINJA_DICE = DiceWords(
    words=frozenset({*LETTER_TARGETS, *LEGACY_NAMES, "WS"}),
    parse=parse_ninja,
    supported="Ninja Slayer's N5, E1,N2, N5[S][C][>=5], NJ4[H], AT4, EV4/2, EL4, WS8",
    refused=LEFT_OUT,
)
"""Ninja Slayer's dice words, declared on the ruleset (rules.py) and read in its games."""
