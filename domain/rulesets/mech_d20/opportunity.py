"""機会アクション (L180–191): one a turn, a 近接基礎攻撃 (or a power usable as one) on the unit
whose careless act provoked it, resolved before that act (L182, L189–190).

What provokes: a power whose range says 遠隔, harmful or not (L187, L252–253, L257), or a
normal move, crawl or flight away (L188, L111, L364). Adjacency is the table's: Kiroku has no
map, so the attacker declares it by answering the trigger.
"""

from __future__ import annotations

from pydantic import Field

from domain.errors import KirokuError, RuleViolation
from domain.records import Draft
from domain.table import Table

from . import conditions, guards, triggers, uses
from .powers import Declaration, check_declared, declared, power_of, targets_of, weapon_for
from .rules import MECH_D20
from .sheet import MELEE_BASIC
from .state import MechState


@MECH_D20.command("opportunity_attack")
class OpportunityAttack(Declaration):
    """Answer a provoking act (`trigger`: its seq) with a melee basic attack on its maker."""

    trigger: int = Field(ge=1)
    power: str = Field(default=MELEE_BASIC, max_length=60)
    sees_trigger: bool = True


@MECH_D20.decides(OpportunityAttack)
def opportunity_attack(t: Table[MechState], command: OpportunityAttack, actor: str) -> list[Draft]:
    state, current = guards.playing(t)
    unit = guards.controlled(state, command.unit, actor)
    guards.participant(current, unit)
    guards.able(unit)
    source, _ = triggers.source(current, command.trigger)
    if not triggers.provokes(current, command.trigger):
        raise RuleViolation(
            "does_not_provoke",
            "That does not provoke an opportunity attack (遠隔 powers and moves away do, "
            "before they resolve: L187–190, L227–232).",
        )
    if source == unit.id:
        raise RuleViolation("does_not_provoke", f"{unit.name} cannot answer its own act.")
    if unit.id in current.opportunity_used:
        raise RuleViolation(
            "opportunity_action_used",
            f"{unit.name} has taken its opportunity action this turn (L183, L191).",
        )
    refusal = conditions.cannot_act_off_turn(
        unit, self_trigger=False, sees_trigger=command.sees_trigger
    )
    if refusal:
        raise RuleViolation("cannot_act_off_turn", refusal)
    power = power_of(unit, command.power)
    if not power.melee_basic:
        raise RuleViolation(
            "not_a_melee_basic_attack",
            f"An opportunity attack is a 近接基礎攻撃 or a power usable as one; {power.name} "
            "is not (L182).",
        )
    if command.targets not in ([], [source]):
        raise KirokuError("bad_target", "An opportunity attack targets the unit that provoked it.")
    uses.check(unit, power, dominated=guards.dominated(unit))
    targets = targets_of(state, current, power, [source])
    weapon = weapon_for(unit, power, command.weapon)
    check_declared(unit, command)
    event = declared(
        command,
        unit,
        power,
        targets,
        weapon,
        action="機会",
        off_turn="機会",
        trigger=command.trigger,
        pending=True,
    )
    return [Draft(event)]
