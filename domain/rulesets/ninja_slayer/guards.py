"""Refusals shared by the deciders: who may act, when, and with which resources."""

from __future__ import annotations

from collections.abc import Iterable

from domain.model.audience import GM
from domain.model.errors import Forbidden, NotFound, RuleViolation
from domain.model.messages import N_

from .rules import NINJA_SLAYER, NinjaTable
from .state import Character, Combat, Damage, NinjaState, Phase

PHASE_NAMES = {
    "turn_start": N_("ターン開始フェイズ"),
    "teban_start": N_("手番開始フェイズ"),
    "movement": N_("移動フェイズ"),
    "attack": N_("攻撃フェイズ"),
    "teban_end": N_("手番終了フェイズ"),
    "turn_end": N_("ターン終了フェイズ"),
}


def label(state: NinjaState, character_id: str) -> str:
    """What the lines call a character (its name; a shared name with its number, ruling
    NS-054): a refusal says it the same way. Every audience reads every name (events.py)."""
    return NINJA_SLAYER.people(state, GM).get(character_id, character_id)


def damaged(state: NinjaState, damages: Iterable[Damage]) -> str:
    """The characters the damages are aimed at, by name, each once, joined as the lines join
    them (「アキ・ベン」, words.listed)."""
    return "・".join(dict.fromkeys(label(state, d.target) for d in damages))


def character(state: NinjaState, character_id: str) -> Character:
    found = state.characters.get(character_id)
    if found is None:
        # Not the id it was sent: the reader knows characters by name, and an id nobody
        # holds has none.
        raise NotFound("unknown_character", "That character is not in this game.")
    return found


def controlled(state: NinjaState, character_id: str, actor: str) -> Character:
    found = character(state, character_id)
    if actor not in (GM, found.owner):
        raise Forbidden(
            "not_your_character", "{found} is not your character.", params={"found": found.name}
        )
    return found


def able(found: Character) -> Character:
    if not found.can_act:
        raise RuleViolation(
            "cannot_act",
            "{found} is {status} and cannot act.",
            params={"found": found.name, "status": found.status},
        )
    return found


def combat(state: NinjaState) -> Combat:
    if state.combat is None:
        raise RuleViolation("no_combat", "There is no combat in progress.")
    return state.combat


def phase(current: Combat, *allowed: Phase) -> None:
    if current.phase not in allowed:
        wanted = tuple(PHASE_NAMES[p] for p in allowed)
        raise RuleViolation(
            "wrong_phase",
            "This is done in the {wanted}; it is the {phase}.",
            params={"wanted": wanted, "phase": PHASE_NAMES[current.phase]},
        )


def turn_holder(state: NinjaState, actor: str) -> Character:
    """The character whose 手番 it is, if `actor` controls it."""
    current = combat(state)
    if current.actor is None:
        raise RuleViolation(
            "wrong_phase", "It is the {phase}.", params={"phase": PHASE_NAMES[current.phase]}
        )
    holder = character(state, current.actor)
    if actor not in (GM, holder.owner):
        raise Forbidden(
            "not_your_turn", "It is {holder}'s 手番, not yours.", params={"holder": holder.name}
        )
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
        raise RuleViolation(
            "already_acted",
            "{holder} already acted this attack phase.",
            params={"holder": holder.name},
        )


def spend(name: str, code: str, wanted: int, left: int) -> None:
    if wanted > left:
        raise RuleViolation(
            code,
            "{wanted} {name} declared, but only {left} left.",
            params={"wanted": wanted, "name": name, "left": left},
        )


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
        raise RuleViolation(
            "damage_pending",
            "The damage dealt to {names} waits for its 回避判定 or to be taken.",
            params={"names": damaged(state, state.hazards)},
        )
