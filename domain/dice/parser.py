"""Entry point: raw player input to an Expression."""

from __future__ import annotations

from .budget import DiceBudget
from .commands import Command
from .errors import DICE_UNSUPPORTED, DiceError
from .expression import Expression
from .ninja_parser import is_ninja_word, left_out_reason, parse_ninja
from .normalize import normalise
from .pool_parser import parse_pool
from .sum_parser import parse_sum
from .tokens import Cursor, Kind, tokenize


def _command(cursor: Cursor, secret: bool) -> Command:
    budget = DiceBudget()
    first = cursor.peek
    if first.kind is Kind.INT:
        letter = cursor.peek_at(1)
        if letter.kind is Kind.WORD and letter.text == "B":
            return parse_pool(cursor, budget)
        return parse_sum(cursor, budget)
    if first.kind is Kind.PUNCT and first.text == "-":
        return parse_sum(cursor, budget)
    if is_ninja_word(first):
        return parse_ninja(cursor, budget)
    if first.kind is Kind.WORD and secret:
        # BCDice tries `SB` as a command before reading its S as "secret"; so do we.
        reason = left_out_reason("S" + first.text)
        if reason is not None:
            raise DiceError(DICE_UNSUPPORTED, reason, first.position - 1)
    if first.kind is Kind.WORD:
        raise DiceError(DICE_UNSUPPORTED, f"unknown dice command '{first.text}'", first.position)
    cursor.fail("a dice command starts with a number (2D6) or a command name")


def parse(raw: str) -> Expression:
    """Parse one dice command as a player types it; raise DiceError if it is not one."""
    if not isinstance(raw, str):
        raise DiceError("dice_syntax", "a dice command must be text")
    clean = normalise(raw)
    command = _command(Cursor(tokenize(clean.command, clean.offset)), clean.secret)
    return Expression(
        text=command.render(), secret=clean.secret, comment=clean.comment, command=command
    )
