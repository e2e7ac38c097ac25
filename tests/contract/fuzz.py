"""Random command bodies for any ruleset, built from its command models alone.

Every free string a command carries is a fresh marker (or a string the actor has already
seen), so whatever a secret is made of can be traced byte for byte. Numbers respect the
fields' bounds; literals, booleans, nested models and lists follow their annotations.
"""

from __future__ import annotations

import random
import types
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from domain.model.commands import Command

MARKER = "mk"


class Vocabulary:
    """What an actor has seen: strings and small numbers."""

    def __init__(self) -> None:
        self.strings: list[str] = []
        self.numbers: list[int] = [0, 1, 2, 3]
        self._seen: set[str | int] = set()

    def only(self, keep: Callable[[str], bool]) -> Vocabulary:
        """The same numbers, and only the strings `keep` accepts (an actor types public
        strings and markers, so whatever secret turns up in a byte was put there by rules)."""
        kept = Vocabulary()
        kept.numbers = self.numbers
        kept.strings = [s for s in self.strings if keep(s)]
        return kept

    def learn(self, value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                self.learn(item)
        elif isinstance(value, list):
            for item in value:
                self.learn(item)
        elif isinstance(value, str) and 0 < len(value) <= 60 and value not in self._seen:
            self._seen.add(value)
            self.strings.append(value)
            if value.isdigit() and len(value) < 4:
                self.learn(int(value))
        elif isinstance(value, int) and not isinstance(value, bool) and value not in self._seen:
            self._seen.add(value)
            if -20 <= value <= 400:
                self.numbers.append(value)


class Fuzzer:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.markers: list[str] = []

    def marker(self, room: int = 40) -> str:
        text = f"{MARKER}{self.rng.getrandbits(40):010x}"[: max(room, 4)]
        self.markers.append(text)
        return text

    def body(self, command: type[Command], vocabulary: Vocabulary) -> dict[str, Any]:
        return self._model(command, vocabulary, 0)

    def _model(self, model: type[BaseModel], vocabulary: Vocabulary, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, field in model.model_fields.items():
            if name == "type":
                out[name] = field.default
                continue
            if not field.is_required() and self.rng.random() < 0.4:
                continue  # its default
            out[name] = self._value(field.annotation, field, vocabulary, depth)
        return out

    def _value(
        self, annotation: Any, field: FieldInfo | None, vocabulary: Vocabulary, depth: int
    ) -> Any:
        rng = self.rng
        origin, args = get_origin(annotation), get_args(annotation)
        metadata: Sequence[Any] = field.metadata if field is not None else ()
        if origin is Annotated:
            return self._value(args[0], _with_metadata(field, args[1:]), vocabulary, depth)
        if origin is Literal:
            return rng.choice(args)
        if origin in (Union, types.UnionType):
            options = [a for a in args if a is not type(None)]
            if len(options) < len(args) and rng.random() < 0.3:
                return None
            return self._value(rng.choice(options), field, vocabulary, depth)
        if annotation is bool:
            return rng.random() < 0.5
        if annotation is int:
            low, high = _bounds(metadata, -3, 12)
            if vocabulary.numbers and rng.random() < 0.5:
                known = [n for n in vocabulary.numbers if low <= n <= high]
                if known:
                    return rng.choice(known)
            return rng.randint(low, min(high, low + 12))
        if annotation is str:
            longest = _length(metadata)[1]
            examples = field.examples if field is not None else None
            if examples and rng.random() < 0.4:
                return rng.choice(examples)
            if _pattern(field) is None and vocabulary.strings and rng.random() < 0.5:
                fits = [s for s in vocabulary.strings if len(s) <= longest]
                if fits:
                    return rng.choice(fits)
            return self.marker(longest)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return self._model(annotation, vocabulary, depth + 1)
        if origin in (list, tuple) or origin is Sequence:
            shortest, longest = _length(metadata)
            item = args[0] if args else int
            count = rng.randint(shortest, max(shortest, min(longest, 3 if depth < 2 else 1)))
            return [self._value(item, None, vocabulary, depth + 1) for _ in range(count)]
        if origin is dict:
            if rng.random() < 0.6:
                return {}
            key = rng.choice(vocabulary.strings) if vocabulary.strings else self.marker()
            return {key: self._value(args[1], None, vocabulary, depth + 1)}
        return None  # Any and the like: the field's validation decides


def _with_metadata(field: FieldInfo | None, extra: Sequence[Any]) -> FieldInfo:
    info = FieldInfo()
    info.metadata = [*(field.metadata if field is not None else ()), *extra]
    return info


def _bounds(metadata: Sequence[Any], low: int, high: int) -> tuple[int, int]:
    for item in metadata:
        if isinstance(item, annotated_types.Ge):
            low = int(item.ge)  # type: ignore[call-overload]
        elif isinstance(item, annotated_types.Gt):
            low = int(item.gt) + 1  # type: ignore[call-overload]
        elif isinstance(item, annotated_types.Le):
            high = int(item.le)  # type: ignore[call-overload]
        elif isinstance(item, annotated_types.Lt):
            high = int(item.lt) - 1  # type: ignore[call-overload]
    return low, max(low, high)


def _length(metadata: Sequence[Any]) -> tuple[int, int]:
    shortest, longest = 0, 40
    for item in metadata:
        if isinstance(item, annotated_types.MinLen):
            shortest = item.min_length
        elif isinstance(item, annotated_types.MaxLen):
            longest = item.max_length
    return shortest, max(shortest, longest)


def _pattern(field: FieldInfo | None) -> str | None:
    for item in field.metadata if field is not None else ():
        pattern = getattr(item, "pattern", None)
        if isinstance(pattern, str):
            return pattern
    return None
