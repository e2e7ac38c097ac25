"""BCDice's CHOICE: `choice[a,b,c]`, `choice(a,b,c)` or `choice a b c` picks one item with a
die of as many sides as there are items. Items are kept as typed (case, width, inner
blanks), trimmed; empty items are dropped."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

from .errors import DICE_LIMIT, DICE_SYNTAX, DiceError
from .faces import Roller
from .limits import MAX_SIDES
from .normalize import Line
from .request import DiceRequest
from .result import RollResult

Form = Literal["[", "(", " "]
_CLOSERS = {"[": "]", "(": ")"}
NAME = "CHOICE"


@dataclass(frozen=True, slots=True)
class ChoiceCommand:
    items: tuple[str, ...]
    form: Form = "["

    def render(self) -> str:
        if self.form == " ":
            return "choice " + " ".join(self.items)
        return f"choice{self.form}{','.join(self.items)}{_CLOSERS[self.form]}"

    def requests(self) -> tuple[DiceRequest, ...]:
        return (DiceRequest(1, len(self.items)),)

    def rerolls(self) -> bool:
        return False

    def evaluate(self, roller: Roller) -> RollResult:
        faces = roller.roll(1, len(self.items))
        chosen = self.items[faces[0] - 1]
        text = self.render()
        return RollResult(text=text, value=chosen, explanation=f"({text}) ＞ {chosen}", faces=faces)


def _split(line: Line, start: int, end: int) -> list[str]:
    """Items between `start` and `end`, cut at commas (half-width or full-width)."""
    items, cut = [], start
    for index in range(start, end):
        if line.half[index] == ",":
            items.append(line.raw[cut:index])
            cut = index + 1
    items.append(line.raw[cut:end])
    return [item.strip() for item in items if item.strip()]


def read_choice(line: Line, after: int) -> tuple[ChoiceCommand, str]:
    """The command from just after the word CHOICE, and the comment that follows it."""
    half = line.half
    if after >= len(half) or half[after].isspace():
        items = line.raw[after:].split()
        return _checked(ChoiceCommand(tuple(items), " "), after), ""
    opener = half[after]
    if opener not in _CLOSERS:
        raise DiceError(
            DICE_SYNTAX, "CHOICE takes its items as [a,b], (a,b) or after a blank", after
        )
    closer = _CLOSERS[opener]
    close = half.find(closer, after + 1)
    if close < 0:
        raise DiceError(
            DICE_SYNTAX,
            "CHOICE{opener}… needs its closing '{closer}'",
            len(half),
            params={"opener": opener, "closer": closer},
        )
    if close + 1 < len(half) and not half[close + 1].isspace():
        raise DiceError(
            DICE_SYNTAX, "unexpected '{raw}'", close + 1, params={"raw": line.raw[close + 1]}
        )
    command = ChoiceCommand(tuple(_split(line, after + 1, close)), cast(Form, opener))
    return _checked(command, after), line.raw[close + 1 :].strip()


def _checked(command: ChoiceCommand, position: int) -> ChoiceCommand:
    if not command.items:
        raise DiceError(DICE_SYNTAX, "CHOICE needs at least one item, as in CHOICE[a,b]", position)
    if len(command.items) > MAX_SIDES:
        raise DiceError(
            DICE_LIMIT,
            "CHOICE picks among at most {MAX_SIDES} items",
            position,
            params={"MAX_SIDES": MAX_SIDES},
        )
    return command
