"""The event log as the caller may see it, and its verification."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from api.deps import Caller, GameId, Service
from api.present import event_out
from api.schemas import EventsResponse
from domain.commands import MAX_SEQ
from domain.verification import VerificationReport

router = APIRouter(prefix="/games", tags=["events"])


@router.get("/{game_id}/events")
def list_events(
    game_id: GameId,
    audience: Caller,
    service: Service,
    after: Annotated[int, Query(ge=0, le=MAX_SEQ, description="Only events with seq > after")] = 0,
    limit: Annotated[int, Query(ge=1, le=5000)] = 1000,
) -> EventsResponse:
    state = service.state(game_id)
    upto = min(state.version, after + limit)
    events = [
        event_out(state, recorded, audience)
        for recorded in service.records(game_id, after=after, upto=upto)
    ]
    return EventsResponse(game_id=game_id, audience=audience, last_seq=state.version, events=events)


@router.get("/{game_id}/verify")
def verify_game(game_id: GameId, _audience: Caller, service: Service) -> VerificationReport:
    """Recompute the hash chain; after the end also the seed, every draw and every secret."""
    return service.verify(game_id)
