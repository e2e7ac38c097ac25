"""canonical_json is RFC 8785 byte for byte, whichever path it takes."""

from __future__ import annotations

from typing import Any

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.model.canonical import canonical_json, canonical_request
from domain.model.errors import KirokuError

# Keys and strings include astral characters, escapes and control characters on purpose.
text = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=["Cs"]))
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | text
    | st.floats(allow_nan=False, allow_infinity=False)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=25,
)


def reference(value: Any) -> bytes | type[Exception]:
    try:
        return rfc8785.dumps(value)
    except Exception as error:
        return type(error)


@settings(max_examples=400)
@given(values)
def test_identical_to_the_reference_implementation(value: Any) -> None:
    expected = reference(value)
    if isinstance(expected, bytes):
        assert canonical_json(value) == expected
    else:
        with pytest.raises(Exception):  # noqa: B017 - whatever rfc8785 refuses, we refuse
            canonical_json(value)


@pytest.mark.parametrize(
    "value",
    [{"\U0001f600": 1, "\uffff": 2, "a": 3}, {"n": 2**53 - 1}, {"x": 1.0}, ["\x00\x1f\x7f\u2028"]],
)
def test_edge_cases_match(value: Any) -> None:
    assert canonical_json(value) == rfc8785.dumps(value)


@pytest.mark.parametrize("value", [{"n": 2**53}, {"x": float("nan")}, ["\ud800"]])
def test_requests_that_cannot_be_recorded_exactly_are_refused(value: Any) -> None:
    with pytest.raises(KirokuError) as error:
        canonical_request(value)
    assert error.value.code == "unencodable_json"
