"""The Server-Sent Events wire format (https://html.spec.whatwg.org/#server-sent-events)."""

from __future__ import annotations

from api.present import event_out
from domain.model.game import GameState
from domain.model.records import Recorded
from replay.cursor import Records

HEARTBEAT = b": keep-alive\n\n"


def retry(milliseconds: int) -> bytes:
    """Tells EventSource how long to wait before it reconnects."""
    return f"retry: {milliseconds}\n\n".encode()


def event_message(
    state: GameState, recorded: Recorded, audience: str, revealed: Records | None = None
) -> bytes:
    """One event as `audience` may see it, in the same JSON as an EventOut of /events (a
    reveal, given the `revealed` records, as the line it reveals).

    Compact JSON escapes every CR and LF inside strings, so `data:` stays one line.
    """
    event = event_out(state, recorded, audience, revealed)
    data = event.model_dump_json()
    return f"id: {event.seq}\nevent: {event.type}\ndata: {data}\n\n".encode()
