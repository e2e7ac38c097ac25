"""5.1's steps and 5.2's combat turn: `combat_next` walks them, `combat_pass` and
`discard_card` are two of the main actions (the C-cards, 格闘 and abilities are in the actions'
modules, which call `flow_events.main_action_taken` / `attack_made` from their folds).

5.2: 「チェックフェイズ → 支援フェイズ1 → 主要フェイズ → 支援フェイズ2 → 次のプレイヤーの
戦闘手番へ」;
「主要行動は1手番中に1回しか行えません。」
"""

from __future__ import annotations

from pydantic import Field

from domain.model.audience import seat_actor
from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.model.table import acting_seat
from domain.rulesets.chojin_locke.combat import arrival
from domain.rulesets.chojin_locke.combat.conditions import CombatTurnSkipped, skip_reason
from domain.rulesets.chojin_locke.combat.flow_events import (
    CardBody,
    CombatCardDiscarded,
    CombatPassed,
    CombatPhaseEntered,
    CombatStepEntered,
    CombatTurnBegun,
    CombatTurnEnded,
)
from domain.rulesets.chojin_locke.combat.hands import (
    draw_to_limit,
    hand_holders,
    look_ahead,
    shuffle_deck,
)
from domain.rulesets.chojin_locke.combat.initiative import deal_initiative, in_play
from domain.rulesets.chojin_locke.combat.joining import arrivals
from domain.rulesets.chojin_locke.combat.round_end import end_combat, round_ending, running
from domain.rulesets.chojin_locke.combat.state import Combat, CombatPhase, Fighter
from domain.rulesets.chojin_locke.guards import playing
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState

PHASES: tuple[CombatPhase, ...] = ("check", "support1", "main", "support2")


def first_turn(t: ChojinTable, state: ChojinState) -> list[Draft]:
    """The first fighter in the initiative order begins its combat turn (none: round end)."""
    return next_turn(t, state, after=None)


def next_turn(t: ChojinTable, state: ChojinState, after: int | None) -> list[Draft]:
    """The fighter after `after` in this round's order that is still in the combat begins
    its turn; when every turn is over, the round ends (5.1 (6)→(7))."""
    fight = running(state)
    playing_now = {f.id for f in in_play(state)}
    order = list(fight.order)
    start = order.index(after) + 1 if after in order else 0
    skipped: list[Draft] = []
    for n in order[start:]:
        if n in playing_now:
            # a fainted fighter's turn, a 残留思念's after its 同調 or 妨害 (combat/conditions.py)
            reason = skip_reason(fight, fight.fighters[n])
            if reason is not None:
                skipped.append(Draft(CombatTurnSkipped(fighter=n, reason=reason)))
                continue
            synced = fight.fighters[n].acted  # 5.5: joined an attack by 同調 this round
            return [*skipped, Draft(CombatTurnBegun(fighter=n, check_only=synced))]
    return skipped + round_ending(t, look_ahead(t, state, skipped))


def begin_round(t: ChojinTable, state: ChojinState) -> list[Draft]:
    """After (3): ≤1 fighter ends the combat; (4) new fighters draw to their limit (a fresh
    deck for a new combat); (5) initiative; (6) the first combat turn."""
    fight = running(state)
    if len(in_play(state)) <= 1:
        return end_combat(t, state, "one_left")
    drafts: list[Draft] = []
    if not fight.hands and not fight.deck and fight.round == 1:
        drafts.append(shuffle_deck(t, state))
    after = look_ahead(t, state, drafts)
    assert after.combat is not None
    new = [f for f in hand_holders(after) if f.id not in after.combat.hands]
    drawn, exhausted = draw_to_limit(after, new)
    drafts += drawn
    after = look_ahead(t, after, drawn)
    if exhausted:
        return drafts + end_combat(t, after, "deck_exhausted")
    initiative = deal_initiative(t, after)
    drafts.append(initiative)
    after = look_ahead(t, after, [initiative])
    return drafts + first_turn(t, after)


def _their_turn(
    state: ChojinState, actor: str, referee: str | None = None
) -> tuple[Combat, Fighter]:
    """The fighter whose combat turn it is, played by `actor`: its seat, or for an NPC or
    obstacle the host (`referee`, 6.2's behaviour is the table's to apply)."""
    fight = running(state)
    if fight.step != "turns" or fight.current is None:
        raise RuleViolation(
            "wrong_step",
            "No combat turn is being played (step: {step}).",
            params={"step": fight.step},
        )
    current = fight.fighters[fight.current]
    if current.seat is None and referee is not None and actor == referee:
        return fight, current
    if current.seat != acting_seat(actor):
        raise RuleViolation("not_your_combat_turn", "It is not your combat turn.")
    return fight, current


def main_phase_turn(
    state: ChojinState, actor: str, referee: str | None = None
) -> tuple[Combat, Fighter]:
    """The fighter whose combat turn it is (an NPC's or obstacle's played by `referee`), in its
    main phase, its main action still to take and no attack under way (5.2 l.970)."""
    fight, current = _their_turn(state, actor, referee)
    if fight.phase != "main":
        raise RuleViolation("wrong_phase", "Main actions are taken in the main phase.")
    if fight.main_done:
        raise RuleViolation("main_action_used", "You have already taken this turn's main action.")
    if fight.attack is not None:
        raise RuleViolation("attack_pending", "The attack must be resolved first.")
    return fight, current


def support_turn(state: ChojinState, actor: str) -> Fighter:
    """5.2 支援フェイズ1/2: 「戦闘時でも支援行動は1手番中に何回でも行うことができます。支援行動の
    内容は通常ターンと同じです。」 (改心, シートオープン, [支援]): the fighter whose combat turn it
    is, in one of its support phases. 勝利宣言 and dissolving a party are not among them (5.7,
    l.1132–1133: 「戦闘中の支援フェイズとして扱われるので勝利宣言やパーティーの解散を行うことは
    できません」)."""
    fight, current = _their_turn(state, actor)
    if fight.phase not in ("support1", "support2"):
        raise RuleViolation("wrong_phase", "Support actions are taken in a support phase.")
    if fight.attack is not None:
        raise RuleViolation("attack_pending", "The attack must be resolved first.")
    return current


@CHOJIN_LOCKE.command("combat_next")
class CombatNext(Command):
    """Ends the current combat step (the starter, in steps 1–3) or combat-turn phase (the
    fighter whose turn it is)."""


@CHOJIN_LOCKE.decides(CombatNext)
def combat_next(t: ChojinTable, command: CombatNext, actor: str) -> list[Draft]:
    state = playing(t)
    fight = running(state)
    if fight.step in ("joining", "moving", "before"):
        if actor != t.referee_actor and acting_seat(actor) != fight.started_by:
            raise RuleViolation(
                "not_the_starter", "The combat's starter (or the host) moves its steps on."
            )
        if fight.join_request is not None:
            raise RuleViolation(
                "join_request_pending", "An onlooker's 実は参加していたチェック waits for answers."
            )
        if fight.step == "joining":
            return [Draft(CombatStepEntered(step="moving", round=fight.round))]
        if fight.step == "moving":
            # (2): the pieces of the characters joining this round move in (combat/joining.py);
            # an explorer's in round 1 has the square's effect at once (combat/arrival.py)
            moved = arrivals(state)
            moved += arrival.square_phases(t, state, moved)
            if arrival.game_over(moved):
                return moved
            return [*moved, Draft(CombatStepEntered(step="before", round=fight.round))]
        return begin_round(t, state)
    if fight.step == "round_end":
        raise RuleViolation("round_end_pending", "Answer the round end (continue_combat).")
    fight, current = _their_turn(state, actor, t.referee_actor)
    if fight.attack is not None:
        raise RuleViolation("attack_pending", "The attack must be resolved first.")
    if fight.phase == "main" and not fight.main_done:
        raise RuleViolation("main_action_required", "Take a main action first (パス is one).")
    checks_only = fight.phase == "check" and current.acted
    if fight.phase == "support2" or checks_only:
        drafts = [Draft(CombatTurnEnded(fighter=current.id))]
        return drafts + next_turn(t, look_ahead(t, state, drafts), after=current.id)
    following = PHASES[PHASES.index(fight.phase) + 1]
    return [Draft(CombatPhaseEntered(fighter=current.id, phase=following))]


@CHOJIN_LOCKE.command("combat_pass")
class CombatPass(Command):
    """The main action パス (5.2)."""


@CHOJIN_LOCKE.decides(CombatPass)
def combat_pass(t: ChojinTable, command: CombatPass, actor: str) -> list[Draft]:
    _, current = main_phase_turn(playing(t), actor, t.referee_actor)
    return [Draft(CombatPassed(fighter=current.id))]


@CHOJIN_LOCKE.command("discard_card")
class DiscardCard(Command):
    """The main action: one C-card from your hand to the discard pile, face down (5.2)."""

    card: str = Field(min_length=1, max_length=200)


@CHOJIN_LOCKE.decides(DiscardCard)
def discard_card(t: ChojinTable, command: DiscardCard, actor: str) -> list[Draft]:
    fight, current = main_phase_turn(playing(t), actor, t.referee_actor)
    if current.proxy:
        raise RuleViolation(
            "proxy_discard",
            "代理を使用している間はコンバットカードを捨てることができません (3.1 l.377).",
        )
    if command.card not in fight.hands.get(current.id, ()):
        raise RuleViolation(
            "not_in_hand", "{card} is not in your hand.", params={"card": command.card}
        )
    assert current.seat is not None
    event = CombatCardDiscarded(fighter=current.id, secret=CardBody(card=command.card))
    return [Draft(event, (seat_actor(current.seat),))]
