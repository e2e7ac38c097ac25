"""The event envelope and its hash chain (DESIGN.md, "The event").

hash = sha256( prev_hash ‖ JCS(envelope without `hash`) ), where prev_hash is the lowercase hex
string of the previous event's hash, taken as ASCII bytes. The first event's prev_hash is
`genesis_hash(game_id)`. A sealed secret enters the chain only through its commitment:
commitment = sha256( salt ‖ JCS(secret body) ), salt being a 64-character hex string taken as
ASCII bytes. docs/reference/verification.md states the same for independent verifiers.
"""

from __future__ import annotations

import secrets
from typing import Any

from pydantic import BaseModel, ConfigDict

from domain.model.canonical import canonical_json, sha256_hex

GENESIS_PREFIX = "kiroku/genesis/v1:"


class Sealed(BaseModel):
    """The public trace of a secret: who may see it, and what it must hash to."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    audience: tuple[str, ...]
    commitment: str


class Envelope(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    game_id: str
    seq: int
    type: str
    actor: str
    at: str
    public: dict[str, Any]
    sealed: Sealed | None = None
    prev_hash: str
    hash: str

    def hashed_part(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"hash"})


def genesis_hash(game_id: str) -> str:
    return sha256_hex(GENESIS_PREFIX + game_id)


def chain_hash(prev_hash: str, unhashed: dict[str, Any]) -> str:
    return sha256_hex(prev_hash.encode("ascii") + canonical_json(unhashed))


def new_salt() -> str:
    return secrets.token_hex(32)


def commitment(salt: str, body: dict[str, Any]) -> str:
    return sha256_hex(salt.encode("ascii") + canonical_json(body))
