"""An event as `redact` hands it to `describe`, for tests that read one line."""

from __future__ import annotations

from typing import Any


def redacted(
    type_name: str,
    public: dict[str, Any],
    *,
    seq: int = 5,
    actor: str = "gm",
    secret: dict[str, Any] | None = None,
    sees: bool = True,
) -> dict[str, Any]:
    """The event `type_name` as a reader sees it: its sealed part (sealed to seat 1) given only
    where the reader `sees` it; never revealed."""
    return {
        "seq": seq,
        "type": type_name,
        "actor": actor,
        "public": public,
        "sealed": {"audience": ["seat:1"], "commitment": "0" * 64} if secret else None,
        "secret": secret if sees else None,
        "revealed": False,
    }
