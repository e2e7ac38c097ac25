"""機会アクション (L180–191): one a turn, a 近接基礎攻撃 (or a power usable as one) on the unit
whose careless act provoked it, resolved before that act (L182, L189–190).

What provokes: a power whose range says 遠隔, harmful or not (L187, L252–253, L257), or a
normal move, crawl or flight away (L188, L111, L364). Without a map adjacency is the table's:
the attacker declares it by answering the trigger. On a map it is computed: the attacker is an
enemy adjacent to the shooter (L187 「君に隣接する敵が遠隔攻撃または遠隔範囲攻撃を行なう」), or
to a square the mover left (L188 「君に隣接するマスから通常移動で離れようと」), sees it (L204),
and may act off-turn; the view offers the attack only to such units (`opportunities`), each
audience from the positions it knows.
"""

from __future__ import annotations

from pydantic import Field

from domain.model.errors import KirokuError, RuleViolation
from domain.model.records import Draft
from domain.model.table import Table

from . import conditions, geometry, guards, mapped, sight, triggers, uses
from .grid import knows
from .powers import Declaration, check_declared, declared, power_of, targets_of, weapon_for
from .rules import MECH_D20
from .sheet import MELEE_BASIC
from .state import Encounter, MechState, Unit


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
        raise RuleViolation(
            "does_not_provoke", "{unit} cannot answer its own act.", params={"unit": unit.name}
        )
    if unit.id in current.opportunity_used:
        raise RuleViolation(
            "opportunity_action_used",
            "{unit} has taken its opportunity action this turn (L183, L191).",
            params={"unit": unit.name},
        )
    mover = state.units[source]
    mapped.known_targets(state, actor, [mover.id])
    sees = command.sees_trigger
    if state.grid is not None and unit.position is not None and mover.position is not None:
        if not geometry.enemies(unit, mover) or not _adjacent(
            current, unit, mover, command.trigger
        ):
            raise RuleViolation(
                "not_adjacent",
                "{unit}は{mover}に隣接する敵ではない: 機会攻撃は隣接する敵の遠隔攻撃、"
                "または隣接するマスから離れる通常移動にだけ行なえる (L187–188)。",
                params={"unit": unit.name, "mover": mover.name},
            )
        sees = sight.sees(state.grid, unit, mover)
    refusal = conditions.cannot_act_off_turn(unit, self_trigger=False, sees_trigger=sees)
    if refusal:
        raise RuleViolation("cannot_act_off_turn", refusal)
    power = power_of(unit, command.power)
    if not power.melee_basic:
        raise RuleViolation(
            "not_a_melee_basic_attack",
            "An opportunity attack is a 近接基礎攻撃 or a power usable as one; {power} is not "
            "(L182).",
            params={"power": power.name},
        )
    if command.targets not in ([], [source]):
        raise KirokuError("bad_target", "An opportunity attack targets the unit that provoked it.")
    uses.check(unit, power, dominated=guards.dominated(unit))
    targets = targets_of(state, current, power, [source])
    weapon = weapon_for(unit, power, command.weapon)
    command = mapped.check(state, unit, power, weapon, _before(current, unit, targets), command)
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


def _adjacent(current: Encounter, unit: Unit, mover: Unit, trigger: int) -> bool:
    """L187: adjacent to the shooter; L188: to a square the mover left (its last move)."""
    if any(a.seq == trigger and not a.charge for a in current.attacks):
        return geometry.adjacent(unit, mover)
    mine = geometry.squares_of(unit)
    return any(
        geometry.between(geometry.footprint(square, mover.sheet.size), mine) == 1
        for square in current.last_left
    )


def _trigger(current: Encounter) -> int | None:
    """The act an opportunity attack may answer now: a provoking power still waiting to be
    resolved (innermost first), else the latest action if it provoked."""
    for attack in reversed(current.attacks):
        if attack.provokes and attack.stage == "declared":
            return attack.seq
    if current.last_provokes and current.last_action is not None:
        return current.last_action
    return None


def opportunity_offers(state: MechState, audience: str) -> list[str]:
    """On a map, the units that may answer the latest act with an opportunity attack, among
    those whose squares `audience` knows (a hidden unit is offered to the GM alone)."""
    current = state.encounter
    grid = state.grid
    if current is None or grid is None:
        return []
    trigger = _trigger(current)
    if trigger is None:
        return []
    mover_id = next((a.unit for a in current.attacks if a.seq == trigger), current.last_actor)
    mover = state.units.get(mover_id or "")
    if mover is None or mover.position is None or not knows(audience, mover):
        return []
    found = []
    for uid in current.participants:
        unit = state.units.get(uid)
        if unit is None or unit.id == mover.id or unit.position is None:
            continue
        if not knows(audience, unit) or unit.id in current.opportunity_used:
            continue
        if unit.status != "active" or not geometry.enemies(unit, mover):
            continue
        if not _adjacent(current, unit, mover, trigger):
            continue
        seen = sight.sees(grid, unit, mover)
        if conditions.cannot_act_off_turn(unit, self_trigger=False, sees_trigger=seen):
            continue
        found.append(unit.id)
    return found


def _before(current: Encounter, unit: Unit, targets: list[Unit]) -> list[Unit]:
    """L190: an attack on a move comes 「移動する直前」, so it reaches the mover where it stood
    next to the attacker (the first such square the move left)."""
    if not current.last_left:
        return targets
    mine = geometry.squares_of(unit)
    found = []
    for target in targets:
        for square in current.last_left:
            near = geometry.footprint(square, target.sheet.size)
            if target.position is not None and geometry.between(near, mine) == 1:
                position = target.position.model_copy(update={"x": square[0], "y": square[1]})
                target = target.model_copy(update={"position": position})
                break
        found.append(target)
    return found
