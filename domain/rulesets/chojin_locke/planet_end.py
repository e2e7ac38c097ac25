"""4.5: what happens when 惑星編 ends — base players flip unused planet cards, and ability
cards go to them and to the 情報入手 holder, each sealed to its holder."""

from __future__ import annotations

from domain.model.audience import seat_actor
from domain.model.records import Draft
from domain.rulesets.chojin_locke.card_events import (
    AbilityBody,
    AbilityCardDrawn,
    AbilityDeckShuffled,
    PlanetCardsFlipped,
)
from domain.rulesets.chojin_locke.counts import flip_count
from domain.rulesets.chojin_locke.rules import ChojinTable
from domain.rulesets.chojin_locke.setup_events import DeckOrder
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.turn_events import PlanetStageEnded


def _holders(state: ChojinState) -> list[int]:
    """Who gains one card for ending 惑星編 on 情報入手: a holder of 3, or a party's leader."""
    holders: list[int] = []
    for seat, player in sorted(state.players.items()):
        party = state.party_of(seat)
        if player.side != "explorer" or party[0] != seat:
            continue
        if sum(state.players[m].info for m in party) >= 3:
            holders.append(seat)
    return holders


def stage_end_draws(t: ChojinTable, state: ChojinState, ended: PlanetStageEnded) -> list[Draft]:
    explorers = sum(1 for p in state.players.values() if p.side == "explorer")
    per = flip_count(state.seats, explorers)
    unused = list(state.board.unused)
    drafts: list[Draft] = []
    gains: list[int] = []
    for seat, player in sorted(state.players.items()):
        if player.side != "base":
            continue
        flipped, unused = unused[:per], unused[per:]
        blanks = sum(1 for name in flipped if state.catalog.planet_card(name).kind == "blank")
        drafts.append(Draft(PlanetCardsFlipped(seat=seat, cards=tuple(flipped), gains=blanks)))
        gains += [seat] * blanks
    if ended.reason == "information":
        gains += _holders(state)
    deck = state.catalog.ability_deck()
    if not gains or not deck:
        return drafts
    draw = t.dice.shuffle(len(deck))
    order = DeckOrder(draw=draw, deck=tuple(deck))
    drafts.append(Draft(AbilityDeckShuffled(secret=order), audience=()))
    for position, seat in enumerate(gains[: len(deck)]):
        body = AbilityBody(card=deck[draw.order[position]])
        drafts.append(Draft(AbilityCardDrawn(seat=seat, secret=body), (seat_actor(seat),)))
    return drafts
