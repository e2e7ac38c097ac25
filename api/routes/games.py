"""Games: create, join, and the caller's summary of one."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Request, Response, status

from api.deps import Caller, GameId, Service, Web
from api.openapi import problems
from api.present import head_header
from api.schemas import (
    CreateGameRequest,
    CreateGameResponse,
    GameOut,
    JoinRequest,
    JoinResponse,
    SeatInviteOut,
    SeatOut,
)
from api.web import join_link
from domain.application.service import NewGame
from domain.model.audience import seat_actor
from domain.model.lifecycle import rules_view

router = APIRouter(prefix="/games", tags=["games"])

# A retry with the key is answered with the first attempt's secrets (the creator's token, a
# seat's token) without credentials: the key must be as hard to guess as a token.
SecretIdempotencyKey = Annotated[
    str | None,
    Header(
        min_length=22,
        max_length=200,
        pattern=r"^[\x21-\x7e]+$",
        description="A fresh random value (22 to 200 visible ASCII characters, e.g. a UUID "
        "v4): retrying with the same key and body answers the first result again and appends "
        "nothing; the same key with another body is refused (422 idempotency_key_reused). "
        "Keep it secret: the answer holds tokens.",
    ),
]


@router.post("", status_code=status.HTTP_201_CREATED)
def create_game(
    body: CreateGameRequest,
    request: Request,
    response: Response,
    service: Service,
    web: Web,
    idempotency_key: SecretIdempotencyKey = None,
) -> CreateGameResponse:
    """Create a game. The creator's token (the GM's, or with `referee: host` the host's) and
    the invites are shown only in this response, with a link for each (the secret in the
    link's fragment: `/g/{id}/join#invite=…`)."""
    created = service.create_game(
        NewGame(
            ruleset=body.ruleset,
            title=body.title,
            seat_names=body.seats,
            options=body.options,
            ruleset_options=body.ruleset_options,
            referee=body.referee,
            host_seat=body.host_seat,
            system=body.system,
        ),
        idempotency_key,
    )
    if created.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    base = web.base(str(request.base_url))
    link = join_link(base, created.game_id, token=created.token)
    invites = {s.seat: s.invite for s in created.seats}
    return CreateGameResponse(
        game_id=created.game_id,
        referee="host" if created.host else "gm",
        creator=created.actor,
        gm_token=None if created.host else created.token,
        gm_link=None if created.host else link,
        host_token=created.token if created.host else None,
        host_link=link if created.host else None,
        table_url=f"{base}/g/{created.game_id}",
        recovery_code=created.recovery_code,
        seats=[
            SeatInviteOut(
                seat=seat,
                name=name,
                invite=invites.get(seat),
                link=join_link(base, created.game_id, invite=invites[seat])
                if seat in invites
                else None,  # the seat the host sits at
            )
            for seat, name in enumerate(body.seats, 1)
        ],
    )


@router.post("/{game_id}/join", responses=problems(403, 409))
def join_game(
    game_id: GameId,
    body: JoinRequest,
    service: Service,
    idempotency_key: SecretIdempotencyKey = None,
) -> JoinResponse:
    """Take a seat with its invite (single use). The seat token is shown only here (and to a
    retry with the same Idempotency-Key and body)."""
    seat, token = service.join(game_id, body.invite, body.client_seed, idempotency_key)
    return JoinResponse(seat=seat, actor=seat_actor(seat), token=token)


@router.get("/{game_id}")
def get_game(game_id: GameId, audience: Caller, service: Service, response: Response) -> GameOut:
    state = service.state(game_id)
    response.headers.update(head_header(state))
    return GameOut(
        game_id=state.game_id,
        title=state.title,
        ruleset=state.ruleset,
        status=state.status,
        audience=audience,
        last_seq=state.version,
        head=state.head,
        server_seed_hash=state.server_seed_hash,
        options=state.options,
        referee="gm" if state.host is None else "host",
        host=state.host,
        seats=[SeatOut(seat=s.seat, name=s.name, joined=s.joined) for s in state.seats],
        tabs=list(state.tabs),
        rules=rules_view(state, audience),
        system=state.system,
        bcdice=state.bcdice,
    )
