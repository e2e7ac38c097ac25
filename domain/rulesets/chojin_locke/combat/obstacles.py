"""6.2 障害 (obstacles) in a combat: one participant however many members it has.

「複数人存在する障害においても戦闘参加者1体分として扱われます。…イニシアチブ決定のトランプも1枚
しか配られませんし、戦闘の手番も1ラウンドに1回のみです。複数人存在する障害が行う攻撃は武器の火力を
合計し、それを総合火力として攻撃を行います。…複数人存在する障害の残り耐久力はそれぞれ別に管理され
ます。」 (l.1290–1299). The host brings one in as a square or chart text says (`add_obstacle`)
and plays its combat turns: `obstacle_attack` is its attack with its weapons, at a target the
host names or one rolled at random among those 6.2 allows (l.1282–1284). An attack on it is
resolved at once (combat/npc.py).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.lifecycle_events import RollRecord
from domain.model.logline import Names
from domain.model.messages import N_, Items, Message
from domain.model.records import Draft
from domain.rulesets.chojin_locke.changes import combat
from domain.rulesets.chojin_locke.combat import square_npc
from domain.rulesets.chojin_locke.combat.activation import at_response, in_combat
from domain.rulesets.chojin_locke.combat.flow import main_phase_turn
from domain.rulesets.chojin_locke.combat.npc import pick_target, struck
from domain.rulesets.chojin_locke.combat.round_end import running
from domain.rulesets.chojin_locke.combat.state import NPC_IDS_START, Attack, Fighter
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.words import fighter_words, fighters_words, roll_words


@CHOJIN_LOCKE.event
class ObstacleJoined(Event):
    fighter: int
    name: str
    members: tuple[int, ...]  # each member's endurance
    firepower: int  # the members' weapons summed
    jammer: bool = False
    jammer_lv: int = 0  # the X of its ESPジャマーLV:X (combat/jammer.py)
    illusion_immune: bool = False  # 「幻覚の効果を受けない」 (combat/illusion.py)
    square: str | None = None  # brought by this square's effect (combat/square_npc.py)


@CHOJIN_LOCKE.folds(ObstacleJoined)
def _joined(state: ChojinState, event: ObstacleJoined, seq: int) -> ChojinState:
    assert state.combat is not None
    joined = Fighter(
        id=event.fighter,
        name=event.name,
        kind="obstacle",
        joined_round=state.combat.round,
        members=list(event.members),
        firepower=event.firepower,
        jammer=event.jammer,
        jammer_lv=event.jammer_lv,
        illusion_immune=event.illusion_immune,
        from_square=event.square is not None,
    )
    joined_state = combat(state, fighters={**state.combat.fighters, event.fighter: joined})
    return square_npc.brought(joined_state, event.square)


@CHOJIN_LOCKE.says_named(ObstacleJoined)
def _obstacle_joined_line(e: ObstacleJoined, names: Names) -> Message:
    return Message(
        N_(
            "障害「{name}」が戦闘に参加 ({fighter}: {count}人、耐久力 {members}、火力{firepower}"
            "{jammer}{immune}{square})"
        ),
        {
            "name": e.name,  # as the host typed it
            "fighter": fighter_words(e.fighter, names),
            "count": len(e.members),
            "members": Items(str(n) for n in e.members),
            "firepower": e.firepower,
            "jammer": Message(N_(" ESPジャマーLV:{lv}所持"), {"lv": e.jammer_lv})
            if e.jammer
            else "",
            "immune": Message(N_(" 幻覚の効果を受けない")) if e.illusion_immune else "",
            "square": Message(N_(" マスの効果による")) if e.square is not None else "",
        },
    )


@CHOJIN_LOCKE.command("add_obstacle")
class AddObstacle(Command):
    """Host: an obstacle (障害) joins the running combat, as a square or chart text says:
    `jammer_lv` its ESPジャマーLV:X (`jammer: true` with it), `illusion_immune` when its text says
    「幻覚の効果を受けない」."""

    name: str = Field(min_length=1, max_length=100)
    members: list[int] = Field(min_length=1, max_length=20)  # each member's endurance (≥ 1)
    firepower: int = Field(ge=0, le=999)
    jammer: bool = False
    jammer_lv: int = Field(default=0, ge=0, le=12)
    illusion_immune: bool = False
    square: bool = False  # the combat's square's effect brings it (6.2 l.1341–1344)


@CHOJIN_LOCKE.decides(AddObstacle)
def add_obstacle(t: ChojinTable, command: AddObstacle, actor: str) -> list[Draft]:
    t.referee_only(actor, "bring an obstacle into a combat")
    state = playing(t)
    fight = running(state)
    if any(e < 1 for e in command.members):
        raise RuleViolation("bad_endurance", "Each member's endurance is at least 1.")
    if fight.step in ("round_end",):
        raise RuleViolation("wrong_step", "An obstacle joins before the round's turns or in them.")
    if command.jammer and command.jammer_lv < 1:
        # 6.1 l.1252: 「ESPジャマーLV:X」 — what it jams depends on X (ruling CL-083)
        raise RuleViolation(
            "jammer_lv_required", "An ESPジャマー is ESPジャマーLV:X: give its X (jammer_lv)."
        )
    square = square_npc.check(state, fight) if command.square else None
    number = max([NPC_IDS_START - 1, *fight.fighters]) + 1
    event = ObstacleJoined(
        fighter=number,
        name=command.name,
        members=tuple(command.members),
        firepower=command.firepower,
        jammer=command.jammer or command.jammer_lv > 0,
        jammer_lv=command.jammer_lv,
        illusion_immune=command.illusion_immune,
        square=square,
    )
    return [Draft(event)]


def living_firepower(group: Fighter) -> int:
    """l.1295 「複数人存在する障害が行う攻撃は武器の火力を合計し」: the living members' weapons.
    `firepower` is the whole group's, shared alike (ruling CL-076): firepower × living ÷ members,
    rounded down."""
    if not group.members:
        return group.firepower
    living = sum(1 for e in group.members if e > 0)
    return group.firepower * living // len(group.members)


@CHOJIN_LOCKE.event
class ObstacleAttacked(Event):
    """An obstacle attacks with its weapons in its combat turn (6.2 l.1295): `firepower` its
    living members' total, `lv` the attack's LV (the square's or chart's, ruling CL-076); the target
    named by the host, or rolled (`roll`, 1D(len(`candidates`))) among the legal ones."""

    fighter: int
    target: int
    lv: int
    firepower: int
    roll: RollRecord | None = None
    candidates: tuple[int, ...] = ()
    melee: bool = False  # 格闘: each member fights with its endurance (ruling CL-078)


def opened(event: ObstacleAttacked) -> Attack:
    return Attack(
        attacker=event.fighter,
        target=event.target,
        weapon=not event.melee,
        lv=event.lv,
        firepower=event.firepower,
    )


@CHOJIN_LOCKE.folds(ObstacleAttacked)
def _attacked(state: ChojinState, event: ObstacleAttacked, seq: int) -> ChojinState:
    return combat(state, main_done=True, attacked=True, attack=opened(event))


@CHOJIN_LOCKE.says_named(ObstacleAttacked)
def _obstacle_attacked_line(e: ObstacleAttacked, names: Names) -> Message:
    how: str | Message = ""
    if e.roll is not None:
        how = Message(
            N_(" (ランダム: {candidates}から [{roll}])"),
            {"candidates": fighters_words(e.candidates, names), "roll": roll_words(e.roll)},
        )
    said = {
        "fighter": fighter_words(e.fighter, names),
        "target": fighter_words(e.target, names),
        "how": how,
        "lv": e.lv,
        "firepower": e.firepower,
    }
    if e.melee:
        # 6.2 l.1298–1301: a 格闘, each member fighting on its own (ruling CL-078)
        return Message(N_("{fighter}が格闘攻撃 → {target}{how}: LV{lv}"), said)
    return Message(N_("{fighter}が武器で攻撃 → {target}{how}: LV{lv} 火力{firepower}"), said)


@CHOJIN_LOCKE.command("obstacle_attack")
class ObstacleAttack(Command):
    """Host: the obstacle whose combat turn it is attacks with its weapons (its main action):
    `target` a fighter's id, or "random" (rolled among the targets 6.2 allows); `lv` the attack's
    LV as its square or chart says (1 if it says none); `firepower` overrides the living
    members' share of the group's firepower when their weapons differ."""

    target: int | Literal["random"]
    lv: int = Field(default=1, ge=1, le=12)
    firepower: int | None = Field(default=None, ge=0, le=999)
    melee: bool = False


@CHOJIN_LOCKE.decides(ObstacleAttack)
def obstacle_attack(t: ChojinTable, command: ObstacleAttack, actor: str) -> list[Draft]:
    t.referee_only(actor, "play an obstacle's attack")
    state, fight = in_combat(t)
    group = fight.fighters.get(fight.current) if fight.current is not None else None
    if group is None or group.kind != "obstacle":
        raise RuleViolation("not_an_obstacle_turn", "It is not an obstacle's combat turn.")
    main_phase_turn(state, actor, t.referee_actor)
    target, roll, candidates = pick_target(t, state, group, command.target)
    if command.melee:
        # l.1298–1301: 「格闘の場合は特殊な処理となり、1人1人がそれぞれ格闘を行います。」 — an LV 1
        # attack (5.6 l.1104) whose firepower is the living members' endurance, each its own
        if fight.fighters[target].kind not in ("character", "esper"):
            raise RuleViolation(
                "table_resolved", "An obstacle's 格闘 on another obstacle is the table's (ruling)."
            )
        if command.firepower is not None or command.lv != 1:
            raise RuleViolation("melee_declared", "A 格闘 is LV 1, its firepower the members'.")
        firepower = sum(e for e in group.members if e > 0)
    elif command.firepower is not None:
        firepower = command.firepower
    else:
        firepower = living_firepower(group)
    event = ObstacleAttacked(
        fighter=group.id,
        target=target,
        lv=command.lv,
        firepower=firepower,
        roll=roll,
        candidates=candidates,
        melee=command.melee,
    )
    drafts = [Draft(event), *at_response(state, opened(event))]
    return drafts + struck(t, state, drafts)
