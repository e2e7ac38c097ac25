"""Folding events into the ruleset's state. Never refuses: deciders already checked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.events import Event
from domain.lifecycle_events import Revealed
from domain.records import Recorded

from . import events as ev
from .health import apply, damaged, revived
from .sheet import UNARMED, Sheet
from .state import AttackMemo, Character, CheckMemo, Combat, CounterRight, Current, NinjaState
from .stats import FLOORED, evasion_dice

CHECK_MEMORY = 64  # ニンジャ第六感 rerolls a recent check; older ones are forgotten


def _current(sheet: Sheet) -> Current:
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


def _with(state: NinjaState, *changed: Character) -> NinjaState:
    return state.model_copy(
        update={"characters": {**state.characters, **{c.id: c for c in changed}}}
    )


def _char(state: NinjaState, character_id: str, **update: Any) -> NinjaState:
    return _with(state, state.characters[character_id].model_copy(update=update))


def _now(state: NinjaState, character_id: str, **deltas: int) -> NinjaState:
    character = state.characters[character_id]
    now = character.now.model_copy(
        update={k: getattr(character.now, k) + v for k, v in deltas.items()}
    )
    return _with(state, character.model_copy(update={"now": now}))


def _combat(state: NinjaState, **update: Any) -> NinjaState:
    assert state.combat is not None
    return state.model_copy(update={"combat": state.combat.model_copy(update=update)})


def _added(state: NinjaState, event: ev.CharacterAdded, seq: int) -> NinjaState:
    sheet = event.sheet or event.secret
    if sheet is None:  # only a fold without the GM's secrets gets here; nothing to track
        return state
    character = Character(
        id=event.id,
        name=event.name,
        owner=event.owner,
        kind=event.kind,
        added_seq=seq,
        revealed=event.sheet is not None,
        sheet=sheet,
        now=_current(sheet),
    )
    return _with(state, character)


def _revealed(state: NinjaState, event: Revealed, seq: int) -> NinjaState:
    for character in state.characters.values():
        if character.added_seq == event.of_seq:
            return _with(state, character.model_copy(update={"revealed": True}))
    return state


def _adjusted(state: NinjaState, event: ev.CharacterAdjusted, seq: int) -> NinjaState:
    character = state.characters[event.character]
    values = {}
    for key, delta in event.changes.items():
        value = getattr(character.now, key) + delta
        values[key] = max(1, value) if key in FLOORED else value
    character = apply(character, character.now.model_copy(update=values))
    if event.status is not None:
        character = character.model_copy(update={"status": event.status})
    return _with(state, character)


def _checked(state: NinjaState, event: ev.CheckRolled, seq: int) -> NinjaState:
    detail = event.detail or event.secret
    if detail is None:
        return state
    if event.reroll_of is None:
        state = _now(state, event.character, reaction=-detail.pool.reaction)
    memo = CheckMemo(
        character=event.character,
        purpose=event.purpose,
        stat=event.stat,
        detail=detail.model_dump(mode="json"),
    )
    kept = dict(list(state.checks.items())[-(CHECK_MEMORY - 1) :])
    return state.model_copy(update={"checks": {**kept, seq: memo}})


def _began(state: NinjaState, event: ev.CombatBegan, seq: int) -> NinjaState:
    fresh = [
        state.characters[i].model_copy(
            update={"adrenaline_used": False, "weapon": event.weapons.get(i, UNARMED)}
        )
        for i in event.participants
    ]
    state = _with(state, *fresh)
    combat = Combat(
        participants=event.participants,
        pc_tie_order=event.pc_tie_order,
        boss_fight=event.boss_fight,
    )
    return state.model_copy(
        update={
            "combat": combat,
            "combats": state.combats + 1,
            "attacks": {},
            "pc_tie_order": event.pc_tie_order,
        }
    )


def _turn(state: NinjaState, event: ev.TurnStarted, seq: int) -> NinjaState:
    combat = state.combat
    assert combat is not None
    # Evasion dice are reset before anything else in the turn start phase.
    reset = []
    for i in combat.participants:
        c = state.characters[i]
        dice = evasion_dice(c) if c.sheet.has_evasion(c.kind) else 0
        reset.append(c.model_copy(update={"now": c.now.model_copy(update={"evasion": dice})}))
    state = _with(state, *reset)
    return _combat(
        state,
        turn=event.turn,
        order=event.order,
        pc_tie_order=event.pc_tie_order,
        phase="turn_start",
        index=0,
        concentrating=False,
        moved=False,
        acted=False,
        counters=(),
        wasshoi_rolled=False,
    )


def _phase(state: NinjaState, event: ev.PhaseChanged, seq: int) -> NinjaState:
    assert state.combat is not None
    update: dict[str, Any] = {"phase": event.phase, "counters": ()}
    if event.character is not None:
        update["index"] = state.combat.order.index(event.character)
    if event.phase == "teban_start":
        update.update(concentrating=False, moved=False, acted=False, switched=False)
    return _combat(state, **update)


def _moved(state: NinjaState, event: ev.Moved, seq: int) -> NinjaState:
    state = _combat(state, moved=True)
    if event.style == "連続側転":
        state = _char(state, event.character, next_attack_difficulty=1)
    return state


def _attacked(state: NinjaState, event: ev.AttackRolled, seq: int) -> NinjaState:
    detail = event.detail or event.secret
    if detail is not None:
        state = _now(state, event.attacker, reaction=-detail.pool.reaction)
    state = _char(state, event.attacker, next_attack_difficulty=0)
    if detail is not None and event.terms is not None:
        memo = AttackMemo(
            attacker=event.attacker,
            terms=event.terms,
            strikes=tuple(s.model_dump(mode="json") for s in event.strikes),
            details=detail.model_dump(mode="json"),
        )
        state = state.model_copy(update={"attacks": {**state.attacks, seq: memo}})
    assert state.combat is not None
    next_damage = max((d.id + 1 for d in event.damages), default=state.combat.next_damage)
    return _combat(
        state,
        acted=True,
        damages=state.combat.damages + event.damages,
        next_damage=max(next_damage, state.combat.next_damage),
    )


def _evaded(state: NinjaState, event: ev.EvasionRolled, seq: int) -> NinjaState:
    detail = event.detail or event.secret
    if detail is not None:
        state = _now(
            state,
            event.character,
            evasion=-detail.pool.evasion,
            emergency=-detail.pool.emergency,
        )
    assert state.combat is not None
    combat = state.combat
    damages = combat.damages
    evaded = {d.attack_seq for d in damages if d.id in event.damages}
    combat = combat.model_copy(
        update={"evaded_attacks": tuple(sorted({*combat.evaded_attacks, *evaded}))}
    )
    state = state.model_copy(update={"combat": combat})
    if event.success:
        damages = tuple(d for d in damages if d.id not in event.damages)
    counters = tuple(r for r in combat.counters if r.holder != event.character)
    if event.counter_against:
        right = CounterRight(
            holder=event.character, attackers=event.counter_against, evasion_seq=seq
        )
        counters += (right,)
    return _combat(state, damages=damages, counters=counters)


def _taken(state: NinjaState, event: ev.DamageTaken, seq: int) -> NinjaState:
    state = _with(state, damaged(state.characters[event.character], event.amount))
    if state.combat is None:
        return state
    damages = tuple(d for d in state.combat.damages if d.id not in event.damages)
    return _combat(state, damages=damages)


def _countered(state: NinjaState, event: ev.CounterKarate, seq: int) -> NinjaState:
    assert state.combat is not None
    combat = state.combat
    return _combat(
        state,
        damages=(*combat.damages, event.damage),
        next_damage=max(combat.next_damage, event.damage.id + 1),
        counters=tuple(r for r in combat.counters if r.holder != event.character),
    )


def _strike_rerolled(state: NinjaState, event: ev.StrikeRerolled, seq: int) -> NinjaState:
    assert state.combat is not None
    combat = state.combat
    damages = tuple(d for d in combat.damages if d.id != event.replaces)
    next_damage = combat.next_damage
    if event.damage is not None:
        damages += (event.damage,)
        next_damage = max(next_damage, event.damage.id + 1)
    return _combat(state, damages=damages, next_damage=next_damage)


def _boosted(state: NinjaState, event: ev.AdrenalineBoost, seq: int) -> NinjaState:
    state = _now(state, event.character, seishin=-1)
    return _char(state, event.character, adrenaline_used=True)


def _switched(state: NinjaState, event: ev.WeaponSwitched, seq: int) -> NinjaState:
    return _combat(_char(state, event.character, weapon=event.weapon), switched=True)


def _scenario_ended(state: NinjaState, event: ev.ScenarioEnded, seq: int) -> NinjaState:
    """即応/緊急回避ダイス and stat damage reset; 体力, 精神力 and DKK carry on."""
    changed = []
    for character in state.characters.values():
        fresh = _current(character.sheet)
        now = fresh.model_copy(
            update={
                "tairyoku": character.now.tairyoku,
                "seishin": character.now.seishin,
                "dkk": character.now.dkk,
            }
        )
        changed.append(character.model_copy(update={"now": now, "sixth_sense_used": False}))
    return _with(state, *changed).model_copy(update={"checks": {}, "pc_tie_order": ()})


def _ended(state: NinjaState, event: ev.CombatEnded, seq: int) -> NinjaState:
    changed = []
    for character in state.characters.values():
        update: dict[str, Any] = {"next_attack_difficulty": 0}
        now = character.now.model_copy(update={"evasion": 0})
        if character.id in event.revived and revived(character):
            update["status"] = "active"
            now = now.model_copy(update={"tairyoku": 1, "seishin": 0})
        changed.append(character.model_copy(update={**update, "now": now}))
    return _with(state, *changed).model_copy(update={"combat": None, "attacks": {}})


_FOLDS: dict[type[Event], Callable[[NinjaState, Any, int], NinjaState]] = {
    ev.CharacterAdded: _added,
    Revealed: _revealed,
    ev.CharacterAdjusted: _adjusted,
    ev.CheckRolled: _checked,
    ev.CombatBegan: _began,
    ev.TurnStarted: _turn,
    ev.PhaseChanged: _phase,
    ev.Concentrated: lambda s, e, q: _combat(s, concentrating=True),
    ev.Moved: _moved,
    ev.AttackRolled: _attacked,
    ev.OtherAction: lambda s, e, q: _combat(s, acted=True),
    ev.EvasionRolled: _evaded,
    ev.DamageTaken: _taken,
    ev.CounterKarate: _countered,
    ev.AdrenalineBoost: _boosted,
    ev.SixthSense: lambda s, e, q: _char(s, e.character, sixth_sense_used=True),
    ev.AtmosphereRaised: lambda s, e, q: _combat(s, atmosphere=e.level),
    ev.WasshoiRolled: lambda s, e, q: _combat(s, wasshoi_rolled=True) if s.combat else s,
    ev.CombatEnded: _ended,
    ev.WeaponSwitched: _switched,
    ev.StrikeRerolled: _strike_rerolled,
    ev.ScenarioEnded: _scenario_ended,
}


def evolve(state: NinjaState, recorded: Recorded) -> NinjaState:
    fold = _FOLDS.get(type(recorded.event))
    return state if fold is None else fold(state, recorded.event, recorded.seq)
