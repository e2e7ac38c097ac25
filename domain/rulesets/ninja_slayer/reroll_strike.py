"""●ニンジャ第六感 on an attack: one strike of it, before the enemy rolled any evasion."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.model.errors import RuleViolation
from domain.model.records import Draft

from . import checks, guards
from .combat_events import StrikeRerolled
from .damage import evadable, taken
from .events import SixthSense
from .rules import NinjaTable
from .state import AttackMemo, Character, NinjaState
from .strikes import resolve

if TYPE_CHECKING:
    from .abilities import Reroll


def reroll_strike(
    t: NinjaTable, state: NinjaState, holder: Character, command: Reroll, memo: AttackMemo
) -> list[Draft]:
    combat = guards.combat(state)
    if command.check_seq in combat.evaded_attacks:
        raise RuleViolation(
            "evasion_already_rolled", "The enemy already rolled an evasion against this attack."
        )
    if not 0 <= command.strike < len(memo.strikes):
        raise RuleViolation(
            "unknown_strike",
            "That attack has {n_strikes} strike(s).",
            params={"n_strikes": len(memo.strikes)},
        )
    old = memo.strikes[command.strike]
    pending = {d.id for d in combat.damages}
    if old.damage is not None and old.damage not in pending:
        raise RuleViolation("damage_resolved", "That strike's damage was already taken.")
    detail = checks.again(
        t.dice,
        memo.details.strikes[command.strike],
        faces=command.faces,
        entropy=command.entropy,
        command="AT" if memo.terms.kind == "melee" else "NJ",
    )
    target = state.characters[old.target]
    strike, damage = resolve(
        combat,
        holder,
        target,
        detail,
        memo.terms,
        damage_id=combat.next_damage,
        attack_seq=command.check_seq,
        strikes_on_target=sum(1 for s in memo.strikes if s.target == old.target),
    )
    shown, sealed, audience = checks.placed(holder, detail)
    event = StrikeRerolled(
        attacker=holder.id,
        of_seq=command.check_seq,
        index=command.strike,
        strike=strike,
        replaces=old.damage,
        damage=damage,
        detail=shown,
        secret=sealed,
    )
    drafts = [
        Draft(SixthSense(character=holder.id, of_seq=command.check_seq)),
        Draft(event, audience=audience),
    ]
    if damage is not None and not evadable(target):
        drafts.append(taken(target, [damage]))
    return drafts
