"""SeqMap behaves exactly like an immutable dict of seq → value."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from domain.model.seqmap import SeqMap

operations = st.lists(
    st.tuples(st.sampled_from(["set", "remove"]), st.integers(1, 2000), st.integers()),
    max_size=60,
)


@given(operations)
def test_matches_a_dict_and_never_changes_old_versions(ops: list[tuple[str, int, int]]) -> None:
    current: SeqMap[int] = SeqMap()
    model: dict[int, int] = {}
    history: list[tuple[SeqMap[int], dict[int, int]]] = []
    for op, seq, value in ops:
        history.append((current, dict(model)))
        if op == "set":
            current, model[seq] = current.set(seq, value), value
        else:
            current = current.remove(seq)
            model.pop(seq, None)
        assert current == model and len(current) == len(model)
        assert list(current) == sorted(model)  # iteration in seq order
    for version, snapshot in history:
        assert version == snapshot  # older versions are untouched


class Holder(BaseModel):
    model_config = ConfigDict(frozen=True)
    items: SeqMap[int] = SeqMap()


@given(st.dictionaries(st.integers(1, 10_000), st.integers(), max_size=30))
def test_round_trips_through_pydantic_json(items: dict[int, int]) -> None:
    holder = Holder(items=items)  # type: ignore[arg-type]  # validated into a SeqMap
    assert isinstance(holder.items, SeqMap)
    assert Holder.model_validate_json(holder.model_dump_json()) == holder
    assert holder.model_dump()["items"] == items


@given(st.dictionaries(st.integers(1, 10_000), st.integers(), max_size=30))
def test_from_its_buckets_as_they_are(items: dict[int, int]) -> None:
    """A SeqMap made of its own buckets (as a snapshot's bucket rows are read) is the same
    map and shares them; a bucket holding another bucket's seq, or out of order, is refused."""
    whole = SeqMap(items)
    buckets = dict(whole.bucket_items())
    rebuilt = SeqMap.from_buckets(buckets)
    assert rebuilt == whole and len(rebuilt) == len(whole)
    assert all(b is buckets[k] for k, b in rebuilt.bucket_items())
    if buckets:
        key, bucket = next(iter(buckets.items()))
        stray = {**bucket, (key + 1) << 8: 0}
        with pytest.raises(ValueError):
            SeqMap.from_buckets({**buckets, key: stray})
        if len(bucket) > 1:
            with pytest.raises(ValueError):
                SeqMap.from_buckets({**buckets, key: dict(reversed(bucket.items()))})
