"""Refusals shared by the deciders: who may act, when, and with which resources."""

from __future__ import annotations

from domain.model.audience import GM
from domain.model.errors import Forbidden, NotFound, RuleViolation

from .rules import NinjaTable
from .state import Character, Combat, NinjaState, Phase

PHASE_NAMES = {
    "turn_start": "ターン開始フェイズ",
    "teban_start": "手番開始フェイズ",
    "movement": "移動フェイズ",
    "attack": "攻撃フェイズ",
    "teban_end": "手番終了フェイズ",
    "turn_end": "ターン終了フェイズ",
}


def character(state: NinjaState, character_id: str) -> Character:
    found = state.characters.get(character_id)
    if found is None:
        raise NotFound("unknown_character", f"There is no character {character_id!r}.")
    return found


def controlled(state: NinjaState, character_id: str, actor: str) -> Character:
    found = character(state, character_id)
    if actor not in (GM, found.owner):
        raise Forbidden("not_your_character", f"{found.name} is not your character.")
    return found


def able(found: Character) -> Character:
    if not found.can_act:
        raise RuleViolation("cannot_act", f"{found.name} is {found.status} and cannot act.")
    return found


def combat(state: NinjaState) -> Combat:
    if state.combat is None:
        raise RuleViolation("no_combat", "There is no combat in progress.")
    return state.combat


def phase(current: Combat, *allowed: Phase) -> None:
    if current.phase not in allowed:
        wanted = " or ".join(PHASE_NAMES[p] for p in allowed)
        raise RuleViolation(
            "wrong_phase", f"This is done in the {wanted}; it is the {PHASE_NAMES[current.phase]}."
        )


def turn_holder(state: NinjaState, actor: str) -> Character:
    """The character whose 手番 it is, if `actor` controls it."""
    current = combat(state)
    if current.actor is None:
        raise RuleViolation("wrong_phase", f"It is the {PHASE_NAMES[current.phase]}.")
    holder = character(state, current.actor)
    if actor not in (GM, holder.owner):
        raise Forbidden("not_your_turn", f"It is {holder.name}'s 手番, not yours.")
    return holder


def acting(t: NinjaTable, actor: str, *phases: Phase) -> tuple[NinjaState, Combat, Character]:
    """The state, the combat and the able 手番 holder `actor` controls, in one of `phases`."""
    state = t.started()
    current = combat(state)
    phase(current, *phases)
    return state, current, able(turn_holder(state, actor))


def at_turn_end(t: NinjaTable, actor: str, what: str) -> tuple[NinjaState, Combat]:
    """The GM's declarations of the ターン終了フェイズ: the state and the combat, or a refusal."""
    state = t.started()
    t.referee_only(actor, what)
    current = combat(state)
    phase(current, "turn_end")
    return state, current


def first_attack_action(current: Combat, holder: Character) -> None:
    if current.acted:
        raise RuleViolation("already_acted", f"{holder.name} already acted this attack phase.")


def spend(name: str, code: str, wanted: int, left: int) -> None:
    if wanted > left:
        raise RuleViolation(code, f"{wanted} {name} declared, but only {left} left.")


def not_after_placement(current: Combat) -> None:
    """2-9: 「「新たなキャラの配置」を一番最後に処理すること」."""
    if current.placed:
        raise RuleViolation(
            "placement_is_last",
            "New characters were already placed: that is the last thing of the ターン終了フェイズ.",
        )


def nothing_pending(state: NinjaState) -> None:
    """Damage declared outside a combat (hazards.py) is evaded or taken before play goes on."""
    if state.hazards:
        waiting = ", ".join(str(d.id) for d in state.hazards)
        raise RuleViolation("damage_pending", f"Damage {waiting} is waiting to be evaded or taken.")
