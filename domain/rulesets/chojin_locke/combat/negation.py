"""6.2 エスパーの性質: an エスパー NPC negates a テレポート escape.

l.1330–1332: 「惑星編の場合は全てのキャラクター、秘密基地編では探索プレイヤーのキャラクターが
逃避Cカードであるテレポートを使用した時、エスパーがそのテレポートの逃避効果を打ち消すことができる
場合、必ずテレポートを使用してテレポートの逃避効果を打ち消します。」

Nobody sees an エスパー's hand (ruling CL-085), so the server, not the table, makes this use. When a
character's テレポート (the C-card of that name) used as an escape activates — as the main action
or as the answer to an attack — in 惑星編, or in 秘密基地編 by an explorer's character, the first
エスパー NPC in the combat (by fighter id) that can use a テレポート of its own (one in its hand
that no ESPジャマー sent back, of a LV no higher than its ESP能力レベル; not fainted) uses it: the
card is revealed and discarded, and the escape's 逃避効果 is negated — the character stays in
the combat and its party holds. What the escape was besides stays: an [逃避] action for 3.1
l.300, the card and the ESP power spent, and, as an answer, the attack evaded (l.1002 「相手の
攻撃を回避する効果も」 is an effect of its own; ruling CL-105). Other teleport cards
(短距離テレポート …) and [逃避] abilities are not 「テレポート」: the table's.
"""

from __future__ import annotations

from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.rulesets.chojin_locke.changes import combat, fighter, without
from domain.rulesets.chojin_locke.combat import jammer
from domain.rulesets.chojin_locke.combat.action_events import CardActivated
from domain.rulesets.chojin_locke.combat.state import Fighter
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.words import fighter_words, named

TELEPORT = "テレポート"


@CHOJIN_LOCKE.event
class EscapeNegated(Event):
    """An エスパー NPC (`esper`) uses its テレポート (`lv`) to negate `fighter`'s テレポート
    escape (6.2 l.1330–1332): the card is discarded, and `fighter` stays in the combat."""

    esper: int
    fighter: int
    card: str = TELEPORT
    lv: int


@CHOJIN_LOCKE.folds(EscapeNegated)
def _negated(state: ChojinState, event: EscapeNegated, seq: int) -> ChojinState:
    assert state.combat is not None
    hands = dict(state.combat.hands)
    hands[event.esper] = without(hands.get(event.esper, ()), event.card)
    state = combat(state, hands=hands, discard=[*state.combat.discard, event.card])
    return fighter(state, event.fighter, left=False)


@CHOJIN_LOCKE.says_named(EscapeNegated)
def _escape_negated_line(e: EscapeNegated, names: Names) -> Message:
    return Message(
        N_(
            "{esper}が「{card}」(LV{lv})を使用: {fighter}のテレポートの逃避効果を打ち消す —"
            " 戦闘に残る"
        ),
        {
            "esper": fighter_words(e.esper, names),
            "card": named(e.card),
            "lv": e.lv,
            "fighter": fighter_words(e.fighter, names),
        },
    )


def _can_negate(state: ChojinState, esper: Fighter, lv: int) -> bool:
    assert state.combat is not None
    fight = state.combat
    return (
        esper.kind == "esper"
        and not esper.left
        and any(e > 0 for e in esper.members)
        and esper.fainted_until < fight.round
        and jammer.usable(fight, esper.id, TELEPORT)
        and lv <= esper.esp_level
    )


def on_escape(state: ChojinState, used: CardActivated) -> list[Draft]:
    """The EscapeNegated an エスパー NPC must make on the activated escape `used`, or none."""
    fight = state.combat
    if fight is None or used.card != TELEPORT or used.kind != "逃避" or not used.success:
        return []
    someone = state.players.get(used.fighter)
    if someone is None or (state.stage == "base" and someone.side != "explorer"):
        return []
    card = state.catalog.combat_card(TELEPORT)
    if card is None:
        return []
    for _, esper in sorted(fight.fighters.items()):
        if _can_negate(state, esper, card.lv):
            negated = EscapeNegated(esper=esper.id, fighter=used.fighter, lv=card.lv)
            return [Draft(negated)]
    return []
