"""The combat sequence: beginning, turns, 手番 phases in order, the turn end, the end."""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.messages import N_
from domain.model.records import Draft

from . import guards
from .atmosphere import due as atmosphere_due
from .campaign import stage
from .combat_events import (
    AtmosphereRaised,
    CombatBegan,
    CombatEnded,
    Concentrated,
    OtherAction,
    PhaseChanged,
    TurnStarted,
    WasshoiRolled,
)
from .equipment import require_owned
from .fields import Entropy, Faces
from .health import revived
from .initiative import settle_pc_ties, turn_order
from .rules import NINJA_SLAYER, NinjaTable
from .state import Character, Combat, NinjaState, Phase


def _on_map(state: NinjaState, ids: tuple[str, ...]) -> list[Character]:
    return [state.characters[i] for i in ids if state.characters[i].on_map]


def pcs(characters: list[Character]) -> list[Character]:
    return [c for c in characters if c.kind == "pc"]


@NINJA_SLAYER.command("begin_combat")
class BeginCombat(Command):
    """GM: start a combat sequence; PC ties are settled here once and kept."""

    participants: list[str] = Field(min_length=1, max_length=40)
    pc_tie_order: list[str] = Field(
        default_factory=list, max_length=40, description="The players' order for PC ties"
    )
    enemy_tie_order: list[str] = Field(default_factory=list, max_length=40)
    weapons: dict[str, str] = Field(
        default_factory=dict, max_length=40, description="Declared weapons; else 素手&スリケン"
    )


@NINJA_SLAYER.decides(BeginCombat)
def begin(t: NinjaTable, command: BeginCombat, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "begin a combat")
    if state.combat is not None:
        raise RuleViolation("combat_in_progress", "A combat is already in progress.")
    guards.nothing_pending(state)
    # 「このゲームの核となる「シナリオ本編」は、「探索シーケンス」と「戦闘シーケンス」の2つの
    # 状態を行き来することで進行する」: a combat belongs to the 本編.
    stage(state, "本編", what=N_("戦闘"))
    ids = tuple(dict.fromkeys(command.participants))
    for i in ids:
        found = guards.character(state, i)
        if not found.on_map:
            raise RuleViolation(
                "not_on_map", "{i} is no longer on the map.", params={"i": found.name}
            )
    for i, weapon in command.weapons.items():
        if i not in ids:
            named = state.characters[i].name if i in state.characters else i
            raise RuleViolation("not_in_combat", "{i} is not a participant.", params={"i": named})
        require_owned(state.characters[i], weapon)
    present = _on_map(state, ids)
    # ruling NS-053: L40 「敵が出現すると、戦闘シーケンスに移行する」 — a combat has two sides
    if not pcs(present) or len(pcs(present)) == len(present):
        raise RuleViolation(
            "no_opposing_side",
            "A combat needs both sides: at least one PC and one enemy (a モブ or a ボス).",
        )
    pc_ties = settle_pc_ties(pcs(present), state.pc_ties, command.pc_tie_order)
    order = turn_order(present, pc_ties, command.enemy_tie_order)
    boss = any(state.characters[i].kind == "boss" for i in ids)
    return [
        Draft(
            CombatBegan(
                participants=ids,
                pc_ties=pc_ties,
                boss_fight=boss,
                placement_order=tuple(reversed(order)),
                weapons=command.weapons,
            )
        ),
        Draft(TurnStarted(turn=1, order=order, pc_ties=pc_ties)),
    ]


def _next_actor(state: NinjaState, combat: Combat, after: int) -> int | None:
    for index in range(after + 1, len(combat.order)):
        if state.characters[combat.order[index]].on_map:
            return index
    return None


def _require_resolved(state: NinjaState, combat: Combat) -> None:
    """Damage is resolved before play moves on. Mob damage may wait for the next mobs' 手番,
    so that a ninja evades a mob squad all together, but never past the turn."""
    ending = combat.phase == "teban_end" and _next_actor(state, combat, combat.index) is None
    waiting = [d for d in combat.damages if ending or d.mobs is None]
    if waiting:
        raise RuleViolation(
            "damage_pending",
            "The damage dealt to {names} waits for its 回避判定 or to be taken.",
            params={"names": guards.damaged(state, waiting)},
        )


@NINJA_SLAYER.command("advance")
class Advance(Command):
    """Move to the next phase (the acting character's owner, or the GM)."""


@NINJA_SLAYER.decides(Advance)
def advance(t: NinjaTable, command: Advance, actor: str) -> list[Draft]:
    state = t.started()
    combat = guards.combat(state)
    _require_resolved(state, combat)
    if combat.phase == "turn_end":
        raise RuleViolation("wrong_phase", "The turn has ended: the GM starts the next turn.")
    if combat.phase == "turn_start":
        t.referee_only(actor, "end the ターン開始フェイズ")
        first = _next_actor(state, combat, -1)
        return _to(state, combat, "teban_start", first)
    guards.turn_holder(state, actor)
    following: dict[Phase, Phase] = {
        "teban_start": "attack" if combat.concentrating else "movement",
        "movement": "attack",
        "attack": "teban_end",
    }
    if combat.phase in following:
        return _to(state, combat, following[combat.phase], combat.index)
    return _to(state, combat, "teban_start", _next_actor(state, combat, combat.index))


def _to(state: NinjaState, combat: Combat, phase: Phase, index: int | None) -> list[Draft]:
    if index is None:  # nobody left to act: the turn ends
        drafts = [Draft(PhaseChanged(turn=combat.turn, phase="turn_end"))]
        level = atmosphere_due(combat)
        if level is not None:  # the GM may still hold it back at this turn end
            drafts.append(Draft(AtmosphereRaised(turn=combat.turn, level=level)))
        return drafts
    character = combat.order[index]
    return [Draft(PhaseChanged(turn=combat.turn, phase=phase, character=character))]


@NINJA_SLAYER.command("concentrate")
class Concentrate(Command):
    """手番開始: enter 集中状態 (skip movement; attack-phase actions −1 difficulty)."""


@NINJA_SLAYER.decides(Concentrate)
def concentrate(t: NinjaTable, command: Concentrate, actor: str) -> list[Draft]:
    _state, combat, holder = guards.acting(t, actor, "teban_start")
    if combat.concentrating:
        raise RuleViolation(
            "already_concentrating",
            "{holder} is already concentrating.",
            params={"holder": holder.name},
        )
    return [Draft(Concentrated(character=holder.id))]


@NINJA_SLAYER.command("other_action")
class Act(Command):
    """攻撃フェイズ: another action (ジツ, hacking, カイシャク, looting…) instead of attacking."""

    action: str = Field(min_length=1, max_length=200)


@NINJA_SLAYER.decides(Act)
def other_action(t: NinjaTable, command: Act, actor: str) -> list[Draft]:
    _state, combat, holder = guards.acting(t, actor, "attack")
    guards.first_attack_action(combat, holder)
    return [Draft(OtherAction(character=holder.id, action=command.action))]


@NINJA_SLAYER.command("wasshoi")
class Wasshoi(Command):
    """GM, ターン終了フェイズ: the Wasshoi! check, 2D6 ≤ the highest 【DKK】 (+ modifier)."""

    modifier: int = Field(default=0, ge=-12, le=12)
    faces: list[int] | None = Faces
    entropy: str = Entropy


@NINJA_SLAYER.decides(Wasshoi)
def wasshoi(t: NinjaTable, command: Wasshoi, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "roll Wasshoi!")
    combat = state.combat
    present = tuple(state.characters)
    if combat is not None:  # in a combat, Wasshoi! comes at the end of a turn, once
        guards.phase(combat, "turn_end")
        guards.not_after_placement(combat)
        if combat.wasshoi_rolled:
            raise RuleViolation("wasshoi_rolled", "Wasshoi! was already rolled this turn end.")
        present = combat.participants
    ninjas = [c for c in _on_map(state, present) if c.sheet.ninja]
    highest = max(ninjas, key=lambda c: c.now.dkk, default=None)
    target = max(0, (highest.now.dkk if highest else 0) + command.modifier)
    rolled = t.dice.roll(f"WS{target}", command.faces, command.entropy)
    event = WasshoiRolled(
        target=target,
        highest=highest.id if highest else None,
        success=rolled.success,
        roll=rolled.record,
    )
    return [Draft(event)]


@NINJA_SLAYER.command("next_turn")
class NextTurn(Command):
    """GM, from ターン終了フェイズ: the next turn (enemy ties ordered by the GM each turn)."""

    enemy_tie_order: list[str] = Field(default_factory=list, max_length=40)
    pc_tie_order: list[str] = Field(
        default_factory=list, max_length=40, description="The players' order for new PC ties"
    )


@NINJA_SLAYER.decides(NextTurn)
def next_turn(t: NinjaTable, command: NextTurn, actor: str) -> list[Draft]:
    state, combat = guards.at_turn_end(t, actor, "start the next turn")
    present = _on_map(state, combat.participants)
    pc_ties = settle_pc_ties(pcs(present), combat.pc_ties, command.pc_tie_order)
    order = turn_order(present, pc_ties, command.enemy_tie_order)
    return [Draft(TurnStarted(turn=combat.turn + 1, order=order, pc_ties=pc_ties))]


@NINJA_SLAYER.command("end_combat")
class EndCombat(Command):
    """GM: the combat is over; 気絶 characters with 【精神力】 ≥ 1 revive."""


@NINJA_SLAYER.decides(EndCombat)
def end(t: NinjaTable, command: EndCombat, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "end the combat")
    combat = guards.combat(state)
    if combat.damages:
        raise RuleViolation("damage_pending", "Resolve the pending damage before the combat ends.")
    back = tuple(i for i in combat.participants if revived(state.characters[i]))
    return [Draft(CombatEnded(revived=back))]
