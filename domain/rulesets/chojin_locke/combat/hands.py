"""5.1 (4) and (7)④: the C-card deck shuffled by the verifiable stream and hands drawn to
their limit, each draw sealed to its seat. 「新しく戦闘に参加したキャラクターはコンバットカードを
手札上限枚数まで受け取ります。基本的に手札上限枚数は7枚です。」"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from domain.model.audience import seat_actor
from domain.model.records import Draft
from domain.rulesets.chojin_locke.combat.flow_events import (
    CardsBody,
    CombatCardsDrawn,
    CombatDeckShuffled,
)
from domain.rulesets.chojin_locke.combat.state import Fighter
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.setup_events import DeckOrder
from domain.rulesets.chojin_locke.state import ChojinState


def look_ahead(t: ChojinTable, state: ChojinState, drafts: Iterable[Draft]) -> ChojinState:
    """The state once `drafts` are folded (a decider's look ahead, as host.py does)."""
    for offset, draft in enumerate(drafts):
        state = CHOJIN_LOCKE.fold(state, draft.event, t.next_seq + offset)
    return state


def shuffle_deck(t: ChojinTable, state: ChojinState) -> Draft:
    """A fresh deck for a new combat (5.1: 「コンバットカードの山札を作り直します」), its order
    sealed to nobody."""
    deck = tuple(state.catalog.combat_deck())  # names × count, catalog order
    draw = t.dice.shuffle(len(deck))
    return Draft(CombatDeckShuffled(cards=len(deck), secret=DeckOrder(draw=draw, deck=deck)), ())


def hand_holders(state: ChojinState) -> list[Fighter]:
    """The fighters that hold a hand: the characters still in the combat (by id), once
    arrived (a delayed arrival takes its hand in the round it joins, ruling CL-069) and alive (a
    dead one has left the combat, 4.4 l.726–728, its hand discarded: it draws nothing at the
    round end, 5.1 (7)④ l.940–941); an エスパー NPC is a character too (6.1 l.1169–1170:
    「キャラクターとは手札を持つ戦闘参加者のことです。…エスパー」)."""
    fight = state.combat
    assert fight is not None
    return [
        f
        for _, f in sorted(fight.fighters.items())
        if ((f.kind == "character" and f.seat is not None) or f.kind == "esper")
        and not f.left
        and f.joined_round <= fight.round
        and (f.seat is None or f.kind != "character" or state.players[f.seat].alive)
        and (not f.members or any(e > 0 for e in f.members))
    ]


def draw_to_limit(state: ChojinState, fighters: Sequence[Fighter]) -> tuple[list[Draft], bool]:
    """Each of `fighters` draws from the top of the deck up to its hand limit, in turn; the
    second value says the deck ran out while a card was still owed (the combat is over,
    docs/rulings.md)."""
    assert state.combat is not None
    deck = list(state.combat.deck)
    drafts: list[Draft] = []
    for f in fighters:
        need = f.hand_limit - len(state.combat.hands.get(f.id, ()))
        if need <= 0:
            continue
        taken, deck = deck[:need], deck[need:]
        if taken:
            body = CardsBody(cards=tuple(taken))
            event = CombatCardsDrawn(fighter=f.id, count=len(taken), secret=body)
            # sealed to its seat; an エスパー NPC's to nobody: the server plays it (ruling CL-085)
            audience = (seat_actor(f.seat),) if f.seat is not None else ()
            drafts.append(Draft(event, audience))
        if len(taken) < need:
            return drafts, True
    return drafts, False
