"""A ruleset's view as JSON, read back with types: what `Ruleset.glances` reads (the terminal
replay has the view an audience had as JSON, not the ruleset's model). A value the audience
may not see is absent or null in that JSON, so every reader here answers None (or nothing) for
it rather than failing."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class Glimpse:
    """One JSON object of a view, by key."""

    def __init__(self, data: Mapping[str, Any] | None) -> None:
        self._data: Mapping[str, Any] = data if isinstance(data, Mapping) else {}

    def __bool__(self) -> bool:
        return bool(self._data)

    def part(self, key: str) -> Glimpse:
        """The object under `key` (empty: falsy, if absent or not an object)."""
        return Glimpse(self._data.get(key))

    def parts(self, key: str) -> list[Glimpse]:
        """The objects listed under `key`, or the values of the object under it."""
        value = self._data.get(key)
        if isinstance(value, Mapping):
            value = list(value.values())
        if not isinstance(value, list | tuple):
            return []
        return [Glimpse(item) for item in value if isinstance(item, Mapping)]

    def by_id(self, key: str) -> dict[str, Glimpse]:
        """The objects under `key` (an object of objects), by their keys."""
        value = self._data.get(key)
        if not isinstance(value, Mapping):
            return {}
        return {str(k): Glimpse(v) for k, v in value.items() if isinstance(v, Mapping)}

    def text(self, key: str) -> str | None:
        value = self._data.get(key)
        return value if isinstance(value, str) else None

    def number(self, key: str) -> int | None:
        value = self._data.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def flag(self, key: str) -> bool:
        return self._data.get(key) is True

    def texts(self, key: str) -> list[str]:
        value = self._data.get(key)
        return [v for v in value if isinstance(v, str)] if isinstance(value, list | tuple) else []

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)
