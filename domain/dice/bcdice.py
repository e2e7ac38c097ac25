"""BCDice's answer to a chat command, as data: what the decider records and the audit checks.

BCDice itself (npm `bcdice`, run by domain/adapters/bcdice_engine.py in a Node.js process) evaluates
every chat command of a game in the game's system; its randomizer takes each face from the
game's committed stream (docs/reference/dice.md, "the protocol"). What comes back is an
`Evaluation`; the pure decider checks its faces against the stream and records it. Nothing here
does I/O.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict

from .normalize import to_halfwidth

DEFAULT_SYSTEM = "DiceBot"  # BCDice's generic dice bot: its common commands only

# Rulesets keep their own system: a Ninja Slayer table types NinjaSlayer2's commands.
RULESET_SYSTEMS = {"ninja_slayer": "NinjaSlayer2"}


def default_system(ruleset: str) -> str:
    """The BCDice system a game of `ruleset` rolls in unless its creator picks another."""
    return RULESET_SYSTEMS.get(ruleset, DEFAULT_SYSTEM)


class BCDiceResult(BaseModel):
    """BCDice's `Result`: its text and flags, and every randomizer call as (value, sides)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    secret: bool = False
    success: bool = False
    failure: bool = False
    critical: bool = False
    fumble: bool = False
    rands: tuple[tuple[int, int], ...] = ()

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(value for value, _sides in self.rands)

    @property
    def sides(self) -> tuple[int, ...]:
        return tuple(sides for _value, sides in self.rands)


class Evaluation(BaseModel):
    """A command as BCDice `version` of `system` read it: `result` None when BCDice does not
    know the command (the line is chat)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    system: str
    version: str
    command: str
    result: BCDiceResult | None = None


def runs(sides: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Randomizer calls as (count, sides) runs, in order: `Draw.faces` of these runs draws
    exactly one face per call (domain/model/fairness.py)."""
    out: list[tuple[int, int]] = []
    for s in sides:
        if out and out[-1][1] == s:
            out[-1] = (out[-1][0] + 1, s)
        else:
            out.append((1, s))
    return tuple(out)


def as_drawn(faces: list[int], sides: tuple[int, ...]) -> list[int]:
    """Faces as given (a physical die read by a player, BCDice's test data) as BCDice's
    randomizer draws them: a ten-sided die labelled 0-9 shows "0" for the 10 that BCDice's
    `random(10)` returns (the systems that read a d10 as 0-9 turn that 10 into 0 themselves),
    so a d10 given 0 is 10. Every other face is as given."""
    return [
        10 if face == 0 and index < len(sides) and sides[index] == 10 else face
        for index, face in enumerate(faces)
    ]


# BCDice reads a command up to the first blank; the rest of the line is its comment. A choice
# (`choice[a, b]`) and a repetition (`x3 2D6`) read on past blanks, so they keep no comment.
_READS_ON = re.compile(r"^S?(?:choice\d*[\[(]|(?:x|rep|repeat)\d+\s)", re.IGNORECASE)


def split_command(line: str) -> tuple[str, str]:
    """The command BCDice evaluates and the comment it leaves out of its text:
    `CC<=54 目星` → (`CC<=54`, `目星`). The command is what the event records and the audit
    evaluates again. As chat tools do before BCDice, full-width ASCII typed through an IME is
    read as half-width (`ＣＣ＜＝５４` is `CC<=54`); the comment stays as typed."""
    stripped = line.strip()
    if _READS_ON.match(to_halfwidth(stripped)):
        return to_halfwidth(stripped), ""
    parts = stripped.split(maxsplit=1)  # a blank is also the ideographic one
    if not parts:
        return "", ""
    return to_halfwidth(parts[0]), parts[1] if len(parts) > 1 else ""


def result_json(result: BCDiceResult) -> dict[str, Any]:
    """The result as the event records it: BCDice's text as `explanation` (what every log
    shows), its flags, and the faces in call order."""
    return {
        "explanation": result.text,
        "faces": list(result.faces),
        "secret": result.secret,
        "success": result.success,
        "failure": result.failure,
        "critical": result.critical,
        "fumble": result.fumble,
    }
