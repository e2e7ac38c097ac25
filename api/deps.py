"""FastAPI dependencies: the service, and who the caller is in a game."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from domain.authentication import Authenticator
from domain.service import GameService
from projections.runner import ViewRunner

bearer = HTTPBearer(auto_error=False, description="The GM token or a seat token of this game")


# Trivial dependencies are async so FastAPI does not send each through the threadpool.
async def get_service(request: Request) -> GameService:
    return request.app.state.service


Service = Annotated[GameService, Depends(get_service)]


async def get_views(request: Request) -> ViewRunner:
    return request.app.state.views


Views = Annotated[ViewRunner, Depends(get_views)]


async def get_authenticator(request: Request) -> Authenticator:
    return request.app.state.auth


Auth = Annotated[Authenticator, Depends(get_authenticator)]
GameId = Annotated[str, Path(description="The game's id", max_length=64)]


def caller(
    game_id: GameId,
    auth: Auth,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> str:
    """The caller's audience in this game: `gm`, `seat:N`, or `public` without a token."""
    token = credentials.credentials if credentials else None
    return auth.audience(game_id, token)


Caller = Annotated[str, Depends(caller)]
