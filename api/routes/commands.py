"""Commands: everything a seat or the GM does in a game is one POST here."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Response, status

from api.deps import Caller, GameId, Service
from api.openapi import problems
from api.present import event_out, head_header
from api.schemas import CommandBody, CommandResponse
from domain.commands import Say
from domain.errors import Forbidden
from domain.lifecycle import chat_hint

router = APIRouter(prefix="/games", tags=["commands"])


@router.post(
    "/{game_id}/commands", status_code=status.HTTP_201_CREATED, responses=problems(403, 409)
)
def post_command(
    game_id: GameId,
    command: CommandBody,
    actor: Caller,
    service: Service,
    response: Response,
    idempotency_key: Annotated[
        str | None,
        Header(
            max_length=200,
            description="Retrying with the same key returns the first result, appends nothing",
        ),
    ] = None,
) -> CommandResponse:
    """Append what a command decides; the response shows the events as the caller may see them."""
    if actor == "public":
        raise Forbidden("token_required", "Spectators cannot act: present a seat or GM token.")
    outcome = service.execute(game_id, actor, command, idempotency_key)
    if outcome.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers.update(head_header(outcome.state))
    return CommandResponse(
        game_id=game_id,
        last_seq=outcome.last_seq,
        replayed=outcome.replayed,
        events=[event_out(outcome.state, r, actor) for r in outcome.records],
        hint=chat_hint(command.text) if isinstance(command, Say) else None,
    )
