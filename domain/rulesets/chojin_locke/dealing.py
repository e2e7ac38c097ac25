"""4.1: dealing sheets and playing cards as verifiable shuffles, each sealed to its seat."""

from __future__ import annotations

from domain.model.audience import seat_actor
from domain.model.errors import KirokuError
from domain.model.records import Draft
from domain.rulesets.chojin_locke.cards import CharacterSheet
from domain.rulesets.chojin_locke.counts import character_counts
from domain.rulesets.chojin_locke.playing_cards import PlayingCard
from domain.rulesets.chojin_locke.rules import ChojinTable
from domain.rulesets.chojin_locke.setup_events import (
    CardDealt,
    CardsShuffled,
    DeckOrder,
    SheetBody,
    SheetDealt,
    SheetsShuffled,
)

_KINDS = ("L", "G", "E", "S")


def kind(sheet: CharacterSheet) -> str:
    return "L" if sheet.leader else sheet.steps[0]


def deal_sheets(t: ChojinTable) -> list[Draft]:
    """Shuffle the dealable sheets; the first of each kind up to 4.1's counts go to seats 1…N in
    the order they lie in the shuffled deck."""
    state = t.rules
    wanted = dict(zip(_KINDS, character_counts(state.seats), strict=True))
    pool = [c for c in state.catalog.characters if not c.special]
    for key, count in wanted.items():
        if sum(1 for c in pool if kind(c) == key) < count:
            raise KirokuError(
                "catalog_too_small",
                "The catalog has fewer than {count} ({key}) characters.",
                params={"count": count, "key": key},
            )
    draw = t.dice.shuffle(len(pool))
    deal = state.deals + 1
    chosen: list[CharacterSheet] = []
    for index in draw.order:
        sheet = pool[index]
        if wanted[kind(sheet)] > 0:
            wanted[kind(sheet)] -= 1
            chosen.append(sheet)
    order = DeckOrder(draw=draw, deck=tuple(c.name for c in pool))
    drafts = [Draft(SheetsShuffled(deal=deal, secret=order), audience=())]
    for seat, sheet in enumerate(chosen, 1):
        body = SheetBody(sheet=sheet)
        drafts.append(Draft(SheetDealt(seat=seat, deal=deal, secret=body), (seat_actor(seat),)))
    return drafts


PLAYING_CARDS: tuple[PlayingCard, ...] = tuple(
    PlayingCard(color=color, rank=rank) for color in ("black", "red") for rank in range(1, 11)
)


def deal_cards(t: ChojinTable, seats: list[int]) -> list[Draft]:
    """Black 1–10 and red 1–10, shuffled; one face down to each listed seat."""
    draw = t.dice.shuffle(len(PLAYING_CARDS))
    names = tuple(f"{c.color}{c.rank}" for c in PLAYING_CARDS)
    drafts = [
        Draft(
            CardsShuffled(seats=tuple(seats), secret=DeckOrder(draw=draw, deck=names)),
            audience=(),
        )
    ]
    for position, seat in enumerate(seats):
        card = PLAYING_CARDS[draw.order[position]]
        drafts.append(Draft(CardDealt(seat=seat, secret=card), (seat_actor(seat),)))
    return drafts
