"""5.1 (7) ラウンド終了フェイズ and the end of a combat.

②「以下の条件のうち、いずれか1つでも満たされている場合、戦闘が終了します。
 ・このラウンド中に攻撃行動が行われていない場合 ・戦闘を続ける意思のあるものがいない場合
 ・戦闘に参加しているキャラクター・障害が合わせて1体以下の場合」
③「手札の枚数が手札上限枚数を超えているキャラクターは手札の枚数が手札上限枚数と同じ枚数になる
ように手札を捨てます。その後、手札の枚数が手札上限枚数と同じ枚数であるキャラクターは手札を1枚
捨てることができます。」 ④ draw to the limit; then back to (2).
"""

from __future__ import annotations

from collections import Counter

from pydantic import Field

from domain.model.audience import seat_actor
from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.model.table import acting_seat
from domain.rulesets.chojin_locke.combat.conditions import fainted, faints_ending
from domain.rulesets.chojin_locke.combat.flow_events import (
    CardsBody,
    CombatContinues,
    CombatEnded,
    CombatRoundBegun,
    CombatRoundEnding,
    ContinueAnswered,
    EndReason,
    HandDiscardedDown,
)
from domain.rulesets.chojin_locke.combat.hands import draw_to_limit, hand_holders, look_ahead
from domain.rulesets.chojin_locke.combat.initiative import in_play
from domain.rulesets.chojin_locke.combat.joining import remnants_leave
from domain.rulesets.chojin_locke.combat.leaving import (
    after_combat,
    cards_collected,
    in_prelude,
    prelude_draw,
)
from domain.rulesets.chojin_locke.combat.state import Combat, Fighter
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState


def running(state: ChojinState) -> Combat:
    if state.combat is None:
        raise RuleViolation("no_combat", "No combat is running.")
    return state.combat


def end_combat(t: ChojinTable, state: ChojinState, reason: EndReason) -> list[Draft]:
    """The combat is over (for the actions too: a death that leaves one fighter does not end
    it before the round end, 5.1 (7)②, but an exhausted deck does at once). Started in the
    戦闘発生フェイズ, the turn player's turn ends with it (4.3: it is the last phase) — after the
    phases of those who left it and moved (5.7, combat/leaving.py)."""
    assert state.combat is not None
    drafts = [Draft(CombatEnded(reason=reason, round=state.combat.round))]
    # 5.7 l.1151–1153: a combat at a leaver's destination over with every C-card collected
    drafts += cards_collected(state, look_ahead(t, state, drafts))
    # 5.7: the leavers' phases come first; the turn ends once they are over
    return drafts + after_combat(t, look_ahead(t, state, drafts))


def voters(state: ChojinState) -> list[Fighter]:
    """Who is asked whether to go on: the characters still in the combat, not fainted (6.1
    l.1266: 「あらゆる行動・チェックを行うことができません」, ruling CL-084)."""
    assert state.combat is not None
    return [
        f
        for f in in_play(state)
        if f.kind == "character" and f.seat is not None and not fainted(state.combat, f)
    ]


def round_ending(t: ChojinTable, state: ChojinState) -> list[Draft]:
    """Every combat turn is over: the continuation check (②)."""
    fight = running(state)
    # 6.1 l.1187: the 残留思念 leave at the end of the round they fought in (combat/joining.py)
    leaving = remnants_leave(state)
    left = look_ahead(t, state, leaving)
    # L931–933: without an attack, or with one fighter or none left, it ends asking nobody
    settled = not fight.attacked or len(in_play(left)) <= 1
    asked = () if settled else tuple(f.id for f in voters(left))
    ending = CombatRoundEnding(round=fight.round, attacked=fight.attacked, waiting=asked)
    drafts = [*leaving, Draft(ending)]
    after = look_ahead(t, state, drafts)
    if not fight.attacked:
        return drafts + end_combat(t, after, "no_attack")
    if len(in_play(after)) <= 1:
        return drafts + end_combat(t, after, "one_left")
    if not asked:
        return drafts + end_combat(t, after, "nobody_continues")
    return drafts


def _draw(t: ChojinTable, state: ChojinState) -> list[Draft]:
    """④ everyone draws to the limit; an exhausted deck ends the combat; else back to (2)."""
    fight = running(state)
    drafts, exhausted = draw_to_limit(state, hand_holders(state))
    after = look_ahead(t, state, drafts)
    if exhausted:
        return drafts + end_combat(t, after, "deck_exhausted")
    # ⑤ 「ラウンド終了時まで続く効果が終了します」: 気絶状態 ending now (6.1 l.1268–1269)
    return [*drafts, *faints_ending(after), Draft(CombatRoundBegun(round=fight.round + 1))]


def _continues(t: ChojinTable, state: ChojinState) -> list[Draft]:
    """③: the fighters at or over their limit answer `discard_down`; nobody: straight to ④."""
    fight = running(state)
    # over the limit a hand must come down to it; at the limit the one card more is a choice,
    # which a fainted fighter does not make (ruling CL-084) nor an エスパー NPC (ruling CL-085)
    waiting = tuple(
        f.id
        for f in hand_holders(state)
        if len(fight.hands.get(f.id, ())) > f.hand_limit
        or (
            len(fight.hands.get(f.id, ())) == f.hand_limit
            and f.kind == "character"
            and not fainted(fight, f)
        )
    )
    drafts = [Draft(CombatContinues(round=fight.round, waiting=waiting))]
    if waiting:
        return drafts
    return drafts + _draw(t, look_ahead(t, state, drafts))


def _asked(state: ChojinState, actor: str) -> tuple[Combat, int]:
    fight = running(state)
    if fight.step != "round_end":
        raise RuleViolation("wrong_step", "This is for the round end.")
    return fight, acting_seat(actor)


@CHOJIN_LOCKE.command("continue_combat")
class ContinueCombat(Command):
    """5.1 (7)②: a fighter says whether it wants to go on."""

    go_on: bool


@CHOJIN_LOCKE.decides(ContinueCombat)
def continue_combat(t: ChojinTable, command: ContinueCombat, actor: str) -> list[Draft]:
    state = playing(t)
    fight, seat = _asked(state, actor)
    asked = [f.id for f in voters(state)]
    settled = fight.discarding or any(fight.continuing.values())
    if seat not in asked or settled or seat in fight.continuing:
        raise RuleViolation("not_asked", "You are not asked whether the combat goes on.")
    drafts = [Draft(ContinueAnswered(fighter=seat, go_on=command.go_on))]
    after = look_ahead(t, state, drafts)
    if command.go_on:
        # one who wants to go on settles it: 「続ける意思のあるものがいない」 no longer holds
        return drafts + _continues(t, after)
    assert after.combat is not None
    if all(n in after.combat.continuing for n in asked):
        return drafts + end_combat(t, after, "nobody_continues")
    return drafts


@CHOJIN_LOCKE.command("discard_down")
class DiscardDown(Command):
    """5.1 (7)③: discard to the hand limit, and optionally one more at the limit (`[]` keeps
    the hand as it is at the limit)."""

    cards: list[str] = Field(max_length=40)


@CHOJIN_LOCKE.decides(DiscardDown)
def discard_down(t: ChojinTable, command: DiscardDown, actor: str) -> list[Draft]:
    state = playing(t)
    fight, seat = _asked(state, actor)
    if seat not in fight.discarding:
        raise RuleViolation("not_asked", "You have nothing to discard now.")
    hand = fight.hands.get(seat, ())
    excess = len(hand) - fight.fighters[seat].hand_limit
    allowed = (excess, excess + 1) if excess > 0 else (0, 1)
    if len(command.cards) not in allowed:
        raise RuleViolation(
            "wrong_count",
            "Discard {allowed} card(s), or {allowed2}: your hand must come to its limit.",
            params={"allowed": allowed[0], "allowed2": allowed[1]},
        )
    if Counter(command.cards) - Counter(hand):
        raise RuleViolation("not_in_hand", "Discard only cards in your hand.")
    body = CardsBody(cards=tuple(command.cards))
    event = HandDiscardedDown(fighter=seat, count=len(command.cards), secret=body)
    drafts = [Draft(event, (seat_actor(seat),))]
    after = look_ahead(t, state, drafts)
    assert after.combat is not None
    if after.combat.discarding:
        return drafts
    if in_prelude(after.combat):
        # 5.7 l.1140: the round end a carried combat begins with: ④, then 戦闘参加
        return drafts + prelude_draw(after)
    return drafts + _draw(t, after)
