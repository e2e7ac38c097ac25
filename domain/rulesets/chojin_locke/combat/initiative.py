"""5.1 (5): initiative. 「戦闘参加者全員にイニシアチブ決定用としてトランプを1枚ずつ配り、行動の
順番が決定されます。黒のトランプの方が赤より早く、数字の小さいトランプの方がより早い行動順番となり
ます。具体的には黒1→黒2→…→黒10→赤1→赤2→…→赤10の順に行動順番が回ってきます。」"""

from __future__ import annotations

from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.combat.flow_events import InitiativeDealt
from domain.rulesets.chojin_locke.combat.state import Fighter
from domain.rulesets.chojin_locke.dealing import PLAYING_CARDS
from domain.rulesets.chojin_locke.playing_cards import PlayingCard
from domain.rulesets.chojin_locke.rules import ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState


def speed(card: PlayingCard) -> tuple[int, int]:
    """The sort key of a card: black before red, then the smaller number first."""
    return (0 if card.color == "black" else 1, card.rank)


def in_play(state: ChojinState) -> list[Fighter]:
    """The fighters still in the combat (by id): arrived (a delayed arrival from its
    `joined_round`, ruling CL-069), not escaped, and a character still alive (a 残留思念 is played
    by its dead character's seat)."""
    fight = state.combat
    assert fight is not None
    return [
        f
        for _, f in sorted(fight.fighters.items())
        if not f.left
        and f.joined_round <= fight.round
        and (f.kind != "character" or f.seat is None or state.players[f.seat].alive)
        and (f.kind not in ("obstacle", "esper") or not f.members or any(e > 0 for e in f.members))
    ]


def deal_initiative(t: ChojinTable, state: ChojinState) -> Draft:
    """A fresh shuffle of the 20 playing cards; one face up to each fighter, by id."""
    assert state.combat is not None
    fighters = [f.id for f in in_play(state)]
    if len(fighters) > len(PLAYING_CARDS):
        raise RuleViolation("too_many_fighters", "20 playing cards deal 20 fighters at most.")
    draw = t.dice.shuffle(len(PLAYING_CARDS))
    cards = {n: PLAYING_CARDS[draw.order[i]] for i, n in enumerate(fighters)}
    order = tuple(sorted(fighters, key=lambda n: speed(cards[n])))
    return Draft(InitiativeDealt(round=state.combat.round, draw=draw, cards=cards, order=order))
