"""Recorded outcomes of fair draws, and how to find them in any event.

A draw object is any JSON object in an event's public part or sealed body that has the keys
"roll", "seeds" and "entropy": with the revealed server seed its outcome can be recomputed
(see domain/model/fairness.py and docs/reference/verification.md). Rulesets embed these models
wherever they draw, so one verifier checks every game.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, get_args

from pydantic import BaseModel

from domain.model.fairness import Draw, DrawTag


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


def _mentions(annotation: Any, target: type, seen: frozenset[type] = frozenset()) -> bool:
    """Does a type annotation mention `target`, directly or inside nested models?"""
    if isinstance(annotation, type):
        if issubclass(annotation, target):
            return True
        if issubclass(annotation, BaseModel) and annotation not in seen:
            nested = seen | {annotation}
            return any(
                _mentions(f.annotation, target, nested) for f in annotation.model_fields.values()
            )
        return False
    return any(_mentions(arg, target, seen) for arg in get_args(annotation))


_DRAW_FIELDS: dict[type[BaseModel], tuple[str, ...]] = {}


def draw_fields(model: type[BaseModel]) -> tuple[str, ...]:
    """The fields of a model whose types can hold a draw, worked out once per model."""
    fields = _DRAW_FIELDS.get(model)
    if fields is None:
        fields = tuple(
            name for name, f in model.model_fields.items() if _mentions(f.annotation, DrawTag)
        )
        _DRAW_FIELDS[model] = fields
    return fields


def draw_numbers(value: Any) -> Iterator[int]:
    """The numbers of the draws inside a typed value (an event), following only the fields
    whose types can hold one. Folds use this: walking the whole JSON costs a fifth of a fold.
    Verification still finds draws in the JSON (`find_draws`), trusting no type."""
    if isinstance(value, DrawTag):
        yield value.roll
    elif isinstance(value, BaseModel):
        for name in draw_fields(type(value)):
            yield from draw_numbers(getattr(value, name))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from draw_numbers(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from draw_numbers(item)


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
