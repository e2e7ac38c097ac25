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


def twin_beside(state: ChojinState, seat: int) -> bool:
    """3.2: a living character with the identical silhouette card on `seat`'s square."""
    me = state.players[seat]
    if me.revealed_silhouette is None:
        return False
    return any(
        other.seat != seat
        and other.alive
        and other.revealed_silhouette == me.revealed_silhouette
        and same_place(state, me, other)
        for other in state.players.values()
    )
