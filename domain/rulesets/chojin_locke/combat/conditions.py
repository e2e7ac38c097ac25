"""A fighter's conditions in a combat that the flow reads: 気絶状態 (fainted: its combat turns
skipped, its end at the round end) and a 残留思念's turn skipped after its 同調 or 妨害. The host
makes a fighter faint with `faint` (combat/fainting.py).

6.1 l.1266–1267 (気絶状態): 「気絶状態のキャラクターはあらゆる行動・チェックを行うことができません。
自分の戦闘手番の行動はもちろん、相手の行動に対する[対抗(X)]も行うことができません。」
6.1 l.1199 (残留思念): 「なお、「同調」か「妨害」を行った残留思念は行動済みとなり、戦闘手番が
スキップされます。」
"""

from __future__ import annotations

from typing import Literal

from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.rulesets.chojin_locke.changes import fighter
from domain.rulesets.chojin_locke.combat.state import Combat, Fighter
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.words import SKIPS, fighter_words, fighters_words

SkipReason = Literal["fainted", "remnant_acted"]


def fainted(fight: Combat, someone: Fighter) -> bool:
    """In 気絶状態 this round (6.1 l.1268–1269: it lasts through the end of its last round)."""
    return someone.fainted_until >= fight.round


def skip_reason(fight: Combat, someone: Fighter) -> SkipReason | None:
    """Why `someone`'s combat turn is skipped this round, if it is."""
    if fainted(fight, someone):
        return "fainted"
    if someone.kind == "remnant" and someone.acted:
        return "remnant_acted"
    return None


@CHOJIN_LOCKE.event
class CombatTurnSkipped(Event):
    """`fighter`'s place in the initiative order comes and its combat turn is skipped: it is
    fainted (6.1 l.1266–1267), or a 残留思念 that did 同調 or 妨害 this round (6.1 l.1199)."""

    fighter: int
    reason: SkipReason


@CHOJIN_LOCKE.folds(CombatTurnSkipped)
def _skipped(state: ChojinState, event: CombatTurnSkipped, seq: int) -> ChojinState:
    if state.combat is None or event.fighter not in state.combat.fighters:
        return state
    return fighter(state, event.fighter, acted=True)


@CHOJIN_LOCKE.says_named(CombatTurnSkipped)
def _combat_turn_skipped_line(e: CombatTurnSkipped, names: Names) -> Message:
    return Message(
        N_("{fighter}の戦闘手番はスキップ ({why})"),
        {"fighter": fighter_words(e.fighter, names), "why": SKIPS[e.reason]},
    )


@CHOJIN_LOCKE.event
class FaintEnded(Event):
    """6.1 l.1268–1269: 「気絶状態は指定されたラウンド数が経過するまで持続します。“2ラウンドの間
    気絶状態になる”という効果の場合、次のラウンドのラウンド終了時まで気絶状態が継続します。」 — at
    the end of their last round (5.1 (7)⑤ 「ラウンド終了時まで続く効果が終了します」) these wake."""

    fighters: tuple[int, ...]
    round: int


@CHOJIN_LOCKE.folds(FaintEnded)
def _woke(state: ChojinState, event: FaintEnded, seq: int) -> ChojinState:
    for n in event.fighters:
        if state.combat is not None and n in state.combat.fighters:
            state = fighter(state, n, fainted_until=0)
    return state


@CHOJIN_LOCKE.says_named(FaintEnded)
def _faint_ended_line(e: FaintEnded, names: Names) -> Message:
    return Message(
        N_("{fighters}の気絶状態が終わる ({round}ラウンド目終了)"),
        {"fighters": fighters_words(e.fighters, names), "round": e.round},
    )


def faints_ending(state: ChojinState) -> list[Draft]:
    """The round is ending (5.1 (7)⑤): the fighters whose 気絶状態 lasts through this round."""
    fight = state.combat
    assert fight is not None
    ending = tuple(
        n for n, f in sorted(fight.fighters.items()) if 0 < f.fainted_until <= fight.round
    )
    return [Draft(FaintEnded(fighters=ending, round=fight.round))] if ending else []
