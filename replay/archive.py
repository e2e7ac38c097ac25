"""Self-contained game archives (JSON Lines) for offline audit and for moving a game.

Line 1 is a header; every further line is {"envelope": {...}}, exactly as recorded. An archive
is written only after the end, when every sealed body is public in its Revealed event, so the
archive holds everything needed to verify and audit the game — and no secret that is still
secret.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ValidationError

from domain.model.codec import recorded_from_envelope
from domain.model.envelope import Envelope
from domain.model.errors import KirokuError, RuleViolation
from domain.model.records import Recorded
from domain.model.verification import Unreadable

ARCHIVE_VERSION = 1


class ArchiveHeader(BaseModel):
    kiroku_archive: int = ARCHIVE_VERSION
    game_id: str
    ruleset: str
    ruleset_version: str
    title: str
    events: int
    head: str
    exported_at: str


def export_lines(records: Sequence[Recorded], *, ended: bool = True) -> Iterator[str]:
    """The archive's lines. `ended=False` also writes a game still in play (the session log
    embeds its envelopes: they hold commitments, never a sealed body)."""
    if not records or records[-1].envelope.seq != len(records):
        raise KirokuError("empty_game", "There is nothing to export.")
    if ended and not any(r.envelope.type == "GameEnded" for r in records):
        raise RuleViolation(
            "game_not_ended", "A game is archived after it ends, when every secret is revealed."
        )
    yield archive_header(records[0].envelope, len(records), records[-1].envelope.hash)
    for recorded in records:
        yield envelope_line(recorded)


def archive_header(created: Envelope, events: int, head: str) -> str:
    """The archive's first line, for a game whose first envelope is `created`."""
    return ArchiveHeader(
        game_id=created.game_id,
        ruleset=created.public["ruleset"],
        ruleset_version=created.public["ruleset_version"],
        title=created.public["title"],
        events=events,
        head=head,
        exported_at=datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
    ).model_dump_json()


def envelope_line(recorded: Recorded) -> str:
    """An event's archive line: {"envelope": …} exactly as recorded."""
    return json.dumps(
        {"envelope": recorded.envelope.model_dump(mode="json")},
        ensure_ascii=False,
        separators=(",", ":"),
    )


def read_archive(lines: Iterable[str]) -> tuple[ArchiveHeader, list[dict[str, Any] | Unreadable]]:
    """The header and the envelopes; a line that cannot be read is kept as (seq, why)."""
    iterator = iter(lines)
    try:
        header = ArchiveHeader.model_validate_json(next(iterator))
    except (StopIteration, ValidationError, ValueError):
        raise KirokuError("not_an_archive", "This is not a Kiroku archive (bad header).") from None
    envelopes: list[dict[str, Any] | Unreadable] = []
    for number, line in enumerate(iterator, 1):
        if not line.strip():
            continue
        try:
            envelope = json.loads(line)["envelope"]
            if not isinstance(envelope, dict):
                raise ValueError("not an object")
            envelopes.append(envelope)
        except (ValueError, KeyError, TypeError) as error:
            envelopes.append((number, f"line {number + 1} is not an event: {error}"))
    return header, envelopes


def records_from_envelopes(
    envelopes: list[dict[str, Any]], *, strict: bool = True
) -> list[Recorded]:
    """Full records, sealed bodies attached from their reveals, for folding and auditing.

    Strict (import): a reveal that does not match its commitment refuses the archive.
    Lenient (audit): such a reveal is left off; the verification reports it.
    """
    reveals = {e["public"]["of_seq"]: e["public"] for e in envelopes if e.get("type") == "Revealed"}
    records = []
    for envelope in envelopes:
        reveal = reveals.get(envelope.get("seq"))
        try:
            records.append(recorded_from_envelope(envelope, reveal))
        except (ValueError, KeyError, TypeError):
            if strict:
                raise
            records.append(recorded_from_envelope(envelope, None))
    return records
