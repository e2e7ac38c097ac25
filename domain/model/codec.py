"""Recorded ↔ stored JSON text, and sealing a draft into a chained, committed envelope.

Pure: text in, models out. Reading rows from the store is domain/adapters/store.py's job.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Json

from domain.model.envelope import Envelope, Sealed, chain_hash, commitment, new_salt
from domain.model.events import event_from_parts
from domain.model.records import Draft, Recorded, ServerData


def dumps(value: Any) -> str:
    """Compact JSON text, non-ASCII kept as is: how records and snapshots are stored."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def seal(draft: Draft, *, game_id: str, seq: int, actor: str, at: str, prev_hash: str) -> Recorded:
    public = draft.event.public_part()
    body = draft.event.secret_part()
    salt = None
    sealed = None
    if body is not None:
        salt = new_salt()
        sealed = Sealed(audience=draft.audience, commitment=commitment(salt, body))
    unhashed = Envelope(
        game_id=game_id,
        seq=seq,
        type=draft.event.type,
        actor=actor,
        at=at,
        public=public,
        sealed=sealed,
        prev_hash=prev_hash,
        hash="",
    )
    hashed = unhashed.hashed_part()
    digest = chain_hash(prev_hash, hashed)
    return Recorded(
        envelope=unhashed.model_copy(update={"hash": digest}),
        event=draft.event,
        salt=salt,
        server=draft.server,
        body=body,
        envelope_json={**hashed, "hash": digest},  # as `model_dump` orders it: hash last
    )


def encode(recorded: Recorded) -> str:
    data: dict[str, Any] = {"envelope": recorded.envelope_dump()}
    if recorded.salt is not None:
        data["secret"] = {"salt": recorded.salt, "body": recorded.body}
    if recorded.server is not None:
        data["server"] = recorded.server.model_dump(mode="json", exclude_defaults=True)
    return dumps(data)


class _StoredSecret(BaseModel):
    salt: str
    body: dict[str, Any]


class _StoredParts(BaseModel):
    """What `encode` writes. Parsed and validated in one pass by pydantic-core, which is about
    a third faster than json.loads then validation: decoding is most of a fold's cost."""

    envelope: Envelope
    secret: _StoredSecret | None = None
    server: ServerData | None = None


class _StoredRow(BaseModel):
    """A StoredRecord's state as the transcoder writes it: plain JSON, no cipher or
    compression."""

    record: Json[_StoredParts]


def _recorded(parts: _StoredParts) -> Recorded:
    envelope, secret = parts.envelope, parts.secret
    body = secret.body if secret is not None else None
    return Recorded(
        envelope=envelope,
        event=event_from_parts(envelope.type, envelope.public, body),
        salt=secret.salt if secret is not None else None,
        server=parts.server,
        body=body,
    )


def pack(recorded: Recorded) -> str:
    """A record as JSON text that `decode` reads back, for keeping in memory (a replay's
    history), never for storing: pydantic writes it from the models, about twice as fast as
    `encode`, but not byte for byte what was hashed."""
    secret = None
    if recorded.salt is not None:
        secret = _StoredSecret(salt=recorded.salt, body=recorded.body or {})
    parts = _StoredParts(envelope=recorded.envelope, secret=secret, server=recorded.server)
    return parts.model_dump_json()


def decode(text: str) -> Recorded:
    return _recorded(_StoredParts.model_validate_json(text))


def decode_stored(state: bytes) -> Recorded:
    """A record straight from its stored row's state."""
    return _recorded(_StoredRow.model_validate_json(state).record)


class _RawParts(BaseModel):
    envelope: dict[str, Any]


class _RawRow(BaseModel):
    record: Json[_RawParts]


def raw_envelope(state: bytes) -> dict[str, Any]:
    """The envelope exactly as stored in a row's state, for verification (no model in between).

    Parsed by the same JSON reader as `decode_stored`, so a row the server could not decode
    (nested beyond the reader's depth, say) is never reported as readable."""
    return _RawRow.model_validate_json(state).record.envelope


def recorded_from_envelope(envelope: dict[str, Any], reveal: dict[str, Any] | None) -> Recorded:
    """A record rebuilt from a published envelope and, for a sealed one, its reveal
    ({"salt", "body"}), as archives carry them. The reveal must match the commitment."""
    parsed = Envelope.model_validate(envelope)
    salt = body = None
    if parsed.sealed is not None and reveal is not None:
        salt, body = reveal["salt"], reveal["body"]
        if commitment(salt, body) != parsed.sealed.commitment:
            raise ValueError(f"the reveal of event {parsed.seq} does not match its commitment")
    event = event_from_parts(parsed.type, parsed.public, body)
    return Recorded(envelope=parsed, event=event, salt=salt, body=body)
