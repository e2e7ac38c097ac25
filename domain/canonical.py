"""Canonical bytes and digests: the one place that decides how JSON becomes hashable bytes."""

from __future__ import annotations

import hashlib
from typing import Any

import rfc8785

from domain.errors import KirokuError


def canonical_json(value: Any) -> bytes:
    """RFC 8785 (JCS) canonical JSON. Events carry no floats, so the encoding is exact."""
    return rfc8785.dumps(value)


def sha256_hex(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def canonical_request(value: Any) -> bytes:
    """Canonical bytes of something a client sent, or a clear refusal.

    RFC 8785 cannot encode integers beyond ±2**53, NaN, infinities or lone surrogates;
    refusing them here keeps them out of the log rather than failing while sealing an event.
    """
    try:
        return canonical_json(value)
    except (rfc8785.CanonicalizationError, UnicodeEncodeError, ValueError, TypeError):
        raise KirokuError(
            "unencodable_json",
            "The request holds a value the log cannot record exactly: numbers must be finite "
            "and between -(2**53 - 1) and 2**53 - 1, and text must be valid Unicode.",
        ) from None
