"""5.1 (2) コマ移動: an explorer joining in the first round has the square's effect at once.

l.899–901: 「探索プレイヤーのキャラクターが1ラウンド目のコマ移動フェイズ時に戦闘に参加した場合に
限り、マスの効果発動フェイズを即座に行い、マスの効果を処理した後に(3)の戦闘前フェイズに移行します。」

Each explorer whose piece moves onto the combat's square at round 1's コマ移動 plays the square
phase there as a turn player would (4.3 l.668–673, turn.square_effect/base_square_effect): a
face-down planet or base card under it is turned face up (情報入手 taken, a 重要拠点 destroyed —
the last one ending the game), in the order the pieces arrived, so a card the first turns is
face up for the next. A base player's piece, or a later round's, has no square phase. What a
card's text does beyond that is the table's, as in any square phase; a 待ち伏せ turned while the
combat runs starts no second combat (ruling CL-104).
"""

from __future__ import annotations

from domain.model.records import Draft
from domain.rulesets.chojin_locke.combat.hands import look_ahead
from domain.rulesets.chojin_locke.combat.joining_events import ArrivedOnSquare
from domain.rulesets.chojin_locke.rules import ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.turn import base_square_effect, square_effect
from domain.rulesets.chojin_locke.turn_events import GameOver


def square_phases(t: ChojinTable, state: ChojinState, moved: list[Draft]) -> list[Draft]:
    """The square phases of the explorers among `moved` (round 1's arrivals), in order."""
    fight = state.combat
    if fight is None or fight.round != 1:
        return []
    effects: list[Draft] = []
    for draft in moved:
        arrived = draft.event
        if not isinstance(arrived, ArrivedOnSquare):
            continue
        ahead = look_ahead(t, state, [*moved, *effects])
        someone = ahead.players[arrived.seat]
        if someone.side != "explorer":
            continue
        effects += square_effect(ahead, someone) + base_square_effect(t, ahead, someone)
        if game_over(effects):
            break  # the last 重要拠点: the game is over
    return effects


def game_over(drafts: list[Draft]) -> bool:
    """The drafts end the game (the last 重要拠点 destroyed)."""
    return any(isinstance(d.event, GameOver) for d in drafts)
