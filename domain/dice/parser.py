"""Entry point: raw player input to an Expression.

The first word chooses the command, as in BCDice: a repetition (`x3 …`), `CHOICE`, `C(…)`,
`D66`, dice (`2D6…` sums, `5B6` pools, `3R6` reroll dice, `2U6` upper dice), or a word one of
the given rulesets' dice words reads (words.py: Ninja Slayer's `N5`, `NJ4` … in a Ninja
Slayer game); a leading `S` makes any of them secret, and what follows the command after a
blank is its comment.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from .budget import DiceBudget
from .calc import parse_calc
from .choice import NAME as CHOICE
from .choice import read_choice
from .commands import Command
from .d66 import ORDERS, D66Command, Order
from .errors import (
    DICE_LIMIT,
    DICE_SYNTAX,
    DICE_UNSUPPORTED,
    DiceError,
    with_supported,
)
from .expression import Expression
from .limits import MAX_DICE, MAX_REPEAT
from .normalize import Line, ascii_upper, read_line, skip_blanks, word_end
from .pool_parser import parse_pool
from .repeat import RepeatCommand
from .reroll import parse_reroll
from .sum_parser import parse_sum
from .tokens import Cursor, Kind, Token, tokenize
from .upper import parse_upper
from .words import DiceWords

PARSED_CACHE = 1024  # distinct dice commands kept parsed (a few KiB each at most)

_REPEAT = re.compile(r"(?:X|REP|REPEAT)(\d+)")
_ROUNDING_LETTERS = frozenset("UCRF")
_DICE_LETTERS: dict[str, Callable[[Cursor, DiceBudget], Command]] = {
    "D": parse_sum,
    "B": parse_pool,
    "R": parse_reroll,
    "U": parse_upper,
}


class _Read(NamedTuple):
    """One command read from a line: the command, whether secret, and its comment."""

    command: Command
    secret: bool
    comment: str


def _is_rounding(tokens: list[Token], index: int) -> bool:
    """Is the letter at `index` a division's rounding suffix (`/2U`, `/(1+1)R`)?"""
    if tokens[index].text not in _ROUNDING_LETTERS or index == 0:
        return False
    at = index - 1
    if tokens[at].text == ")":
        depth = 0
        while at >= 0:
            depth += {")": 1, "(": -1}.get(tokens[at].text, 0)
            if depth == 0:
                break
            at -= 1
    elif tokens[at].kind is not Kind.INT:
        return False
    return at > 0 and tokens[at - 1].text == "/"


def _dice(cursor: Cursor, tokens: list[Token]) -> Command:
    """Dice chosen by their first letter: `2D6` sums, `5B6` pools, `3R6` rerolls, `2U6` upper."""
    index, letter = next(
        (
            (i, t)
            for i, t in enumerate(tokens)
            if t.kind is Kind.LETTER and not _is_rounding(tokens, i)
        ),
        (0, None),
    )
    if letter is not None and letter.text in _DICE_LETTERS:
        return _DICE_LETTERS[letter.text](cursor, DiceBudget())
    before = tokens[index - 1] if index else None
    after_count = before is not None and (before.kind is Kind.INT or before.text == ")")
    if letter is not None and after_count:
        word = _word_at(tokens, index)
        raise DiceError(
            DICE_UNSUPPORTED,
            "'{word}' dice are not supported",
            letter.position,
            params={"word": word},
        )
    return parse_sum(cursor, DiceBudget())


def _word_at(tokens: list[Token], index: int) -> str:
    letters = []
    while tokens[index].kind is Kind.LETTER:
        letters.append(tokens[index].text)
        index += 1
    return "".join(letters)


def _d66(tokens: list[Token]) -> Order | None:
    """`D66`, `D66A`, `D66S`, `D66N` or `D66D` as the whole command."""
    texts = [t.text for t in tokens if t.kind is not Kind.END]
    if texts[:2] != ["D", "66"] or len(texts) > 3:
        return None
    order = texts[2] if len(texts) == 3 else ""
    return next((o for o in ORDERS if o == order), None)


def _command(body: str, offset: int, secret: bool, words: tuple[DiceWords, ...]) -> Command:
    tokens = tokenize(body, offset)
    cursor = Cursor(tokens)
    first = cursor.peek
    if first.kind is Kind.INT or (first.kind is Kind.PUNCT and first.text in "(+-"):
        return _dice(cursor, tokens)
    if first.kind is not Kind.LETTER:
        cursor.fail("a dice command starts with a number (2D6) or a command name")
    order = _d66(tokens)
    if order is not None:
        return D66Command(order)
    word = cursor.peek_word()
    if word == "D":
        return parse_sum(cursor, DiceBudget())
    if word == "C":
        cursor.take()
        return parse_calc(cursor)
    for added in words:
        if word in added.refused:
            raise DiceError(DICE_UNSUPPORTED, added.refused[word], first.position)
        if word in added.words:
            return added.parse(cursor, DiceBudget())
    if secret:
        # BCDice tries `SB` as a command before reading its S as "secret"; so do we.
        for added in words:
            reason = added.refused.get("S" + word)
            if reason is not None:
                raise DiceError(DICE_UNSUPPORTED, reason, first.position - 1)
    raise DiceError(
        DICE_UNSUPPORTED, "unknown dice command '{word}'", first.position, params={"word": word}
    )


def _repeat(
    line: Line, start: int, end: int, times: int, secret: bool, words: tuple[DiceWords, ...]
) -> _Read:
    inner_start = skip_blanks(line.half, end)
    if inner_start >= len(line.half):
        raise DiceError(
            DICE_SYNTAX, "a repetition needs a command after a blank, as in x3 2D6", end
        )
    if not 1 <= times <= MAX_REPEAT:
        raise DiceError(
            DICE_LIMIT,
            "repeat a command 1 to {MAX_REPEAT} times",
            start,
            params={"MAX_REPEAT": MAX_REPEAT},
        )
    inner = _read(line, inner_start, words, allow_repeat=False)
    dice = sum(r.count for r in inner.command.requests()) * times
    if dice > MAX_DICE:
        raise DiceError(
            DICE_LIMIT,
            "a command may roll at most {MAX_DICE} dice in total",
            start,
            params={"MAX_DICE": MAX_DICE},
        )
    command = RepeatCommand(inner=inner.command, times=times)
    return _Read(command, secret or inner.secret, inner.comment)


def _read(line: Line, start: int, words: tuple[DiceWords, ...], allow_repeat: bool) -> _Read:
    end = word_end(line.half, start)
    word = ascii_upper(line.half[start:end])
    secret = word.startswith("S")
    body_start = start + 1 if secret else start
    body = word[1:] if secret else word
    if body.startswith(CHOICE):
        choice, comment = read_choice(line, body_start + len(CHOICE))
        return _Read(choice, secret, comment)
    repeat = _REPEAT.fullmatch(body)
    if repeat is not None:
        if not allow_repeat:
            raise DiceError(DICE_SYNTAX, "a repetition cannot be repeated", start)
        return _repeat(line, start, end, int(repeat.group(1)), secret, words)
    if not body:
        raise DiceError(DICE_SYNTAX, "'S' (secret roll) must be followed by a command", end)
    command = _command(body, body_start, secret, words)
    return _Read(command, secret, line.raw[end:].strip())


def parse(raw: str, words: tuple[DiceWords, ...] = ()) -> Expression:
    """Parse one dice command as a player types it; raise DiceError if it is not one.

    `words`: the dice words of the game's ruleset (its kit's `words`), read besides the common
    commands; a word of another ruleset is an unknown command here, as in BCDice another game
    system's command is. Parsed expressions are immutable and a table types the same few
    commands again and again, so the last thousand are kept (a refused one is parsed again
    each time)."""
    return _parsed(raw, words) if isinstance(raw, str) else _parse(raw, words)


@lru_cache(maxsize=PARSED_CACHE)
def _parsed(raw: str, words: tuple[DiceWords, ...]) -> Expression:
    return _parse(raw, words)


def _parse(raw: str, words: tuple[DiceWords, ...]) -> Expression:
    try:
        line = read_line(raw)
        start = skip_blanks(line.half, 0)
        if start == len(line.half):
            raise DiceError(DICE_SYNTAX, "the dice command is empty")
        read = _read(line, start, words, allow_repeat=True)
    except DiceError as error:
        raise with_supported(error, [w.supported for w in words]) from None
    return Expression(
        text=read.command.render(),
        secret=read.secret,
        comment=read.comment,
        command=read.command,
    )
