"""惑星編's board: 6 planets of 6 squares, each a torus; square 0 is the spaceport."""

from __future__ import annotations

from typing import Literal

from domain.rulesets.chojin_locke.state import Position

SQUARES = 6
PLANETS = 6


def key(planet: int, square: int) -> str:
    return f"{planet}:{square}"


def step(position: Position, direction: Literal["left", "right"], count: int) -> Position:
    """Move `count` squares one way round the planet (the spaceport touches the right end)."""
    delta = count if direction == "right" else -count
    return Position(planet=position.planet, square=(position.square + delta) % SQUARES)
