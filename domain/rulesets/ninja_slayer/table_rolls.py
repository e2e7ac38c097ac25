"""Rolling on the GM's tables (tables.py): サツバツ・クリティカル表, 死神のエントリー決定表, 弾幕.

Without the table in the game's options, `roll_table` is refused and the manual path stays:
the dice box (`1D6 サツバツ`) and `adjust`.
"""

from __future__ import annotations

from pydantic import Field

from domain.model.audience import GM
from domain.model.commands import Command
from domain.model.errors import Forbidden, KirokuError, RuleViolation
from domain.model.records import Draft

from . import guards
from .combat_events import TableRolled
from .fields import Entropy, Faces
from .rules import NINJA_SLAYER, NinjaTable
from .state import Combat, CriticalDue, NinjaState
from .tables import TABLE_NAMES, TableName

ENTRY_ROLLS = 2  # 「ダイスを1回だけ振り直すこと」: the entry table is rolled at most twice


@NINJA_SLAYER.command("roll_table")
class RollTable(Command):
    """Roll on one of the GM's tables: サツバツ (the attacker, after an unevaded サツバツ!),
    entry (the GM, after a successful Wasshoi!), 弾幕 (the GM, on mob fire)."""

    table: TableName
    attacker: str | None = Field(default=None, description="サツバツ: the attacker rolling it")
    target: str | None = Field(default=None, description="サツバツ: the one it hit")
    faces: list[int] | None = Faces
    entropy: str = Entropy


def _critical(state: NinjaState, combat: Combat, command: RollTable, actor: str) -> CriticalDue:
    due = [
        c
        for c in combat.criticals
        if command.attacker in (None, c.attacker) and command.target in (None, c.target)
    ]
    if not due:
        raise RuleViolation(
            "no_critical",
            "The サツバツ・クリティカル表 is rolled by an attacker whose サツバツ! was not evaded, "
            "right after it.",
        )
    guards.controlled(state, due[0].attacker, actor)
    return due[0]


@NINJA_SLAYER.decides(RollTable)
def roll_table(t: NinjaTable, command: RollTable, actor: str) -> list[Draft]:
    state = t.started()
    table = state.tables.get(command.table)
    name = TABLE_NAMES[command.table]
    if table is None:
        raise RuleViolation(
            "no_table",
            "This game has no {name}: roll it in the dice box and apply it with adjust.",
            params={"name": name},
        )
    outside = state.combat is None and command.table == "entry"
    # Outside a combat, the entry table follows a Wasshoi! rolled there (L191: 「ニンジャマスター
    # が適切と考えるあらゆるタイミング」): the state keeps its success (ruling NS-050).
    combat = state.combat if outside else guards.combat(state)
    wasshoi_success = state.wasshoi_success if combat is None else combat.wasshoi_success
    entry_rolls = state.entry_rolls if combat is None else combat.entry_rolls
    critical = None
    if command.table == "satsubatsu" and combat is not None:
        critical = _critical(state, combat, command, actor)
    else:
        if actor != GM:
            raise Forbidden("gm_only", "Only the GM rolls the {name}.", params={"name": name})
        if command.table == "entry" and not wasshoi_success:
            raise RuleViolation(
                "no_wasshoi", "The {name} follows a successful Wasshoi!.", params={"name": name}
            )
        if command.table == "entry" and entry_rolls >= ENTRY_ROLLS:
            raise RuleViolation(
                "entry_rolled",
                "The {name} is rolled again only once; after that the GM picks the entry.",
                params={"name": name},
            )
    rolled = t.dice.roll(f"{table.dice} {name}", command.faces, command.entropy)
    value = rolled.result.total
    if value is None:
        raise KirokuError(
            "table_dice",
            "The {name}'s dice give no total: use e.g. 1D6 or 2D6.",
            params={"name": name},
        )
    event = TableRolled(
        table=command.table,
        roll=rolled.record,
        value=value,
        text=table.look_up(value),
        attacker=critical.attacker if critical else None,
        target=critical.target if critical else None,
    )
    return [Draft(event)]
