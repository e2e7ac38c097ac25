"""Ninja Slayer's dice words: BCDice's NinjaSlayer2 commands (`K5` … `UH5`, series `N5,3,4`,
extra counts `[S]`, `[C]`, `[>=5]`, `WS8`), its first-edition-compatible ones removed from
BCDice in late 2023 (`NJ4[N]`, `AT4`, `EV4/2`, `EL4`), and Kiroku's UH2/UH3 and difficulty per
pool (docs/reference/typed-dice.md). The ruleset declares them (rules.py), so the typed dice
read them in a Ninja Slayer game only; chat rolls there are BCDice's NinjaSlayer2.

`parse(text)` reads a command as a Ninja Slayer game's typed dice do: the common commands and
these words.
"""

from __future__ import annotations

from domain.dice import Expression, supported
from domain.dice import parse as parse_dice

from .parser import NINJA_DICE

WORDS = (NINJA_DICE,)

SUPPORTED = supported([NINJA_DICE.supported])
"""The line every refusal of a Ninja Slayer game's typed dice ends with."""


def parse(raw: str) -> Expression:
    """A dice command as a Ninja Slayer game reads it (domain.dice.parse with its words)."""
    return parse_dice(raw, WORDS)


__all__ = ["NINJA_DICE", "SUPPORTED", "WORDS", "parse"]
