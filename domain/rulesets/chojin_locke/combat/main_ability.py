"""5.2 主要フェイズ: 「[主要]か[先制]の特性を持つ特殊能力・能力カードの使用」 (l.975) as a combat
turn's main action (ruling CL-095).

3.1 l.263–270: [主要] is used in one's own main phase; [先制] likewise, with 「[先制]の能力による
効果が何もなかった場合、別の主要行動を即座に行う。」 — its user says so (`no_effect`), in the
open, and takes another main action at once. 3.1 l.293–300: an [攻撃] ability is an attack
action (the round saw an attack, 5.1 l.933), an [逃避] one takes its user out of the combat
(「逃避とは戦闘からの離脱を行うことです」; a party member's escape dissolves its party, 6.1
l.1241; then `escape_to`); neither after the other in the same combat turn
(combat/exclusive.py, ruling CL-096) — a [先制] one that did nothing counts all the same. The
ability is named aloud (l.254) or the card turned face up (l.844); what it does beyond that is
the table's (`effect`, as its user declares it). No 発動チェック and no ESP power: the seed
gives abilities none (ruling CL-088).
"""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.rulesets.chojin_locke.changes import combat, fighter, turned_face_up
from domain.rulesets.chojin_locke.combat import exclusive
from domain.rulesets.chojin_locke.combat.activation import main_action, no_proxy
from domain.rulesets.chojin_locke.combat.leaving import party_leaves
from domain.rulesets.chojin_locke.combat.timed import chosen
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.words import fighter_words, left_the_combat, named, used_words


@CHOJIN_LOCKE.event
class MainAbilityUsed(Event):
    """A [主要]/[先制] ability (`ability`, named aloud) or ability card (`card`, turned face
    up) used as the main action; `effect` as its user declares it; `no_effect`: a [先制] one
    that did nothing, its user acting again; `escaped`: an [逃避] one, its user out of the
    combat."""

    seat: int
    ability: str | None = None
    card: str | None = None
    tags: tuple[str, ...] = ()
    text: str = ""  # the card's text, as the catalog prints it
    effect: str = ""
    no_effect: bool = False
    escaped: bool = False


@CHOJIN_LOCKE.folds(MainAbilityUsed)
def _main_ability_used(state: ChojinState, event: MainAbilityUsed, seq: int) -> ChojinState:
    state = turned_face_up(state, event.seat, event.card)
    if state.combat is None:
        return state
    if "攻撃" in event.tags:
        state = combat(state, attacked=True)  # l.933: the round saw an attack
    state = exclusive.acted(state, event.seat, event.tags)  # 3.1 l.293–300 (ruling CL-096)
    if event.escaped:
        state = fighter(state, event.seat, left=True)  # 「戦闘から離脱する」
    return combat(state, main_done=not event.no_effect)


@CHOJIN_LOCKE.says_named(MainAbilityUsed)
def _main_ability_used_line(e: MainAbilityUsed, names: Names) -> Message:
    then: str | Message = ""
    if e.no_effect:
        then = Message(N_(" — 効果なし、別の主要行動へ"))
    elif e.escaped:
        then = left_the_combat()
    return Message(
        N_("{seat}の主要行動: {used}{text}{effect}{then}"),
        {
            "seat": fighter_words(e.seat, names),
            "used": used_words(e.ability, e.card, e.tags),
            "text": Message(N_(" ({text})"), {"text": named(e.text)}) if e.text else "",
            "effect": f": {e.effect}" if e.effect else "",  # as its user typed it
            "then": then,
        },
    )


@CHOJIN_LOCKE.command("main_ability")
class MainAbility(Command):
    """Your combat turn's main action: a [主要] or [先制] ability of your sheet (`ability`) or
    ability card from your hand (`card`); `effect`: what it does, for the table; `no_effect`:
    a [先制] one did nothing, and you act again at once."""

    ability: str | None = Field(default=None, min_length=1, max_length=60)
    card: str | None = Field(default=None, min_length=1, max_length=60)
    effect: str = Field(default="", max_length=200)
    no_effect: bool = False


@CHOJIN_LOCKE.decides(MainAbility)
def main_ability(t: ChojinTable, command: MainAbility, actor: str) -> list[Draft]:
    state, fight, me = main_action(t, actor)
    no_proxy(fight, me.seat)  # 3.1 l.378: while a 代理 fights, only its own abilities
    used = chosen(state, me, command.ability, command.card, "主要", "先制")
    if command.no_effect and "先制" not in used.tags:
        raise RuleViolation(
            "not_preemptive",
            "Only a [先制] ability that did nothing gives another main action (3.1 l.269).",
        )
    exclusive.check(fight, me.seat, used.tags)  # 3.1 l.295, l.300 (ruling CL-096)
    escaped = "逃避" in used.tags and not command.no_effect
    event = MainAbilityUsed(
        seat=me.seat,
        **used.naming(command.effect),
        no_effect=command.no_effect,
        escaped=escaped,
    )
    left = party_leaves(state, me.seat) if escaped else []
    return [Draft(event), *left]
