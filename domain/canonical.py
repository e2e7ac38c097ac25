"""Canonical bytes and digests: the one place that decides how JSON becomes hashable bytes."""

from __future__ import annotations

import hashlib
from typing import Any

import rfc8785


def canonical_json(value: Any) -> bytes:
    """RFC 8785 (JCS) canonical JSON. Events carry no floats, so the encoding is exact."""
    return rfc8785.dumps(value)


def sha256_hex(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()
