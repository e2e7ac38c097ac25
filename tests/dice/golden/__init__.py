"""BCDice's own test vectors (numbers and flags only, see extract.py) and how Kiroku's result
is compared with each: the same refusal, the same dice asked for in the same order, the same
integers in the explanation (totals, success counts, faces, targets), the same flags and, for
CHOICE, the same item. `python -m tests.dice.golden` prints the agreement per family.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from domain.dice import DiceError
from domain.rulesets.ninja_slayer.dice import parse  # the common commands and Ninja Slayer's

HERE = Path(__file__).parent
NUMBER = re.compile(r"-?\d+")

# Vectors where Kiroku deliberately differs from BCDice, each with the reason; every name
# here is also in docs/reference/typed-dice.md ("Differences from BCDice").
EXCLUDED = {
    "None:34": "1D6/0: Kiroku refuses a division by 0; BCDice answers 1",
    "NinjaSlayer2:7": "SB: the サツバツ・クリティカル表 is game data, not a dice command",
    "NinjaSlayer2:8": "SB@6: the サツバツ・クリティカル表 is game data, not a dice command",
    "NinjaSlayer2:9": "WS8: BCDice flags Ninja Slayer's entry as the failure; Kiroku's success "
    "is the check (total <= n)",
    "NinjaSlayer2:10": "WS8: as NinjaSlayer2:9",
    "NinjaSlayer2:11": "WSE: the 死神のエントリー決定表 is game data, not a dice command",
    "NinjaSlayer2:12": "WSE@6: the 死神のエントリー決定表 is game data, not a dice command",
    **{
        f"NinjaSlayer2:{n}": "NRS: the NRS table is game data, not a dice command"
        for n in range(13, 20)
    },
}

# Families where BCDice raises no success/failure flag but Kiroku sets `success` (a pool or
# check succeeds when it counts at least one success); see docs/reference/typed-dice.md.
SUCCESS_WITHOUT_BCDICE_FLAG = {"pool", "reroll", "upper", "ninja_legacy"}


@dataclass(frozen=True)
class Vector:
    name: str
    family: str
    input: str
    rands: list[list[int]]
    refused: bool
    numbers: list[int]
    flags: list[str]
    chosen: int | None = None
    source: str = field(default="", compare=False)


def vectors() -> Iterator[Vector]:
    for path in sorted(HERE.glob("*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        source = json.loads(lines[0])["source"]
        for line in lines[1:]:
            yield Vector(**json.loads(line), source=source)


def disagreement(vector: Vector) -> str | None:
    """Why Kiroku's result for this vector differs from BCDice's, or None if it agrees."""
    try:
        expression = parse(vector.input)
    except DiceError as error:
        return None if vector.refused else f"refused: {error}"
    if vector.refused:
        return f"accepted as {expression.text!r}, BCDice refuses it"
    faces = [value for _, value in vector.rands]
    try:
        replayed = expression.replay(faces)
    except DiceError as error:
        return f"faces refused: {error}"
    result = replayed.result
    sides = [r.sides for r in replayed.requests for _ in range(r.count)]
    if sides != [s for s, _ in vector.rands]:
        return f"asked for dice of {sides} sides, BCDice for {[s for s, _ in vector.rands]}"
    numbers = [int(n) for n in NUMBER.findall(result.explanation)]
    if numbers != vector.numbers:
        return f"explanation numbers {numbers} != {vector.numbers}: {result.explanation}"
    if expression.secret != ("secret" in vector.flags):
        return f"secret is {expression.secret}"
    expected = True if "success" in vector.flags else False if "failure" in vector.flags else None
    if result.success != expected and not (
        expected is None and vector.family in SUCCESS_WITHOUT_BCDICE_FLAG
    ):
        return f"success is {result.success}, BCDice flags {expected}"
    for flag in ("critical", "fumble"):
        if (flag in vector.flags) != (flag in result.criticals):
            return f"{flag} is {flag in result.criticals}"
    # CHOICE: the same number of items (the die's sides, above) and the same one picked.
    if vector.chosen is not None and (result.value is None or result.faces != (vector.chosen,)):
        return f"picked {result.value!r} (item {result.faces}), BCDice item {vector.chosen}"
    return None


def agreement() -> dict[str, tuple[int, int, int]]:
    """Per family: (agreeing, compared, excluded)."""
    counts: dict[str, list[int]] = {}
    for vector in vectors():
        tally = counts.setdefault(vector.family, [0, 0, 0])
        if vector.name in EXCLUDED:
            tally[2] += 1
            continue
        tally[1] += 1
        if disagreement(vector) is None:
            tally[0] += 1
    return {name: (a, c, e) for name, (a, c, e) in sorted(counts.items())}
