"""The Server-Sent Events wire format (https://html.spec.whatwg.org/#server-sent-events)."""

from __future__ import annotations

from api.present import event_out
from domain.model.game import GameState
from domain.model.records import Recorded

HEARTBEAT = b": keep-alive\n\n"


def retry(milliseconds: int) -> bytes:
    """Tells EventSource how long to wait before it reconnects."""
    return f"retry: {milliseconds}\n\n".encode()


def event_message(state: GameState, recorded: Recorded, audience: str) -> bytes:
    """One event as `audience` may see it, in the same JSON as an EventOut of /events.

    Compact JSON escapes every CR and LF inside strings, so `data:` stays one line.
    """
    event = event_out(state, recorded, audience)
    data = event.model_dump_json()
    return f"id: {event.seq}\nevent: {event.type}\ndata: {data}\n\n".encode()
