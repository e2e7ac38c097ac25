"""Commands: everything a seat, the GM or the host does in a game is one POST here, for
cookie and bearer callers alike, lean where a table spends its time (body validated once, the
caller from the cached game, the outcome awaited on the loop, the answer serialized once:
docs/explanation/design/store-and-write-path.md item 1).
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Header, Response, status
from starlette.concurrency import run_in_threadpool

from api.deps import Auth, GameId, Presented_, Service
from api.openapi import problems
from api.present import RevealedRecords, event_out, head_header, reveals_any
from api.schemas import CommandBody, CommandResponse
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
    revealed = None
    if reveals_any(outcome.records):  # the events they reveal are read: off the loop
        revealed = await run_in_threadpool(RevealedRecords, service, game_id, outcome.records)
    events = [event_out(outcome.state, r, actor, revealed) for r in outcome.records]
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


async def _outcome(
    service: GameService,
    game_id: str,
    actor: str,
    command: Command,
    key: str | None,
    session: str | None,
) -> Outcome:
    """The command's outcome from the writer, handed to this event loop (no thread waits)."""
    loop = asyncio.get_running_loop()
    waiter: asyncio.Future[Outcome] = loop.create_future()

    def settle(outcome: Outcome | None, error: BaseException | None) -> None:
        if waiter.done():  # the request was cancelled meanwhile
            return
        if error is not None:
            waiter.set_exception(error)
        else:
            waiter.set_result(outcome)  # type: ignore[arg-type]

    def then(outcome: Outcome | None, error: BaseException | None) -> None:  # writer's thread
        if not loop.is_closed():
            loop.call_soon_threadsafe(settle, outcome, error)

    service.send(game_id, actor, command, key, then, session=session)
    return await waiter
