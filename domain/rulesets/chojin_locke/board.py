"""惑星編's board: 6 planets of 6 squares, each a torus; square 0 is the spaceport."""

from __future__ import annotations

from typing import Literal

from domain.rulesets.chojin_locke.state import ChojinState, Player, Position

SQUARES = 6
PLANETS = 6


def key(planet: int, square: int) -> str:
    return f"{planet}:{square}"


def step(position: Position, direction: Literal["left", "right"], count: int) -> Position:
    """Move `count` squares one way round the planet (the spaceport touches the right end)."""
    delta = count if direction == "right" else -count
    return Position(planet=position.planet, square=(position.square + delta) % SQUARES)


def same_place(state: ChojinState, one: Player, other: Player) -> bool:
    """On the same square: the same planet square, or the same square inside the base (those
    around the base are never on the same square, 4.6)."""
    if state.stage == "base":
        return one.cell is not None and one.cell == other.cell
    return one.position is not None and one.position == other.position


def silhouette_identity(state: ChojinState, seat: int) -> tuple[str, str] | None:
    """3.2 (l.394): silhouettes are identical when 「名前とアライメントの両方が同じ」; 6.1
    (l.1226–1227): while in a party, 「パートナーのシルエットのアライメントはリーダーのシルエット
    のアライメントと同じになります」. None before the silhouette is shown."""
    name = state.players[seat].revealed_silhouette
    if name is None:
        return None
    leader = state.party_of(seat)[0]
    shown = state.players[leader].revealed_silhouette if leader != seat else name
    card = state.catalog.silhouette(shown or name)
    return name, card.alignment if card is not None else ""


def twin_beside(state: ChojinState, seat: int) -> bool:
    """3.2: a living character with the identical silhouette card (name and alignment, a
    partner's alignment being its leader's) on `seat`'s square."""
    me = state.players[seat]
    mine = silhouette_identity(state, seat)
    if mine is None:
        return False
    return any(
        other.seat != seat
        and other.alive
        and silhouette_identity(state, other.seat) == mine
        and same_place(state, me, other)
        for other in state.players.values()
    )
