"""Upper dice, BCDice's UpperDice: `4U6[6]` rolls 4d6 one by one; a die showing the threshold
(`[6]` or `@6`) or more is rolled again and added to itself, while it keeps doing so. With a
target (`4U6[6]+11>=21`) each die plus the modifier is compared and the successes counted;
without one, the highest die and the total are shown (`23/41(最大/合計)`).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.model.messages import N_

from .arithmetic import constant
from .arithmetic_parser import ArithmeticParser
from .budget import DiceBudget
from .compare import Comparison, parse_comparison, parse_number
from .errors import DICE_SYNTAX, DiceError
from .faces import Roller
from .groups import parse_groups
from .request import DiceRequest
from .reroll import REROLL_CAP_NOTE
from .result import RollResult
from .tokens import Cursor, Kind


def signed(modifier: int) -> str:
    """BCDice's modifier text: `+11`, `-3`, nothing for 0."""
    return f"{modifier:+d}" if modifier else ""


@dataclass(frozen=True, slots=True)
class UpperCommand:
    groups: tuple[DiceRequest, ...]
    threshold: int
    modifier: int = 0
    comparison: Comparison | None = None

    def render(self) -> str:
        notation = "+".join(f"{g.count}U{g.sides}" for g in self.groups)
        target = self.comparison.render() if self.comparison else ""
        return f"{notation}[{self.threshold}]{signed(self.modifier)}{target}"

    def requests(self) -> tuple[DiceRequest, ...]:
        return self.groups

    def rerolls(self) -> bool:
        return True

    def _die(self, roller: Roller, sides: int) -> tuple[list[int], bool]:
        chain = list(roller.roll(1, sides))
        while chain[-1] >= self.threshold:
            if not roller.reroll_room(1):
                return chain, True
            chain.extend(roller.roll(1, sides))
        return chain, False

    def evaluate(self, roller: Roller) -> RollResult:
        mark = roller.mark()
        chains: list[list[int]] = []
        capped = False
        for group in self.groups:
            for _ in range(group.count):
                chain, stopped = self._die(roller, group.sides)
                chains.append(chain)
                capped = capped or stopped
        values = [sum(chain) for chain in chains]
        shown = ",".join(
            str(v) if len(c) == 1 else f"{v}[{','.join(map(str, c))}]"
            for v, c in zip(values, chains, strict=True)
        )
        text = self.render()
        steps = [f"({text})", shown + signed(self.modifier)]
        if capped:
            steps.append(REROLL_CAP_NOTE)
        faces = roller.faces_since(mark)
        if self.comparison is not None:
            successes = sum(1 for v in values if self.comparison.holds(v + self.modifier))
            steps.append(f"成功数{successes}")
            return RollResult(
                text=text,
                successes=successes,
                success=successes > 0,
                explanation=" ＞ ".join(steps),
                faces=faces,
            )
        total = sum(values) + self.modifier
        highest = max(values) + self.modifier
        steps.append(f"{highest}/{total}(最大/合計)")
        return RollResult(
            text=text, total=total, highest=highest, explanation=" ＞ ".join(steps), faces=faces
        )


def parse_upper(cursor: Cursor, budget: DiceBudget) -> UpperCommand:
    groups = parse_groups(cursor, "U", budget)
    threshold: int | None = None
    where = cursor.peek
    if cursor.accept(Kind.PUNCT, "["):
        threshold = parse_number(cursor, N_("the threshold"))
        cursor.expect(Kind.PUNCT, "']'", "]")
    modifier = 0
    if cursor.at(Kind.PUNCT, "+") or cursor.at(Kind.PUNCT, "-"):
        # Kiroku reads `-3+2` as -1; BCDice reads it as -(3+2) (see docs/reference/dice.md).
        no_dice = N_("the modifier must be a number, not a roll")
        modifier = constant(ArithmeticParser(cursor, None, no_dice).add())
    comparison = parse_comparison(cursor)
    if at := cursor.accept(Kind.PUNCT, "@"):
        if threshold is not None:
            cursor.fail("give the threshold once, as [n] or as @n", at)
        where, threshold = at, parse_number(cursor, N_("the threshold"))
    cursor.end()
    if threshold is None or threshold <= 1:
        reason = (
            N_("U dice need a threshold") if threshold is None else N_("a threshold of 1 or less")
        )
        raise DiceError(
            DICE_SYNTAX,
            "{reason}: 2U6[6] rolls a die again and adds it while it shows 6 (or more)",
            where.position,
            params={"reason": reason},
        )
    return UpperCommand(
        groups=groups, threshold=threshold, modifier=modifier, comparison=comparison
    )
