"""4.5 setup: 宇宙作成, base players' secret 待ち伏せ, explorers at spaceports, the first player."""

from __future__ import annotations

from domain.model.audience import seat_actor
from domain.model.commands import Command
from domain.model.errors import KirokuError, RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.board import PLANETS, SQUARES, key
from domain.rulesets.chojin_locke.counts import ambush_count, planet_card_count
from domain.rulesets.chojin_locke.fields import PlanetNumber, SquareNumber
from domain.rulesets.chojin_locke.guards import living, playing, stage
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.setup_events import (
    AmbushBody,
    AmbushPlaced,
    DeckOrder,
    PieceEntered,
    PlanetLayout,
    PlanetsLaid,
    PlanetStageBegun,
)
from domain.rulesets.chojin_locke.turn_events import TurnBegun


def lay_planets(t: ChojinTable) -> list[Draft]:
    """Shuffle the planet deck and the 36 squares; the first N cards go face down on the first
    N squares (N = 36, or 24/18 with 6/5 players), sealed to nobody until turned or the end."""
    state = t.rules
    deck = state.catalog.planet_deck()
    count = planet_card_count(state.seats)
    if len(deck) < count:
        raise KirokuError(
            "catalog_too_small",
            "The catalog has fewer than {count} planet cards.",
            params={"count": count},
        )
    cards = t.dice.shuffle(len(deck))
    squares = t.dice.shuffle(PLANETS * SQUARES)
    layout = {key(*divmod(squares.order[i], SQUARES)): deck[cards.order[i]] for i in range(count)}
    body = PlanetLayout(deck=DeckOrder(draw=cards, deck=tuple(deck)), squares=squares, cards=layout)
    event = PlanetsLaid(cards=count, ambushes=ambush_count(state.seats), secret=body)
    return [Draft(event, audience=())]


@CHOJIN_LOCKE.command("place_ambush")
class PlaceAmbush(Command):
    planet: PlanetNumber
    square: SquareNumber


@CHOJIN_LOCKE.decides(PlaceAmbush)
def place_ambush(t: ChojinTable, command: PlaceAmbush, actor: str) -> list[Draft]:
    number = t.seat_of(actor)
    state = playing(t)
    stage(state, "ambush")
    if living(state, number).side != "base":
        raise RuleViolation("base_players_only", "Only base players place 待ち伏せ.")
    if len(state.board.ambushes) >= ambush_count(state.seats):
        raise RuleViolation("ambushes_placed", "Every 待ち伏せ card is already placed.")
    square = key(command.planet, command.square)
    if square in state.board.ambushes:
        raise RuleViolation("square_taken", "A 待ち伏せ already lies on that square.")
    if square not in state.board.cards:
        # 4.5 (l.739–740): 「既に置かれている惑星カードと交換して配置します」. Which squares hold
        # a face-down card is public (ruling CL-036): saying so tells nothing hidden.
        raise RuleViolation(
            "no_planet_card_there",
            "A 待ち伏せ is exchanged for a planet card already on the board, and {square} has "
            "none. "
            "Squares with a card: {cards}.",
            params={"square": square, "cards": ", ".join(sorted(state.board.cards))},
        )
    base = tuple(seat_actor(s) for s, p in sorted(state.players.items()) if p.side == "base")
    body = AmbushBody(planet=command.planet, square=command.square)
    return [Draft(AmbushPlaced(seat=number, secret=body), audience=base)]


@CHOJIN_LOCKE.command("enter")
class Enter(Command):
    """An explorer puts their piece on a planet's spaceport."""

    planet: PlanetNumber


@CHOJIN_LOCKE.decides(Enter)
def enter(t: ChojinTable, command: Enter, actor: str) -> list[Draft]:
    number = t.seat_of(actor)
    state = playing(t)
    stage(state, "ambush")
    player = living(state, number)
    if player.side != "explorer":
        raise RuleViolation("explorers_only", "Only explorers put a piece on a spaceport.")
    if player.position is not None:
        raise RuleViolation("already_entered", "Your piece is already on the board.")
    return [Draft(PieceEntered(seat=number, planet=command.planet))]


@CHOJIN_LOCKE.command("begin_planets")
class BeginPlanets(Command):
    """Host: roll for the first player and start 惑星編."""


@CHOJIN_LOCKE.decides(BeginPlanets)
def begin(t: ChojinTable, command: BeginPlanets, actor: str) -> list[Draft]:
    t.referee_only(actor, "begin 惑星編")
    state = playing(t)
    stage(state, "ambush")
    if len(state.board.ambushes) < ambush_count(state.seats):
        raise RuleViolation("ambushes_missing", "The base players have not placed every 待ち伏せ.")
    explorers = tuple(s for s, p in sorted(state.players.items()) if p.side == "explorer")
    if any(state.players[s].position is None for s in explorers):
        raise RuleViolation("pieces_missing", "Every explorer must put a piece on a spaceport.")
    draw = t.dice.draw([(1, len(explorers))])
    first = explorers[draw.faces[0] - 1]
    return [
        Draft(PlanetStageBegun(order=explorers, draw=draw, first=first)),
        Draft(TurnBegun(seat=first, number=1)),
    ]
