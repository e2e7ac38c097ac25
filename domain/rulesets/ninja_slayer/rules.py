"""The ruleset's declaration: ニンジャスレイヤーTRPG 2nd edition, combat kept by the rules.

Each mechanic module declares its commands with their deciders on NINJA_SLAYER; events.py and
combat_events.py declare the events with their folds; view.py the view. The package imports
them all and completes the ruleset (docs/rulesets/ninja-slayer/index.md).
"""

from __future__ import annotations

from domain.model.ruleset import Ruleset
from domain.model.table import Table

from .dice import NINJA_DICE
from .state import NinjaOptions, NinjaState


def _initial(options: NinjaOptions, seats: int) -> NinjaState:
    return NinjaState(private_pc_sheets=options.private_pc_sheets, tables=options.tables)


NINJA_SLAYER = Ruleset(
    "ninja_slayer",
    "6",  # 4: campaign, hazards; 5: rolls record the BCDice system and version; 6: a
    # sheet field's description in one language (the schema is the state's fingerprint)
    state=NinjaState,
    options=NinjaOptions,
    initial=_initial,
    summary="ニンジャスレイヤーTRPG 2nd edition: d6 pools against difficulty, combat kept by "
    "the rules (docs/rulesets/ninja-slayer/index.md).",
)
NINJA_SLAYER.dice_words(NINJA_DICE)  # N5, NJ4[N], EV4/2, WS8 …: read in its games only

NinjaTable = Table[NinjaState]
