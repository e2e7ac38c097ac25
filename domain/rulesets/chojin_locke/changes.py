"""Small copy helpers for folds: each returns a new state and never changes the one it is
given (the catalog is shared, being never changed)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from domain.rulesets.chojin_locke.state import ChojinState, Player

T = TypeVar("T")


def players(state: ChojinState, *changed: Player) -> ChojinState:
    return state.model_copy(update={"players": {**state.players, **{p.seat: p for p in changed}}})


def player(state: ChojinState, seat: int, **update: object) -> ChojinState:
    return players(state, state.players[seat].model_copy(update=update))


def turned_face_up(state: ChojinState, seat: int, card: str | None) -> ChojinState:
    """4.7 l.844–845: an ability card used is turned face up and stays in its holder's hand
    (ruling CL-030); no card, or no such player, the state as it is."""
    if card is None or seat not in state.players:
        return state
    return player(state, seat, face_up=[*state.players[seat].face_up, card])


def board(state: ChojinState, **update: object) -> ChojinState:
    return state.model_copy(update={"board": state.board.model_copy(update=update)})


def turn(state: ChojinState, **update: object) -> ChojinState:
    """The current turn changed; without a turn (between stages), the state as it is."""
    if state.turn is None:
        return state
    return state.model_copy(update={"turn": state.turn.model_copy(update=update)})


def combat(state: ChojinState, **update: object) -> ChojinState:
    """The running combat changed (chapter 5); outside combat, the state as it is."""
    if state.combat is None:
        return state
    return state.model_copy(update={"combat": state.combat.model_copy(update=update)})


def fighter(state: ChojinState, fighter_id: int, **update: object) -> ChojinState:
    """One combat participant changed."""
    assert state.combat is not None
    fighters = state.combat.fighters
    changed = fighters[fighter_id].model_copy(update=update)
    return combat(state, fighters={**fighters, fighter_id: changed})


def fighter_gone(state: ChojinState, fighter_id: int) -> ChojinState:
    """A combatant dead (combat/death.py, or the host's set_condition during a combat) leaves
    the combat: it stays listed (the initiative order still names it, and
    combat.initiative.in_play skips the dead), its hand goes to the discard pile face down,
    it answers no round end, and an attack by or on it is over."""
    running = state.combat
    if running is None or fighter_id not in running.fighters:
        return state
    hands = dict(running.hands)
    held = list(hands.pop(fighter_id, ()))
    attack = running.attack
    if attack is not None and fighter_id in (attack.attacker, attack.target):
        attack = None
    elif attack is not None and fighter_id in attack.sync_waiting:
        # it can no longer answer the 同調 request; the last answer sends the attack on
        waiting = [f for f in attack.sync_waiting if f != fighter_id]
        awaiting = attack.awaiting if waiting else "response"
        attack = attack.model_copy(update={"sync_waiting": waiting, "awaiting": awaiting})
    start = len(running.discard)
    return combat(
        state,
        hands=hands,
        discard=[*running.discard, *held],
        face_down=[*running.face_down, *range(start, start + len(held))],
        continuing={k: v for k, v in running.continuing.items() if k != fighter_id},
        discarding=[f for f in running.discarding if f != fighter_id],
        attack=attack,
    )


def without(items: Sequence[T], item: T) -> list[T]:
    """`items` less the first `item` (list.remove, on a copy)."""
    kept = list(items)
    if item in kept:
        kept.remove(item)
    return kept
