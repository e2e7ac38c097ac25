"""2-17 アトモスフィアとハードモード: the turn count of a boss fight, and the GM's say over it.

「この戦闘が3ターン以上経過した場合、その「ターン終了フェイズ」にアトモスフィアの上昇を宣言し」;
「さらに3ターン経過後(計6ターン経過後)にウルトラハードモードとなる」;
「一度上昇したアトモスフィアは、戦闘が終了するまで下がることはない」;
「アトモスフィアの上昇タイミング、および経過ターン数仕切り直しなどの決定権は、常にマスターのにある。
ただし、アトモスフィアの変更宣言は必ずターン終了時に行うこと」.
"""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft

from . import guards
from .combat_events import AtmosphereSet
from .rules import NINJA_SLAYER, NinjaTable
from .state import Combat

HARD_AFTER = 3  # turns elapsed: HARD mode from the next turn
ULTRA_HARD_AFTER = 6
TOP = 2  # 0 normal, 1 HARD mode, 2 ULTRA-HARD mode


def elapsed(combat: Combat) -> int:
    """経過ターン数: turns counted since the count (re)started, this one included."""
    return combat.turn - combat.count_from + 1


def due(combat: Combat) -> int | None:
    """The level a boss fight's turn end declares by the turn count, if it rises."""
    turns = elapsed(combat)
    level = 2 if turns >= ULTRA_HARD_AFTER else 1 if turns >= HARD_AFTER else 0
    return level if combat.boss_fight and level > combat.atmosphere else None


@NINJA_SLAYER.command("atmosphere")
class Atmosphere(Command):
    """GM, ターン終了フェイズ only: raise the atmosphere early, hold back this turn end's rise,
    or restart the turn count (経過ターン数仕切り直し)."""

    level: int = Field(ge=0, le=TOP, description="0 normal, 1 HARD, 2 ULTRA-HARD (next turn)")
    reset_count: bool = Field(default=False, description="Count the turns again from the next")


@NINJA_SLAYER.decides(Atmosphere)
def atmosphere(t: NinjaTable, command: Atmosphere, actor: str) -> list[Draft]:
    _state, combat = guards.at_turn_end(t, actor, "change the atmosphere")
    guards.not_after_placement(combat)
    if command.level < combat.atmosphere_at_start:
        raise RuleViolation(
            "atmosphere_never_falls",
            "Once risen, the atmosphere does not fall before the combat ends "
            "(「一度上昇したアトモスフィアは、戦闘が終了するまで下がることはない」).",
        )
    count_from = combat.turn + 1 if command.reset_count else combat.count_from
    return [Draft(AtmosphereSet(level=command.level, count_from=count_from))]
