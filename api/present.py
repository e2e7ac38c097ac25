"""An event as an audience may see it, with the line people read: the one output shape of
/events, /commands and /stream."""

from __future__ import annotations

from api.schemas import EventOut
from domain.model.game import GameState
from domain.model.logline import describe
from domain.model.records import Recorded
from domain.model.redaction import Disclosure, redact
from domain.rulesets import ruleset_for

HEAD_HEADER = "Kiroku-Head"


def head_header(state: GameState) -> dict[str, str]:
    """`Kiroku-Head: <seq> <hash>`: the game's last event when the answer was made. A client
    that notes it can later ask `/verify?seq=…&hash=…` whether the log still holds it — the one
    thing the chain cannot show by itself is events deleted from its end."""
    return {HEAD_HEADER: f"{state.version} {state.head}"}


def event_out(state: GameState, recorded: Recorded, audience: str) -> EventOut:
    """Redacted first; the line is described from the redacted event alone, so it can never
    say more than the audience may see."""
    event = redact(recorded, audience, Disclosure.of(state))
    seat_names = {seat.seat: seat.name for seat in state.seats}
    rules = ruleset_for(state.ruleset)
    people = rules.people(state.rules, audience)
    line = describe(event, audience, seat_names, rules.describe, people=people)
    return EventOut(**event, line=line)
