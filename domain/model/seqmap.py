"""An immutable map from seq to value that shares structure between versions.

Game states are immutable and evolve one event at a time; a plain dict of every sealed
secret would be copied whole on each sealed event (and held whole by every replay
checkpoint). SeqMap keeps values in buckets of 256 consecutive seqs: a new version copies
the bucket index and one bucket, and shares every other bucket with the old version.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Generic, TypeVar

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

V = TypeVar("V")
_SHIFT = 8  # 256 seqs per bucket


class SeqMap(Mapping[int, V], Generic[V]):
    __slots__ = ("_buckets", "_len")

    def __init__(self, items: Mapping[int, V] | None = None) -> None:
        buckets: dict[int, dict[int, V]] = {}
        for seq, value in sorted((items or {}).items()):
            buckets.setdefault(seq >> _SHIFT, {})[seq] = value
        self._buckets = buckets
        self._len = sum(len(b) for b in buckets.values())

    @classmethod
    def from_buckets(cls, buckets: dict[int, dict[int, V]]) -> SeqMap[V]:
        """A map of these buckets (key: their seqs >> 8), taken as they are, not copied: each
        must hold only its own seqs, in order (ValueError otherwise)."""
        for key, bucket in buckets.items():
            seqs = list(bucket)
            if not seqs or seqs != sorted(seqs) or {seq >> _SHIFT for seq in seqs} != {key}:
                raise ValueError(f"bucket {key} holds seqs of another bucket, or none")
        return cls._of(dict(sorted(buckets.items())), sum(len(b) for b in buckets.values()))

    @classmethod
    def _of(cls, buckets: dict[int, dict[int, V]], length: int) -> SeqMap[V]:
        new: SeqMap[V] = cls.__new__(cls)
        new._buckets = buckets
        new._len = length
        return new

    def set(self, seq: int, value: V) -> SeqMap[V]:
        key = seq >> _SHIFT
        bucket = self._buckets.get(key, {})
        grown = 0 if seq in bucket else 1
        updated = {**bucket, seq: value}
        if grown and bucket and seq < next(reversed(bucket)):
            updated = dict(sorted(updated.items()))  # keep seq order (appends never need it)
        return self._of({**self._buckets, key: updated}, self._len + grown)

    def remove(self, seq: int) -> SeqMap[V]:
        key = seq >> _SHIFT
        bucket = self._buckets.get(key)
        if bucket is None or seq not in bucket:
            return self
        buckets = dict(self._buckets)
        rest = {k: v for k, v in bucket.items() if k != seq}
        if rest:
            buckets[key] = rest
        else:
            del buckets[key]
        return self._of(buckets, self._len - 1)

    def bucket_items(self) -> list[tuple[int, dict[int, V]]]:
        """The buckets in seq order, each with its key (its seqs >> 8): each bucket is shared,
        unchanged, by every later version that did not touch its seqs (the same object), so
        what is derived from one can be kept."""
        return [(key, self._buckets[key]) for key in sorted(self._buckets)]

    def __getitem__(self, seq: int) -> V:
        return self._buckets[seq >> _SHIFT][seq]

    def __contains__(self, seq: object) -> bool:
        return isinstance(seq, int) and seq in self._buckets.get(seq >> _SHIFT, ())

    def __iter__(self) -> Iterator[int]:
        for key in sorted(self._buckets):
            yield from self._buckets[key]

    def __len__(self) -> int:
        return self._len

    def __repr__(self) -> str:
        return f"SeqMap({dict(self.items())!r})"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> Any:
        """Validated and serialised as a dict {seq: value}; equal to any mapping alike."""
        args = getattr(source, "__args__", None)
        value_schema = handler.generate_schema(args[0]) if args else core_schema.any_schema()
        as_dict = core_schema.dict_schema(core_schema.int_schema(), value_schema)

        def validate(value: Any) -> SeqMap[Any]:
            return value if isinstance(value, SeqMap) else SeqMap(value)

        return core_schema.no_info_after_validator_function(
            validate,
            core_schema.union_schema([core_schema.is_instance_schema(SeqMap), as_dict]),
            # A plain dict, serialised by pydantic's own dict schema (no per-item Python calls).
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda m: dict(m.items()), return_schema=as_dict
            ),
        )
