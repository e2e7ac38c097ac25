"""5.1 (1) 戦闘参加's events: a check rolled on its chart, a participant joining, and the
consent round of 実は参加していたチェック; each with its fold (combat/joining.py decides)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from domain.model.events import Event
from domain.model.lifecycle_events import RollRecord
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.rulesets.chojin_locke.changes import combat, player
from domain.rulesets.chojin_locke.combat.state import Fighter, JoinRequest
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.state import Cell, ChojinState, Position
from domain.rulesets.chojin_locke.words import (
    JOIN_CHECKS,
    fighters_words,
    named,
    roll_words,
    seat_words,
    seats_words,
)

JoinKind = Literal["there", "alive", "joined"]


@CHOJIN_LOCKE.event
class JoinChecked(Event):
    """実はそこにいた / 実は生きていた / 実は参加していたチェック: 2D6 on the catalog's chart
    (`result` is the row's text). `seat`: the player's character that checks (None for an
    onlooker's `person`). 実は生きていた's 3–5 adds the 残留思念チャート roll (`remnant_roll`,
    its `firepower`)."""

    check: JoinKind
    seat: int | None = None
    person: str | None = None
    roll: RollRecord
    total: int
    result: str
    joins: bool = False
    delay: int = 0
    revives: bool = False
    remnant: bool = False
    remnant_roll: RollRecord | None = None
    remnant_result: str = ""
    firepower: int = 0


@CHOJIN_LOCKE.folds(JoinChecked)
def _join_checked(state: ChojinState, event: JoinChecked, seq: int) -> ChojinState:
    if event.person is not None:
        state = state.model_copy(update={"joined_persons": [*state.joined_persons, event.person]})
        state = combat(state, join_request=None)
    if event.seat is not None and state.combat is not None:
        state = combat(state, join_checked=[*state.combat.join_checked, event.seat])
    if event.revives and event.seat is not None:
        # 実は生きていた: alive again, its wounds and spent power gone; an alignment changed by
        # 改心 returns to its first step on revival (3.1 l.199, ruling CL-035)
        state = player(
            state,
            event.seat,
            condition="normal",
            endurance_damage=0,
            willpower_damage=0,
            power_spent=0,
            step=0,
            flags=[],
        )
    return state


@CHOJIN_LOCKE.says_named(JoinChecked)
def _join_checked_line(e: JoinChecked, names: Names) -> Message:
    said = {
        "who": seat_words(e.seat, names) if e.seat is not None else f"{e.person}",
        "check": JOIN_CHECKS[e.check],
        "total": e.total,
        "result": named(e.result),
        "roll": roll_words(e.roll),
    }
    if e.remnant_roll is None:
        return Message(N_("{who} {check}チェック 計{total}: {result} [{roll}]"), said)
    return Message(
        N_(
            "{who} {check}チェック 計{total}: {result} [{roll}] — 残留思念チャート: {remnant}"
            " [{remnant_roll}]"
        ),
        {**said, "remnant": named(e.remnant_result), "remnant_roll": roll_words(e.remnant_roll)},
    )


@CHOJIN_LOCKE.event
class JoinedCombat(Event):
    """A participant joins the running combat (6.1 戦闘参加者): a character (its seat's id), a
    残留思念 or an onlooker (ids from 101). `joined_round` later than the current round: it
    arrives then (a delayed arrival); its piece moves in that round's コマ移動フェイズ."""

    id: int
    name: str
    kind: Literal["character", "obstacle", "remnant"] = "character"
    seat: int | None = None
    joined_round: int = 1
    firepower: int = 0
    members: tuple[int, ...] = ()


@CHOJIN_LOCKE.folds(JoinedCombat)
def _joined(state: ChojinState, event: JoinedCombat, seq: int) -> ChojinState:
    if state.combat is None:
        return state
    fighter = Fighter(
        id=event.id,
        name=event.name,
        kind=event.kind,
        seat=event.seat,
        joined_round=event.joined_round,
        firepower=event.firepower,
        members=list(event.members),
    )
    return combat(state, fighters={**state.combat.fighters, event.id: fighter})


@CHOJIN_LOCKE.says_named(JoinedCombat)
def _joined_combat_line(e: JoinedCombat, names: Names) -> Message:
    said = {
        "who": seat_words(e.seat, names) if e.kind == "character" else e.name,
        "when": Message(N_(" ({round}ラウンド目から)"), {"round": e.joined_round})
        if e.joined_round > 1
        else "",
        "power": Message(N_(" 火力{firepower}"), {"firepower": e.firepower})
        if e.kind != "character" and e.firepower
        else "",
    }
    if e.kind == "obstacle":
        return Message(N_("{who} (障害)が戦闘に参加{when}{power}"), said)
    if e.kind == "remnant":
        return Message(N_("{who} (残留思念)が戦闘に参加{when}{power}"), said)
    return Message(N_("{who}が戦闘に参加{when}{power}"), said)


@CHOJIN_LOCKE.event
class JoinRequested(Event):
    """実は参加していたチェック asked for an onlooker: every player must consent (5.1 (1)③)."""

    person: str
    waiting: tuple[int, ...]


@CHOJIN_LOCKE.folds(JoinRequested)
def _join_requested(state: ChojinState, event: JoinRequested, seq: int) -> ChojinState:
    request = JoinRequest(person=event.person, waiting=list(event.waiting))
    return combat(state, join_request=request)


@CHOJIN_LOCKE.says_named(JoinRequested)
def _join_requested_line(e: JoinRequested, names: Names) -> Message:
    return Message(
        N_("{person}の実は参加していたチェック: 全員の同意を求める ({seats})"),
        {"person": e.person, "seats": seats_words(e.waiting, names)},
    )


@CHOJIN_LOCKE.event
class JoinAnswered(Event):
    seat: int
    consents: bool


@CHOJIN_LOCKE.folds(JoinAnswered)
def _join_answered(state: ChojinState, event: JoinAnswered, seq: int) -> ChojinState:
    request = state.combat.join_request if state.combat is not None else None
    if request is None:
        return state
    if not event.consents:
        return combat(state, join_request=None)
    waiting: Sequence[int] = [w for w in request.waiting if w != event.seat]
    return combat(state, join_request=request.model_copy(update={"waiting": waiting}))


@CHOJIN_LOCKE.says_named(JoinAnswered)
def _join_answered_line(e: JoinAnswered, names: Names) -> Message:
    said = {"seat": seat_words(e.seat, names)}
    if e.consents:
        return Message(N_("{seat}: 同意"), said)
    return Message(N_("{seat}: 同意しない"), said)


@CHOJIN_LOCKE.event
class ArrivedOnSquare(Event):
    """5.1 (2) コマ移動フェイズ: 「戦闘参加フェイズに行われたチェックによって戦闘に参加する場合、
    このタイミングでキャラクターのコマを移動させます。」 The piece of a character joining this round
    is put on the combat's square (a revived one, or a base player's in 惑星編, gets one)."""

    seat: int
    square: str  # "planet:square" (惑星編) or "row:col" (秘密基地編)


@CHOJIN_LOCKE.folds(ArrivedOnSquare)
def _arrived(state: ChojinState, event: ArrivedOnSquare, seq: int) -> ChojinState:
    first, second = (int(n) for n in event.square.split(":"))
    if state.stage == "base":
        return player(state, event.seat, cell=Cell(row=first, col=second), outside=False)
    return player(state, event.seat, position=Position(planet=first, square=second))


@CHOJIN_LOCKE.says_named(ArrivedOnSquare)
def _arrived_on_square_line(e: ArrivedOnSquare, names: Names) -> Message:
    return Message(
        N_("{seat}のコマが戦闘のマス {square} へ移動"),
        {"seat": seat_words(e.seat, names), "square": e.square},
    )


@CHOJIN_LOCKE.event
class RemnantsLeft(Event):
    """6.1 l.1187: 「ただし、残留思念は1ラウンド目終了時に戦闘から離脱します。」 At the end of
    the round they fought in, the 残留思念 leave the combat."""

    ids: tuple[int, ...]


@CHOJIN_LOCKE.folds(RemnantsLeft)
def _remnants_left(state: ChojinState, event: RemnantsLeft, seq: int) -> ChojinState:
    if state.combat is None:
        return state
    fighters = dict(state.combat.fighters)
    for n in event.ids:
        if n in fighters:
            fighters[n] = fighters[n].model_copy(update={"left": True})
    return combat(state, fighters=fighters)


@CHOJIN_LOCKE.says_named(RemnantsLeft)
def _remnants_left_line(e: RemnantsLeft, names: Names) -> Message:
    return Message(N_("残留思念が戦闘から離脱: {ids}"), {"ids": fighters_words(e.ids, names)})
