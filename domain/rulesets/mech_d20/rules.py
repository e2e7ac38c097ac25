"""The ruleset's declaration: every command, event, fold, the view and the audit attach to it.

Each mechanic module declares its own commands with their deciders and its events with their
folds (domain/model/ruleset.py); `__init__` imports them all and completes the ruleset.
"""

from __future__ import annotations

from domain.model.ruleset import Ruleset

from .state import MechOptions, MechState


def _initial(options: MechOptions, seats: int) -> MechState:
    return MechState(private_pc_sheets=options.private_pc_sheets, defences=options.defences)


MECH_D20: Ruleset[MechState, MechOptions] = Ruleset(
    "mech_d20",
    "2",  # 2: the battle map (positions, terrain, hidden placements), BCDice rolls
    state=MechState,
    options=MechOptions,
    initial=_initial,
    summary=(
        "メカd20 (a d20 mecha combat system): units with sealed NPC sheets, initiative and "
        "delay, the action economy enforced (standard/move/minor, one immediate action a round, "
        "one opportunity action a turn, one 精神コマンド an encounter, encounter and daily "
        "powers), attacks against defences the attacker cannot see, criticals, area attacks, "
        "save-ends conditions, death saves, 半壊, hero points per seat"
    ),
)
