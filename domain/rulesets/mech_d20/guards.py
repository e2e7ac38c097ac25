"""Refusals the deciders share: which unit, whose control, which turn."""

from __future__ import annotations

from domain.model.audience import GM
from domain.model.errors import Forbidden, NotFound, RuleViolation
from domain.model.table import Table

from .health import out
from .state import Attack, Encounter, MechState, Turn, Unit


def unit(state: MechState, unit_id: str) -> Unit:
    found = state.units.get(unit_id)
    if found is None:
        # Not the id it was sent: the reader knows units by name, and an id nobody holds has none.
        raise NotFound("unknown_unit", "That unit is not in this game.")
    return found


def controllers(state: MechState, found: Unit) -> tuple[str, ...]:
    """Who gives a unit its orders: its owner, or while 支配 the dominator's controller
    (「どのような行動をするかは支配状態にしたキャラクターが決定」, L388). The GM always may."""
    for applied in found.effects:
        if "支配" in applied.effect.conditions and applied.source in state.units:
            return (GM, state.units[applied.source].owner)
    return (GM, found.owner)


def controlled(state: MechState, unit_id: str, actor: str) -> Unit:
    found = unit(state, unit_id)
    if actor not in controllers(state, found):
        if "支配" in _conditions(found):
            raise Forbidden(
                "dominated",
                "{found} is 支配状態: whoever dominates it decides what it does (L388).",
                params={"found": found.name},
            )
        raise Forbidden("not_your_unit", "{found} is not your unit.", params={"found": found.name})
    return found


def _conditions(found: Unit) -> set[str]:
    return {c for a in found.effects for c in a.effect.conditions}


def dominated(found: Unit) -> bool:
    return "支配" in _conditions(found)


def encounter(state: MechState) -> Encounter:
    if state.encounter is None:
        raise RuleViolation("no_encounter", "There is no encounter in progress.")
    return state.encounter


def playing(t: Table[MechState]) -> tuple[MechState, Encounter]:
    state = t.started()
    return state, encounter(state)


def participant(current: Encounter, found: Unit) -> None:
    if found.id not in current.participants:
        raise RuleViolation(
            "not_in_encounter", "{found} is not in this encounter.", params={"found": found.name}
        )


def able(found: Unit) -> Unit:
    if found.status != "active":
        raise RuleViolation(
            "cannot_act",
            "{found} is {status} and cannot act.",
            params={"found": found.name, "status": found.status},
        )
    return found


def on_field(found: Unit) -> Unit:
    if out(found):
        raise RuleViolation(
            "unit_out", "{found} is out of the fight.", params={"found": found.name}
        )
    return found


def started_turn(current: Encounter, found: Unit) -> Turn | None:
    """The unit's turn if it is under way, else None (it acts outside its turn)."""
    turn = current.turn
    if turn is not None and turn.unit == found.id:
        return turn
    return None


def nothing_pending(current: Encounter, what: str) -> None:
    if current.attacks:
        pending = current.attacks[-1]
        raise RuleViolation(
            "power_pending",
            "{power} ({unit}) is not resolved yet: resolve it before {what}.",
            params={"power": pending.power, "unit": pending.unit, "what": what},
        )


def top(current: Encounter) -> Attack:
    if not current.attacks:
        raise RuleViolation("nothing_pending", "No power is waiting to be resolved.")
    return current.attacks[-1]


def sealed_to(state: MechState, found: Unit) -> tuple[str, ...]:
    """Who may read the unit's numbers: () for a public PC, else the GM (and a private PC's
    seat)."""
    if found.kind == "npc":
        return (GM,)
    if state.private_pc_sheets:
        return (GM, found.owner)
    return ()
