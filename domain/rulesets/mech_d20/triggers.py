"""What an action outside one's turn answers (L178–208).

A trigger is a power still waiting to resolve, or the latest action taken. An opportunity
action answers a provoking one: a power whose range says 遠隔 (L187, L253) or a normal move
away (L188); immediate actions answer any (L193).
"""

from __future__ import annotations

from domain.model.errors import RuleViolation

from .state import Attack, Encounter


def source(current: Encounter, trigger: int) -> tuple[str, Attack | None]:
    """The unit behind trigger `trigger`, and its pending power if it has not resolved."""
    for attack in current.attacks:
        if attack.seq == trigger:
            return attack.unit, attack
    if trigger == current.last_action and current.last_actor is not None:
        return current.last_actor, None
    raise RuleViolation(
        "no_such_trigger",
        "Event {trigger} is not something to answer now: answer a power still waiting to resolve, "
        "or the latest action.",
        params={"trigger": trigger},
    )


def provokes(current: Encounter, trigger: int) -> bool:
    """L187–190: answered before it resolves, so only while it waits (a move, once taken)."""
    for attack in current.attacks:
        if attack.seq == trigger:
            return attack.provokes and attack.stage == "declared"
    return trigger == current.last_action and current.last_provokes
