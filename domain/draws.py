"""Recorded outcomes of fair draws, and how to find them in any event.

A draw object is any JSON object in an event's public part or sealed body that has the keys
"roll", "seeds" and "entropy": with the revealed server seed its outcome can be recomputed
(see domain/fairness.py and docs/verification.md). Rulesets embed these models wherever they
draw, so one verifier checks every game.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from domain.fairness import Draw, DrawTag


class DiceDraw(DrawTag):
    """Faces drawn for (count, sides) requests."""

    dice: tuple[tuple[int, int], ...]
    faces: tuple[int, ...]


class ShuffleDraw(DrawTag):
    """A permutation of `shuffle` items: position i holds original item order[i]."""

    shuffle: int
    order: tuple[int, ...]


def find_objects(value: Any, *keys: str) -> Iterator[dict[str, Any]]:
    """Every JSON object inside `value` that has all of `keys`, in document order.

    Iterative, because it runs on every fold; draws, rolls and explanations are all found
    this way, wherever a ruleset's event puts them."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if all(key in item for key in keys):
                yield item
            stack.extend(reversed([v for v in item.values() if isinstance(v, dict | list)]))
        elif isinstance(item, list):
            stack.extend(reversed([v for v in item if isinstance(v, dict | list)]))


def find_draws(value: Any) -> Iterator[dict[str, Any]]:
    """Every draw object inside a JSON value."""
    return find_objects(value, "roll", "seeds", "entropy")


def recompute(server_seed: str, game_id: str, draw: dict[str, Any]) -> bool:
    """Does the recorded outcome follow from the seed? False for anything malformed."""
    try:  # ValueError also covers a seed that is not hex
        tag = DrawTag(roll=draw["roll"], seeds=tuple(draw["seeds"]), entropy=draw["entropy"])
        stream = Draw(server_seed, game_id, tag)
        if "faces" in draw:
            dice = [(int(count), int(sides)) for count, sides in draw["dice"]]
            return list(stream.faces(dice)) == list(draw["faces"])
        if "order" in draw:
            return list(stream.permutation(int(draw["shuffle"]))) == list(draw["order"])
    except (KeyError, TypeError, ValueError):
        return False
    return False
