"""Recorded ↔ stored JSON text, and sealing a draft into a chained, committed envelope."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from domain.envelope import Envelope, Sealed, commitment, expected_hash, new_salt
from domain.events import event_from_parts
from domain.records import Draft, Recorded, ServerData
from domain.store import EventLog, dumps, record_text


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
    envelope = unhashed.model_copy(update={"hash": expected_hash(unhashed)})
    return Recorded(envelope=envelope, event=draft.event, salt=salt, server=draft.server, body=body)


def encode(recorded: Recorded) -> str:
    data: dict[str, Any] = {"envelope": recorded.envelope.model_dump(mode="json")}
    if recorded.salt is not None:
        data["secret"] = {"salt": recorded.salt, "body": recorded.body}
    if recorded.server is not None:
        data["server"] = recorded.server.model_dump(mode="json", exclude_defaults=True)
    return dumps(data)


def decode(text: str) -> Recorded:
    data = json.loads(text)
    envelope = Envelope.model_validate(data["envelope"])
    secret = data.get("secret")
    body = secret and secret["body"]
    event = event_from_parts(envelope.type, envelope.public, body)
    server = data.get("server")
    return Recorded(
        envelope=envelope,
        event=event,
        salt=secret and secret["salt"],
        server=None if server is None else ServerData.model_validate(server),
        body=body,
    )


def raw_envelope(text: str) -> dict[str, Any]:
    """The envelope exactly as stored, for verification (no model in between)."""
    envelope = json.loads(text)["envelope"]
    if not isinstance(envelope, dict):
        raise ValueError("the stored envelope is not an object")
    return envelope


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


def read_records(
    log: EventLog, game: UUID, after: int = 0, upto: int | None = None
) -> Iterator[Recorded]:
    """A game's records from the store, in order, seq in (after, upto]."""
    for stored in log.recorder.select_events(game, gt=after, lte=upto):
        yield decode(record_text(stored.state))
