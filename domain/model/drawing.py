"""Drawing from the game's committed randomness: the one way deciders roll or shuffle.

Each call takes the next draw number; a decider that draws several times in one command
passes increasing numbers (state.draws + 1, + 2, …). Embedding the returned DiceDraw or
ShuffleDraw in an event is what lets evolve count it and verifiers recompute it.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.dice import Expression, RollResult
from domain.model.draws import DiceDraw, ShuffleDraw
from domain.model.fairness import Draw, DrawTag, stream_words
from domain.model.game import GameState


def _tag(state: GameState, number: int, entropy: str) -> DrawTag:
    return DrawTag(roll=number, seeds=state.client_seeds(), entropy=entropy)


def draw_dice(
    state: GameState, requests: Sequence[tuple[int, int]], *, number: int, entropy: str = ""
) -> DiceDraw:
    """Faces for (count, sides) requests, as draw `number` of this game."""
    tag = _tag(state, number, entropy)
    faces = Draw(state.server_seed, state.game_id, tag).faces(requests)
    return DiceDraw(**tag.model_dump(), dice=tuple(requests), faces=faces)


def draw_words(state: GameState, count: int, *, number: int, entropy: str = "") -> list[int]:
    """The first `count` words of draw `number`'s stream, for BCDice's randomizer to draw its
    faces from by `Draw.uniform`'s rule (docs/reference/dice.md, "the protocol")."""
    return stream_words(state.server_seed, state.game_id, _tag(state, number, entropy), count)


def draw_roll(
    state: GameState, expression: Expression, *, number: int, entropy: str = ""
) -> tuple[DiceDraw, RollResult]:
    """Roll a dice expression as draw `number`: each die is drawn from the draw's stream when
    the expression asks for it, so a reroll (`3R6[6]`) draws after the faces it depends on.
    The draw records every request in order; recomputing them from the stream gives the
    faces (docs/reference/verification.md, section 6)."""
    tag = _tag(state, number, entropy)
    stream = Draw(state.server_seed, state.game_id, tag)
    rolled = expression.roll(lambda sides: stream.uniform(sides) + 1)
    requests = tuple((r.count, r.sides) for r in rolled.requests)
    draw = DiceDraw(**tag.model_dump(), dice=requests, faces=rolled.result.faces)
    return draw, rolled.result


def draw_shuffle(state: GameState, items: int, *, number: int, entropy: str = "") -> ShuffleDraw:
    """A permutation of `items` (position i holds original item order[i]), as draw `number`."""
    tag = _tag(state, number, entropy)
    order = Draw(state.server_seed, state.game_id, tag).permutation(items)
    return ShuffleDraw(**tag.model_dump(), shuffle=items, order=order)
