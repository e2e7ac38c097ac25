"""Small copy helpers for folds: each returns a new state, never changes the one it is given."""

from __future__ import annotations

from .sheet import Sheet
from .state import Character, Current, Damage, NinjaState, Note


def fresh(sheet: Sheet) -> Current:
    """A character's current values as its sheet starts them."""
    return Current(
        karate=sheet.karate,
        neuron=sheet.neuron,
        wazamae=sheet.wazamae,
        jitsu=sheet.jitsu,
        kyakuryoku=sheet.kyakuryoku,
        tairyoku=sheet.tairyoku,
        seishin=sheet.seishin,
        reaction=sheet.starting_reaction_dice(),
        emergency=sheet.emergency_dice,
        dkk=sheet.dkk,
    )


def with_characters(state: NinjaState, *changed: Character) -> NinjaState:
    return state.model_copy(
        update={"characters": {**state.characters, **{c.id: c for c in changed}}}
    )


def character(state: NinjaState, character_id: str, **update: object) -> NinjaState:
    return with_characters(state, state.characters[character_id].model_copy(update=update))


def now(state: NinjaState, character_id: str, **deltas: int) -> NinjaState:
    """Add `deltas` to a character's current values."""
    found = state.characters[character_id]
    current = found.now.model_copy(update={k: getattr(found.now, k) + v for k, v in deltas.items()})
    return with_characters(state, found.model_copy(update={"now": current}))


def combat(state: NinjaState, **update: object) -> NinjaState:
    assert state.combat is not None
    return state.model_copy(update={"combat": state.combat.model_copy(update=update)})


def pending(state: NinjaState) -> tuple[Damage, ...]:
    """Damage waiting to be evaded or taken: the combat's, or hazards outside a combat."""
    return state.combat.damages if state.combat is not None else state.hazards


def with_pending(state: NinjaState, damages: tuple[Damage, ...]) -> NinjaState:
    if state.combat is not None:
        return combat(state, damages=damages)
    return state.model_copy(update={"hazards": damages})


def noted(state: NinjaState, character_id: str, seq: int, text: str) -> NinjaState:
    """Add a line to a character's history (the sheet's changes, scenario by scenario)."""
    found = state.characters.get(character_id)
    if found is None:  # a fold without the GM's secrets does not track that NPC
        return state
    note = Note(scenario=state.scenario, seq=seq, text=text)
    return with_characters(state, found.model_copy(update={"history": (*found.history, note)}))
