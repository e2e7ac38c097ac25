"""Browser sessions: a token shown once becomes an HttpOnly cookie, and seats get new links."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response, status
from fastapi import Path as FastPath
from fastapi.security import HTTPAuthorizationCredentials
from pydantic import BaseModel, ConfigDict, Field

from api.deps import Auth, Caller, GameId, Service, Web, bearer
from api.openapi import problems
from api.web import SESSION_MAX_AGE, WebSettings, join_link, session_cookie
from domain.application.service import GameService
from domain.model.audience import GM, HOST, PUBLIC, seat_number
from domain.model.errors import Forbidden, Unauthorized
from domain.model.lifecycle import MAX_SEATS

router = APIRouter(prefix="/games", tags=["sessions"])


class SessionOut(BaseModel):
    game_id: str
    actor: str = Field(description="gm, host, seat:N or public")
    seat: int | None = None
    name: str | None = Field(default=None, description="The seat's name, GM or Host")
    referee: bool = Field(
        default=False,
        description="May start, end, manage seats and make rulings: the GM, or the host "
        "(who may also sit at a seat)",
    )
    host_game: bool = Field(default=False, description="The game has a host, not a GM")


class InviteOut(BaseModel):
    seat: int
    invite: str = Field(description="Single use; shown only here")
    link: str = Field(description="The page that joins with it (the invite in its fragment)")


def _session_out(service: Service, game_id: str, actor: str) -> SessionOut:
    number = seat_number(actor)
    state = service.state(game_id)
    seat = state.seat(number) if number is not None else None
    name = seat.name if seat is not None else {GM: "GM", HOST: "Host"}.get(actor)
    return SessionOut(
        game_id=game_id,
        actor=actor,
        seat=number,
        name=name,
        referee=actor == state.referee,
        host_game=state.host is not None,
    )


def _sign_in(
    request: Request,
    response: Response,
    service: GameService,
    web: WebSettings,
    game_id: str,
    actor: str,
) -> None:
    """Open a browser session for `actor` and set it as this game's HttpOnly, SameSite=Strict
    cookie (the page never holds a token)."""
    response.set_cookie(
        session_cookie(game_id),
        service.open_session(game_id, actor),
        max_age=SESSION_MAX_AGE,
        path="/",
        httponly=True,
        samesite="strict",
        secure=web.secure_cookies(request.url.scheme),
    )


@router.post("/{game_id}/session", status_code=status.HTTP_201_CREATED)
def open_session(
    game_id: GameId,
    request: Request,
    response: Response,
    service: Service,
    auth: Auth,
    web: Web,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> SessionOut:
    """Exchange a seat, GM or host token (as `Authorization: Bearer`) for an HttpOnly,
    SameSite=Strict session cookie for this game, so the page never keeps the token."""
    if credentials is None:
        raise Unauthorized("token_required", "Present your seat or GM token to sign in.")
    actor = auth.audience(game_id, credentials.credentials)
    _sign_in(request, response, service, web, game_id, actor)
    return _session_out(service, game_id, actor)


class RecoverRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    code: str = Field(min_length=1, max_length=100, description="The recovery code")


class RecoveredOut(SessionOut):
    token: str = Field(description="The seat's new token, shown once (the old one is void)")
    link: str = Field(description="The seat's new sign-in page, the token in its fragment")
    recovery_code: str = Field(description="The next recovery code, shown once")


@router.post(
    "/{game_id}/recover", status_code=status.HTTP_201_CREATED, responses=problems(401, 404)
)
def recover(
    game_id: GameId,
    body: RecoverRequest,
    request: Request,
    response: Response,
    service: Service,
    web: Web,
) -> RecoveredOut:
    """The GM (or host) who lost its link gets its seat back with the recovery code shown at
    creation, on any browser: this browser is signed in (an HttpOnly session cookie), the
    seat's old token and every other browser session of it stop working, and a new token and
    the next recovery code are shown once. A code works once (401 invalid_recovery_code).
    Logged as `RecoveryCodeUsed` (who and when, no secret)."""
    actor, token, following = service.recover(game_id, body.code)
    _sign_in(request, response, service, web, game_id, actor)
    link = join_link(web.base(str(request.base_url)), game_id, token=token)
    out = _session_out(service, game_id, actor)
    return RecoveredOut(**out.model_dump(), token=token, link=link, recovery_code=following)


@router.get("/{game_id}/session")
def who_am_i(game_id: GameId, actor: Caller, service: Service) -> SessionOut:
    """Who the caller is at this table (by cookie or token): what the page asks first."""
    return _session_out(service, game_id, actor)


@router.post(
    "/{game_id}/seats/{seat}/invite",
    status_code=status.HTTP_201_CREATED,
    responses=problems(403, 404, 409),
)
def new_invite(
    game_id: GameId,
    seat: Annotated[int, FastPath(ge=1, le=MAX_SEATS, description="The seat's number")],
    request: Request,
    actor: Caller,
    service: Service,
    web: Web,
) -> InviteOut:
    """GM or host: a new single-use invite link for a seat (a lost link, another device). A
    seat may ask for a link to itself. In a game without a referee the host gets links only
    for seats nobody has joined (403 seat_taken): it must never hold a way into a seat's
    secrets."""
    if actor == PUBLIC:
        raise Forbidden("token_required", "Spectators cannot issue invites.")
    invite = service.issue_invite(game_id, actor, seat)
    link = join_link(web.base(str(request.base_url)), game_id, invite=invite)
    return InviteOut(seat=seat, invite=invite, link=link)


@router.post(
    "/{game_id}/seats/{seat}/rotate",
    status_code=status.HTTP_201_CREATED,
    responses=problems(401, 403, 404, 409),
)
def rotate_credentials(
    game_id: GameId,
    seat: Annotated[int, FastPath(ge=1, le=MAX_SEATS, description="The seat's number")],
    request: Request,
    actor: Caller,
    service: Service,
    web: Web,
) -> InviteOut:
    """GM (or a seat for itself; a host for a seat nobody has joined): replace a seat's
    credentials after a link leaked. Its bearer tokens, browser sessions and unused invites
    stop working at once, its open streams end on every server, and this new single-use
    link joins the seat again. Logged as `CredentialsRotated` (who and when, no secret)."""
    if actor == PUBLIC:
        raise Forbidden("token_required", "Spectators cannot replace credentials.")
    invite = service.rotate_credentials(game_id, actor, seat)
    link = join_link(web.base(str(request.base_url)), game_id, invite=invite)
    return InviteOut(seat=seat, invite=invite, link=link)
