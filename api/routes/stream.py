"""The caller's events, live, as Server-Sent Events."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Request
from starlette.concurrency import run_in_threadpool

from api.deps import Caller, GameId, Presented_, Service
from api.live import Live
from api.live.response import EventStreamResponse
from api.present import head_header
from api.routes.events import beyond_the_game
from domain.model.errors import KirokuError, Unauthorized
from domain.model.game import GameState

router = APIRouter(prefix="/games", tags=["events"])

MAX_SEQ_DIGITS = 12


def _resume_point(last_event_id: str | None, after: int) -> int:
    # EventSource sends Last-Event-ID on its own reconnects, and it is newer than the `after`
    # still in the URL it was opened with: the header wins.
    if last_event_id is None or not last_event_id.strip():
        return after
    value = last_event_id.strip()
    if not value.isdigit() or len(value) > MAX_SEQ_DIGITS:
        raise KirokuError("invalid_last_event_id", "Last-Event-ID must be an event's seq.")
    return int(value)


@router.get(
    "/{game_id}/stream",
    response_class=EventStreamResponse,
    status_code=200,  # stated: FastAPI cannot infer it from this response class
    responses={200: {"content": {"text/event-stream": {}}, "description": "An event stream"}},
)
async def stream_events(
    game_id: GameId,
    audience: Caller,
    presented: Presented_,
    service: Service,
    request: Request,
    last_event_id: Annotated[
        str | None,
        Header(
            max_length=40,
            pattern=r"^[0-9]{0,12}$",
            description="Resume after this seq (EventSource sets it)",
        ),
    ] = None,
    after: Annotated[
        int, Query(ge=0, lt=10**MAX_SEQ_DIGITS, description="Resume after this seq")
    ] = 0,
) -> EventStreamResponse:
    """Every event after the resume point as the caller may see it, then each new one live.

    Each message has `id: <seq>`, `event: <type>` and `data: <the event as in /events>`;
    comment lines keep an idle stream open.
    """
    live: Live = request.app.state.live
    resume = _resume_point(last_event_id, after)
    # Whatever keeps the game from being read (a damaged event) is answered now, as a problem,
    # rather than after the stream has started with 200.
    state = await run_in_threadpool(service.state, game_id)
    beyond_the_game(state, resume)
    if not presented.still_valid(state, audience):  # revoked since it was checked
        raise Unauthorized("bad_token", "These credentials are no longer valid for this game.")

    def allowed(now: GameState) -> bool:
        return presented.still_valid(now, audience)

    return EventStreamResponse(live.stream(game_id, audience, resume, allowed), head_header(state))
