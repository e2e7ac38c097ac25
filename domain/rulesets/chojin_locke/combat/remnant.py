"""6.1 残留思念: its attack, and the 同調 and 妨害 of the other 残留思念 (seed lines 1180–1199).

l.1184–1185: 「出目が2~6であれば火力を持ち、自分の戦闘手番でキャラクター1人か障害1体に残留思念による
攻撃を行うことが可能となります。それ以外の出目であれば「火力なし」として戦闘に参加します。」
l.1189–1191: 「基本的に残留思念は接触テレパスやゲート以外の行動の対象に選択できず、残留思念による
攻撃に対しては[対抗(攻撃)]の行動を行えず、[スーツ:X]を使用できません。[代理:X]に関しては既に
[代理:X]が使用されている場合のみ残留思念の攻撃は代理に行われます。」
l.1193–1199: 「残留思念が攻撃を行う時、他の未行動の残留思念は「同調」か「妨害」を行うことができ
ます。「同調」を行った場合、行われている攻撃の火力に自分の残留思念の火力を加えます。…「既に残留思念に
攻撃された対象は他の残留思念からは攻撃されない」…「妨害」を行った場合、行われている攻撃の火力から
自分の残留思念の火力を引きます 残留思念による攻撃の火力が0以下になった場合、その攻撃は打ち消され
ます。なお、「同調」か「妨害」を行った残留思念は行動済みとなり、戦闘手番がスキップされます。」

A 残留思念 is played by its dead character's seat (ruling CL-068). Its attack is answered by no one:
a character it hits declares its endurance (`declare_endurance`, no suit; a 代理 already in use
takes it), an obstacle or an エスパー NPC is resolved at once (combat/npc.py). Rulings
CL-079–CL-081.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.rulesets.chojin_locke.changes import combat, fighter, without
from domain.rulesets.chojin_locke.combat.action_events import AttackLanded
from domain.rulesets.chojin_locke.combat.activation import in_combat
from domain.rulesets.chojin_locke.combat.death import look_ahead
from domain.rulesets.chojin_locke.combat.flow import main_phase_turn
from domain.rulesets.chojin_locke.combat.initiative import in_play
from domain.rulesets.chojin_locke.combat.npc import struck
from domain.rulesets.chojin_locke.combat.state import Attack, Combat, Fighter
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.words import REMNANT_ANSWERS, fighter_words, fighters_words

Answer = Literal["sync", "hinder", "none"]


def remnant_targets(state: ChojinState, remnant: Fighter) -> list[int]:
    """l.1185 「キャラクター1人か障害1体」: a character (an エスパー NPC is one, 6.1 l.1170) or an
    obstacle still in the combat, never a 残留思念; l.1195: none a 残留思念 attacked this round."""
    assert state.combat is not None
    fight = state.combat
    return [
        f.id
        for f in in_play(state)
        if f.kind in ("character", "obstacle", "esper")
        and f.id != remnant.id
        and fight.haunted.get(f.id) != fight.round
    ]


def _asked(state: ChojinState, attacker: Fighter) -> tuple[int, ...]:
    """l.1193: 「他の未行動の残留思念」 — the other 残留思念 in the combat that have not acted
    this round (had their turn, or did 同調 or 妨害)."""
    return tuple(
        f.id for f in in_play(state) if f.kind == "remnant" and f.id != attacker.id and not f.acted
    )


@CHOJIN_LOCKE.event
class RemnantAttacked(Event):
    """A 残留思念 attacks in its combat turn (6.1 l.1184–1185): its 火力 at one character or
    obstacle. `waiting`: the other 残留思念 that may 同調 or 妨害 (l.1193)."""

    remnant: int
    target: int
    firepower: int
    waiting: tuple[int, ...] = ()


@CHOJIN_LOCKE.folds(RemnantAttacked)
def _attacked(state: ChojinState, event: RemnantAttacked, seq: int) -> ChojinState:
    assert state.combat is not None
    opened = Attack(
        attacker=event.remnant,
        target=event.target,
        remnant=True,
        lv=0,
        firepower=event.firepower,
        awaiting="sync" if event.waiting else "response",
        sync_waiting=list(event.waiting),
    )
    haunted = {**state.combat.haunted, event.target: state.combat.round}
    return combat(state, main_done=True, attacked=True, attack=opened, haunted=haunted)


@CHOJIN_LOCKE.says_named(RemnantAttacked)
def _remnant_attacked_line(e: RemnantAttacked, names: Names) -> Message:
    said = {
        "remnant": fighter_words(e.remnant, names),
        "target": fighter_words(e.target, names),
        "firepower": e.firepower,
    }
    if not e.waiting:
        return Message(N_("{remnant} (残留思念)が攻撃 → {target}: 火力{firepower}"), said)
    return Message(
        N_("{remnant} (残留思念)が攻撃 → {target}: 火力{firepower} — 同調・妨害を待つ: {waiting}"),
        {**said, "waiting": fighters_words(e.waiting, names)},
    )


@CHOJIN_LOCKE.event
class RemnantAnswered(Event):
    """Another 残留思念's answer to the attack (l.1193–1199): 同調 adds its 火力, 妨害 takes its
    火力 away, either makes it 行動済み (its combat turn is skipped); `none` does neither."""

    remnant: int
    answer: Answer
    firepower: int


@CHOJIN_LOCKE.folds(RemnantAnswered)
def _answered(state: ChojinState, event: RemnantAnswered, seq: int) -> ChojinState:
    assert state.combat is not None and state.combat.attack is not None
    attack = state.combat.attack
    update: dict[str, object] = {"sync_waiting": without(attack.sync_waiting, event.remnant)}
    if event.answer == "sync":
        update.update(
            firepower=attack.firepower + event.firepower,
            joiners=[*attack.joiners, event.remnant],
        )
    elif event.answer == "hinder":
        update.update(
            firepower=attack.firepower - event.firepower,
            hinderers=[*attack.hinderers, event.remnant],
        )
    changed = attack.model_copy(update=update)
    if not changed.sync_waiting:
        changed = changed.model_copy(update={"awaiting": "response"})
    state = combat(state, attack=changed)
    if event.answer != "none":
        state = fighter(state, event.remnant, acted=True)
    return state


@CHOJIN_LOCKE.says_named(RemnantAnswered)
def _remnant_answered_line(e: RemnantAnswered, names: Names) -> Message:
    said = {
        "remnant": fighter_words(e.remnant, names),
        "answer": REMNANT_ANSWERS[e.answer],
        "firepower": e.firepower,
    }
    if e.answer == "none":
        return Message(N_("{remnant} (残留思念): {answer}"), said)
    return Message(N_("{remnant} (残留思念): {answer} (火力{firepower})"), said)


@CHOJIN_LOCKE.event
class RemnantAttackCancelled(Event):
    """l.1198: 「残留思念による攻撃の火力が0以下になった場合、その攻撃は打ち消されます。」"""

    remnant: int
    target: int
    firepower: int


@CHOJIN_LOCKE.folds(RemnantAttackCancelled)
def _cancelled(state: ChojinState, event: RemnantAttackCancelled, seq: int) -> ChojinState:
    return combat(state, attack=None)


@CHOJIN_LOCKE.says_named(RemnantAttackCancelled)
def _remnant_attack_cancelled_line(e: RemnantAttackCancelled, names: Names) -> Message:
    return Message(
        N_("{remnant} (残留思念)の攻撃 → {target}: 火力{firepower}、打ち消された"),
        {
            "remnant": fighter_words(e.remnant, names),
            "target": fighter_words(e.target, names),
            "firepower": e.firepower,
        },
    )


def _resolve(t: ChojinTable, state: ChojinState, drafts: list[Draft]) -> list[Draft]:
    """Every other 残留思念 has answered: cancelled at 火力 0 or less; otherwise it reaches its
    target, no [対抗(攻撃)] (a maintained defence neither, ruling CL-079): a character is hit and
    declares its endurance, an obstacle or an エスパー NPC is resolved at once (combat/npc.py)."""
    after = look_ahead(t, state, drafts)
    assert after.combat is not None and after.combat.attack is not None
    attack = after.combat.attack
    if attack.awaiting != "response":
        return drafts
    if attack.firepower <= 0:
        cancelled = RemnantAttackCancelled(
            remnant=attack.attacker, target=attack.target, firepower=attack.firepower
        )
        return [*drafts, Draft(cancelled)]
    if after.combat.fighters[attack.target].kind in ("obstacle", "esper"):
        return drafts + struck(t, state, drafts)
    hit = AttackLanded(
        attacker=attack.attacker,
        target=attack.target,
        lv=attack.lv,
        firepower=attack.firepower,
        outcome="hit",
    )
    return [*drafts, Draft(hit)]


def _my_remnant(fight: Combat, seat: int, among: tuple[int, ...] | list[int]) -> Fighter | None:
    for n in among:
        someone = fight.fighters.get(n)
        if someone is not None and someone.kind == "remnant" and someone.seat == seat:
            return someone
    return None


@CHOJIN_LOCKE.command("remnant_attack")
class RemnantAttack(Command):
    """Your 残留思念's attack, its main action in its combat turn: its 火力 at one character or
    obstacle (`target`, a fighter's id) no 残留思念 attacked this round."""

    target: int = Field(ge=1)


@CHOJIN_LOCKE.decides(RemnantAttack)
def remnant_attack(t: ChojinTable, command: RemnantAttack, actor: str) -> list[Draft]:
    state, fight = in_combat(t)
    seat = t.seat_of(actor)
    current = fight.current
    mine = _my_remnant(fight, seat, [current] if current is not None else [])
    if mine is None:
        raise RuleViolation("not_your_remnant_turn", "It is not your 残留思念's combat turn.")
    main_phase_turn(state, actor)
    if mine.firepower <= 0:
        # l.1186: 「それ以外の出目であれば「火力なし」として戦闘に参加します。」
        raise RuleViolation(
            "remnant_no_firepower", "Your 残留思念 has no 火力 (火力なし): it cannot attack."
        )
    legal = remnant_targets(state, mine)
    if command.target not in legal:
        if fight.haunted.get(command.target) == fight.round:
            raise RuleViolation(
                "already_haunted",
                "A 残留思念 attacked that target this round: 「既に残留思念に攻撃された対象は他の"
                "残留思念からは攻撃されない」 (6.1 l.1195) — join its attack by 同調 instead.",
            )
        names = ", ".join(str(n) for n in legal) or "none"
        raise RuleViolation(
            "bad_target",
            "A 残留思念 attacks one character or obstacle in this combat ({names}).",
            params={"names": names},
        )
    event = RemnantAttacked(
        remnant=mine.id,
        target=command.target,
        firepower=mine.firepower,
        waiting=_asked(state, mine),
    )
    return _resolve(t, state, [Draft(event)])


@CHOJIN_LOCKE.command("remnant_answer")
class RemnantAnswer(Command):
    """Your 残留思念, not yet acted this round, answers another 残留思念's attack: `sync` (同調:
    its 火力 added), `hinder` (妨害: its 火力 taken away), either spending its combat turn, or
    `none`."""

    answer: Answer


@CHOJIN_LOCKE.decides(RemnantAnswer)
def remnant_answer(t: ChojinTable, command: RemnantAnswer, actor: str) -> list[Draft]:
    state, fight = in_combat(t)
    attack = fight.attack
    asked = list(attack.sync_waiting) if attack is not None and attack.remnant else []
    mine = _my_remnant(fight, t.seat_of(actor), asked)
    if attack is None or attack.awaiting != "sync" or mine is None:
        raise RuleViolation(
            "no_remnant_request", "No 残留思念's attack waits for your 残留思念's answer."
        )
    event = RemnantAnswered(remnant=mine.id, answer=command.answer, firepower=mine.firepower)
    return _resolve(t, state, [Draft(event)])
