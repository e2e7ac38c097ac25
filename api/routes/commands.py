"""Commands: everything a seat, the GM or the host does in a game is one POST here.

One route for every caller — a page signed in by its session cookie, an API client by its
bearer token — declared like every other (the OpenAPI document shows its body, answers and
errors), and lean where a table spends its time:

- the body is read once and validated once (FastAPI's body parameter);
- the caller is known from the game's cached state when it knows the token or session: no
  store read, no thread. A session is checked again by the writer on the state the command is
  decided on, so a session revoked by another instance a moment ago never acts;
- the command goes to the process's writer and the request waits on its event loop for the
  outcome (no thread waits);
- the answer is serialized once, from the model, and not validated again.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Header, Response, status
from starlette.concurrency import run_in_threadpool

from api.deps import Auth, GameId, Presented_, Service
from api.openapi import problems
from api.present import RevealedRecords, event_out, head_header, reveals_any
from api.schemas import CommandBody, CommandResponse, EventOut
from domain.application.service import GameService, Outcome
from domain.model.authentication import hash_token
from domain.model.commands import Command, Say
from domain.model.errors import Forbidden
from domain.model.lifecycle import chat_hint

router = APIRouter(prefix="/games", tags=["commands"])


@router.post(
    "/{game_id}/commands",
    status_code=status.HTTP_201_CREATED,
    response_model=CommandResponse,
    responses=problems(403, 409),
)
async def post_command(
    game_id: GameId,
    command: CommandBody,
    who: Presented_,
    auth: Auth,
    service: Service,
    idempotency_key: Annotated[
        str | None,
        Header(
            max_length=200,
            description="Retrying with the same key returns the first result, appends nothing",
        ),
    ] = None,
) -> Response:
    """Append what a command decides; the response shows the events as the caller may see them."""
    actor = auth.cached_identity(game_id, who)
    if actor is None:  # not cached, or not known there: checked on the store, off the loop
        actor = await run_in_threadpool(auth.identify, game_id, who)
    if actor == "public":
        raise Forbidden("token_required", "Spectators cannot act: present a seat or GM token.")
    session = hash_token(who.session) if who.token is None and who.session else None
    outcome = await _outcome(service, game_id, actor, command, idempotency_key, session)
    if reveals_any(outcome.records):  # the events they reveal are read: off the loop
        events = await run_in_threadpool(_events_out, service, game_id, outcome, actor)
    else:
        events = _events_out(None, game_id, outcome, actor)
    reply = CommandResponse(
        game_id=game_id,
        last_seq=outcome.last_seq,
        replayed=outcome.replayed,
        events=events,
        hint=chat_hint(command.text) if isinstance(command, Say) else None,
    )
    headers = head_header(outcome.state)
    if outcome.replayed:
        headers["Idempotent-Replayed"] = "true"
    return Response(
        reply.__pydantic_serializer__.to_json(reply),
        status_code=status.HTTP_201_CREATED,
        media_type="application/json",
        headers=headers,
    )


def _events_out(
    service: GameService | None, game_id: str, outcome: Outcome, actor: str
) -> list[EventOut]:
    """The outcome's events as the actor may see them; given the service, a reveal reads as
    the line it reveals (blocking: it reads those events)."""
    records = outcome.records
    revealed = None if service is None else RevealedRecords(service, game_id, records)
    return [event_out(outcome.state, r, actor, revealed) for r in records]


async def _outcome(
    service: GameService,
    game_id: str,
    actor: str,
    command: Command,
    key: str | None,
    session: str | None,
) -> Outcome:
    """The command's outcome from the writer, handed to this event loop once it is stored (or
    its refusal raised here)."""
    loop = asyncio.get_running_loop()
    waiter: asyncio.Future[Outcome] = loop.create_future()

    def then(outcome: Outcome | None, error: BaseException | None) -> None:  # writer's thread
        if not loop.is_closed():
            loop.call_soon_threadsafe(_settle, waiter, outcome, error)

    service.send(game_id, actor, command, key, then, session=session)
    return await waiter


def _settle(
    waiter: asyncio.Future[Outcome], outcome: Outcome | None, error: BaseException | None
) -> None:
    if waiter.done():  # the request was cancelled meanwhile
        return
    if error is not None:
        waiter.set_exception(error)
    else:
        assert outcome is not None
        waiter.set_result(outcome)
