"""The ruleset's declaration: カードゲーム「超人ロック」 (2020 basic rules; the 2002 turn too).

The game has no referee: its creator is a host (refusals say so), who sees secrets only as the
audience it also is; the server checks every declaration against the sealed truth. Each
mechanic module declares its commands with their deciders on CHOJIN_LOCKE, each *_events module
its events with their folds; the package imports them all and completes the ruleset.
"""

from __future__ import annotations

from domain.model.ruleset import Ruleset
from domain.model.table import Table
from domain.rulesets.chojin_locke.catalog import sample
from domain.rulesets.chojin_locke.counts import check_player_count
from domain.rulesets.chojin_locke.options import ChojinOptions
from domain.rulesets.chojin_locke.state import ChojinState


def _initial(options: ChojinOptions, seats: int) -> ChojinState:
    return ChojinState(
        catalog=options.catalog or sample(),
        seats=seats,
        rules=options.rules,
        vigil_turns=options.evil_vigil_turns,
    )


CHOJIN_LOCKE = Ruleset(
    "chojin_locke",
    "5",  # 5: own jammer, square NPCs, entry order, BCDice rolls
    state=ChojinState,
    options=ChojinOptions,
    initial=_initial,
    summary="カードゲーム「超人ロック」: hidden identities, declarations checked against the "
    "secret sheet (docs/rulesets/chojin-locke/index.md).",
    check_seats=check_player_count,
    referee="host",
)

ChojinTable = Table[ChojinState]
