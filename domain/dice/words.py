"""The extension point: dice words a ruleset adds to the common commands, and what their parser
needs from the dice language.

A game system's own commands (BCDice's NinjaSlayer2 `N5`, `NJ4[N]`, `WS8` …) are not common
commands: they are read only where the ruleset that declares them is played, as BCDice reads
them only in their game system. A ruleset declares them once through its kit
(`RULES.dice_words(WORDS)`, domain/model/ruleset.py); `parse(text, words)` reads a command
whose first word is one of `WORDS.words` with `WORDS.parse`, and refuses one of
`WORDS.refused` with its reason. Nothing here knows any ruleset: the words come in as an
argument, so this package imports no ruleset (the rulesets import it).

    WORDS = DiceWords(
        words=frozenset({"NJ", "WS"}),
        parse=parse_mine,                 # (cursor at the word, budget) -> a Command
        supported="My game's NJ4, WS8",   # added to the line every refusal ends with
        refused={"SB": "the SB table is game data the GM loads, not a dice command"},
    )

A word set's commands are `Command`s (render, requests, rerolls, evaluate against a `Roller`),
read from `Cursor` tokens, spending the `DiceBudget`; re-exported here so that a ruleset's dice
module imports this module alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .budget import DiceBudget
from .commands import Command
from .compare import Operator, holds, parse_operator
from .errors import DICE_LIMIT, DICE_SYNTAX, DICE_UNSUPPORTED, DiceError
from .faces import Roller
from .request import DiceRequest
from .result import RollResult
from .tokens import Cursor, Kind

WordParser = Callable[[Cursor, DiceBudget], Command]
"""Reads one command, the cursor at its first word (still to be taken), to the end."""


@dataclass(frozen=True, eq=False)
class DiceWords:
    """A set of dice words one ruleset adds. Compared and hashed by identity: each ruleset
    declares its set once, as a module constant."""

    words: frozenset[str]
    """The first words (upper case, letters only: `NJ`, `UH`) that choose one of its commands."""
    parse: WordParser
    supported: str
    """How the line every refusal ends with names them: "Ninja Slayer's N5, WS8"."""
    refused: Mapping[str, str] = field(default_factory=dict)
    """Words of the game system that are recognised and refused: word → the reason players
    read. A refused word may begin with the secret `S` (`SB`): `SB` is refused, not read as
    a secret `B`, as BCDice tries the command before the prefix."""

    def reads(self, word: str) -> bool:
        return word in self.words or word in self.refused


__all__ = [
    "DICE_LIMIT",
    "DICE_SYNTAX",
    "DICE_UNSUPPORTED",
    "Command",
    "Cursor",
    "DiceBudget",
    "DiceError",
    "DiceRequest",
    "DiceWords",
    "Kind",
    "Operator",
    "RollResult",
    "Roller",
    "WordParser",
    "holds",
    "parse_operator",
]
