"""Reroll dice, BCDice's RerollDice: `3R6[6]>=5` rolls 3d6, rolls one more d6 for each face
meeting the reroll condition (`[6]`: 6 or more), and again for those, until none does; then
counts every face meeting the target. Groups join with `+` (`2R4+2R6[<=2]>=4`) and reroll
in rounds, group by group, as BCDice does.

The condition is `[n]` or `@n`, with an optional comparison (`[>4]`, `@<=2`); a bare number
takes the target's comparison, and without any the target itself is the condition
(`3R6>=5` rerolls each 5 or 6). Without a target the successes are 0.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from domain.model.messages import N_, Message

from .budget import DiceBudget
from .compare import Comparison, Operator, holds, parse_comparison, parse_number, parse_operator
from .errors import DICE_SYNTAX, DiceError
from .faces import Roller
from .groups import parse_groups
from .limits import MAX_REROLLS
from .request import DiceRequest
from .result import RollResult
from .tokens import Cursor, Kind, Token

REROLL_CAP_NOTE = f"振り足し上限{MAX_REROLLS}個"


@dataclass(frozen=True, slots=True)
class RerollCondition:
    op: Operator
    threshold: int

    def rerolls(self, face: int) -> bool:
        return holds(face, self.op, self.threshold)

    def ends_on(self, sides: int) -> bool:
        """Does some face stop the rerolling? Otherwise it would never end."""
        return any(not self.rerolls(face) for face in range(1, sides + 1))


@dataclass(frozen=True, slots=True)
class RerollCommand:
    groups: tuple[DiceRequest, ...]
    condition: RerollCondition
    comparison: Comparison | None = None

    def render(self) -> str:
        notation = "+".join(f"{g.count}R{g.sides}" for g in self.groups)
        same_op = self.comparison is not None and self.comparison.op == self.condition.op
        op = "" if same_op else self.condition.op
        target = self.comparison.render() if self.comparison else ""
        return f"{notation}[{op}{self.condition.threshold}]{target}"

    def requests(self) -> tuple[DiceRequest, ...]:
        return self.groups

    def rerolls(self) -> bool:
        return True

    def evaluate(self, roller: Roller) -> RollResult:
        mark = roller.mark()
        queue = deque((g.count, g.sides) for g in self.groups)
        rounds: list[tuple[int, ...]] = []
        capped = False
        while queue:
            count, sides = queue.popleft()
            faces = roller.roll(count, sides)
            rounds.append(faces)
            again = sum(1 for face in faces if self.condition.rerolls(face))
            room = roller.reroll_room(again) if again else 0
            capped = capped or room < again
            if room:
                queue.append((room, sides))
        faces = roller.faces_since(mark)
        text = self.render()
        steps = [f"({text})", " + ".join(",".join(map(str, r)) for r in rounds)]
        if capped:
            steps.append(REROLL_CAP_NOTE)
        successes = 0
        if self.comparison is not None:
            successes = sum(1 for face in faces if self.comparison.holds(face))
        steps.append(f"成功数{successes}")
        return RollResult(
            text=text,
            successes=successes,
            success=None if self.comparison is None else successes > 0,
            explanation=" ＞ ".join(steps),
            faces=faces,
        )


def _threshold(cursor: Cursor, closing: str | None) -> tuple[Operator | None, int]:
    op = parse_operator(cursor)
    value = parse_number(cursor, N_("a reroll threshold"))
    if closing is not None:
        cursor.expect(Kind.PUNCT, f"'{closing}'", closing)
    return op, value


def _refuse(reason: str | Message, token: Token) -> DiceError:
    return DiceError(
        DICE_SYNTAX,
        "{reason}: 3R6[6] rolls another die for each 6, 3R6>=5 for each 5 or 6 (and counts the "
        "faces of 5 or more)",
        token.position,
        params={"reason": reason},
    )


def parse_reroll(cursor: Cursor, budget: DiceBudget) -> RerollCommand:
    groups = parse_groups(cursor, "R", budget)
    given: tuple[Operator | None, int] | None = None
    where = cursor.peek
    if cursor.accept(Kind.PUNCT, "["):
        given = _threshold(cursor, "]")
    comparison = parse_comparison(cursor)
    if at := cursor.accept(Kind.PUNCT, "@"):
        if given is not None:
            cursor.fail("give the reroll threshold once, as [n] or as @n", at)
        where, given = at, _threshold(cursor, None)
    cursor.end()
    if given is None and comparison is None:
        raise _refuse(N_("R dice need a reroll threshold"), where)
    op = (given[0] if given else None) or (comparison.op if comparison else None) or ">="
    threshold = given[1] if given else comparison.target if comparison else 0
    condition = RerollCondition(op=op, threshold=threshold)
    for group in groups:
        if not condition.ends_on(group.sides):
            endless = Message(
                "rerolling {count}R{sides} on {op}{threshold} never ends",
                {"count": group.count, "sides": group.sides, "op": op, "threshold": threshold},
            )
            raise _refuse(endless, where)
    return RerollCommand(groups=groups, condition=condition, comparison=comparison)
