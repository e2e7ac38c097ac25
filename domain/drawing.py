"""Drawing from the game's committed randomness: the one way deciders roll or shuffle.

Each call takes the next draw number; a decider that draws several times in one command
passes increasing numbers (state.draws + 1, + 2, …). Embedding the returned DiceDraw or
ShuffleDraw in an event is what lets evolve count it and verifiers recompute it.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.draws import DiceDraw, ShuffleDraw
from domain.fairness import Draw, DrawTag
from domain.game import GameState


def _tag(state: GameState, number: int, entropy: str) -> DrawTag:
    return DrawTag(roll=number, seeds=state.client_seeds(), entropy=entropy)


def draw_dice(
    state: GameState, requests: Sequence[tuple[int, int]], *, number: int, entropy: str = ""
) -> DiceDraw:
    """Faces for (count, sides) requests, as draw `number` of this game."""
    tag = _tag(state, number, entropy)
    faces = Draw(state.server_seed, state.game_id, tag).faces(requests)
    return DiceDraw(**tag.model_dump(), dice=tuple(requests), faces=faces)


def draw_shuffle(state: GameState, items: int, *, number: int, entropy: str = "") -> ShuffleDraw:
    """A permutation of `items` (position i holds original item order[i]), as draw `number`."""
    tag = _tag(state, number, entropy)
    order = Draw(state.server_seed, state.game_id, tag).permutation(items)
    return ShuffleDraw(**tag.model_dump(), shuffle=items, order=order)
