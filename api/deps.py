"""FastAPI dependencies: the service, and who the caller is in a game."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from api.web import CSRF_HEADER, WebSettings, session_cookie
from domain.application.service import GameService
from domain.model.authentication import Authenticator, Presented
from domain.model.errors import Forbidden, Unauthorized
from projections.runner import ViewRunner


class StrictBearer(HTTPBearer):
    """`Authorization: Bearer <token>`, or no Authorization header at all (a spectator).

    Anything else — another scheme, a missing or malformed token — is refused with 401 rather
    than read as "no token": a client that meant to authenticate must not silently see the
    public log instead."""

    async def __call__(self, request: Request) -> HTTPAuthorizationCredentials | None:  # type: ignore[override]
        header = request.headers.get("Authorization")
        if header is None:
            return None
        scheme, _, token = header.strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token or any(c.isspace() for c in token):
            raise Unauthorized(
                "bad_authorization",
                "The Authorization header must be `Bearer <token>` with your GM, host or seat "
                "token.",
            )
        return HTTPAuthorizationCredentials(scheme="Bearer", credentials=token)


bearer = StrictBearer(
    auto_error=False,
    scheme_name="Bearer",
    description="The GM's or host's token, or a seat token, of this game",
)


# Trivial dependencies are async so FastAPI does not send each through the threadpool.
async def get_service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


Service = Annotated[GameService, Depends(get_service)]


async def get_views(request: Request) -> ViewRunner:
    views: ViewRunner = request.app.state.views
    return views


Views = Annotated[ViewRunner, Depends(get_views)]


async def get_web(request: Request) -> WebSettings:
    web: WebSettings = request.app.state.web
    return web


Web = Annotated[WebSettings, Depends(get_web)]


async def get_authenticator(request: Request) -> Authenticator:
    auth: Authenticator = request.app.state.auth
    return auth


Auth = Annotated[Authenticator, Depends(get_authenticator)]
GameId = Annotated[str, Path(description="The game's id", max_length=64)]


SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


async def presented(
    game_id: GameId,
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Presented:
    """What the caller presents in this game, not checked yet (`caller` checks it).

    A bearer token wins; otherwise a browser's session cookie for *this* game (a cookie of
    another game has another name and is never read here). A cookie alone is sent by the
    browser on its own, so a state-changing request must also carry the custom header that
    only the page's own scripts can add (against cross-site request forgery).
    """
    if credentials is not None:
        return Presented(token=credentials.credentials)
    session = request.cookies.get(session_cookie(game_id))
    if session is not None:
        if request.method not in SAFE_METHODS and request.headers.get(CSRF_HEADER) != "1":
            raise Forbidden(
                "csrf_header_missing",
                "A request signed in by cookie must carry the header {CSRF_HEADER}: 1.",
                params={"CSRF_HEADER": CSRF_HEADER},
            )
        return Presented(session=session)
    return Presented()


Presented_ = Annotated[Presented, Depends(presented)]
"""For the long reads (api/longreads.py), which check it where they read the game."""


def caller(game_id: GameId, auth: Auth, who: Presented_) -> str:
    """The caller's audience in this game: `gm`, `seat:N`, or `public` without credentials.
    (Not async: checking may read the game from the store, off the event loop.)"""
    return auth.identify(game_id, who)


Caller = Annotated[str, Depends(caller)]
