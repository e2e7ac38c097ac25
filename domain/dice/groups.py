"""`NxS` groups joined by `+`, shared by pools (`B`), reroll dice (`R`) and upper dice (`U`).
Count and sides may be calculations, as in BCDice: `(1*2)B(2+4)` is `2B6`."""

from __future__ import annotations

from domain.model.messages import N_, Message

from .arithmetic_parser import ArithmeticParser
from .budget import DiceBudget, check_count, check_sides
from .errors import DICE_SYNTAX, DiceError
from .request import DiceRequest
from .tokens import Cursor, Kind, Token

_NAMES = {
    "B": N_("a pool such as 3B6"),
    "R": N_("reroll dice such as 3R6"),
    "U": N_("upper dice such as 2U6"),
}


_EXAMPLES = {"B": "3B6", "R": "3R6", "U": "2U6"}


def parse_group(cursor: Cursor, letter: str, budget: DiceBudget) -> DiceRequest:
    numbers = ArithmeticParser(cursor, None)
    start = cursor.peek
    count = numbers.number_of(numbers.atom(), start, N_("a dice count"))
    mark = cursor.peek
    if mark.kind is Kind.LETTER and mark.text == "D" and letter != "D":
        raise DiceError(
            DICE_SYNTAX,
            "summed D dice cannot be mixed with {letter}",
            mark.position,
            params={"letter": _NAMES[letter]},
        )
    cursor.expect(
        Kind.LETTER,
        Message("'{letter}' (as in {example})", {"letter": letter, "example": _EXAMPLES[letter]}),
        letter,
    )
    sides_at = cursor.peek
    if not (cursor.at(Kind.INT) or cursor.at(Kind.PUNCT, "(")):
        cursor.fail(Message("expected the number of sides after '{letter}'", {"letter": letter}))
    sides = numbers.number_of(numbers.atom(), sides_at, N_("the number of sides"))
    check_count(count, start.position)
    check_sides(sides, sides_at.position)
    budget.spend(count, start.position)
    return DiceRequest(count, sides)


def _letter_after_count(cursor: Cursor) -> Token | None:
    """The letter after the count that comes next (`3` of `3B6`), looked at without taking."""
    mark = cursor.mark()
    try:
        ArithmeticParser(cursor, None).atom()
        return cursor.peek if cursor.at(Kind.LETTER) else None
    except DiceError:
        return None
    finally:
        cursor.reset(mark)


def parse_groups(cursor: Cursor, letter: str, budget: DiceBudget) -> tuple[DiceRequest, ...]:
    groups = [parse_group(cursor, letter, budget)]
    while cursor.at(Kind.PUNCT, "+"):
        mark = cursor.mark()
        cursor.take()
        after = _letter_after_count(cursor)
        if after is not None and after.text == "D":
            raise DiceError(
                DICE_SYNTAX,
                "summed D dice cannot be mixed with {letter}",
                after.position,
                params={"letter": _NAMES[letter]},
            )
        if after is None or after.text != letter:
            cursor.reset(mark)
            break
        groups.append(parse_group(cursor, letter, budget))
    return tuple(groups)
