"""The command route's fast lane: `POST /games/{id}/commands` without the framework's glue.

Most commands are a well-formed JSON body from a seat or the GM whose token this process has
already seen. For those, this endpoint reads the body once, validates it exactly as the
declared route would (`json.loads`, then the same model in Python mode), authenticates from
the cached game, hands the command to the service's writer and serializes the answer once —
no dependency solving, no threadpool hop, no re-validation of the reply.

Anything else — no or another Authorization, a cookie session, an unknown token, a body
that does not parse or validate, an over-long key or id — goes to the declared FastAPI route
(`api/routes/commands.py`) with the body replayed, so every error a client can get, and the
OpenAPI document, are that route's. The answers are the same either way
(tests/api/test_lean_route.py compares them).

With affinity (api/affinity.py: PostgreSQL, several workers), a request of the lane's shape
for a game another worker owns is first handed to that worker, which runs it through this
same endpoint, and its answer is relayed; the game's cached state is then only the owner's.
"""

from __future__ import annotations

import asyncio
import json
import re

from pydantic import TypeAdapter, ValidationError
from starlette.datastructures import Headers
from starlette.routing import BaseRoute, Match, Route
from starlette.types import Message, Receive, Scope, Send

from api.affinity import FORWARDED, Affinity
from api.present import event_out, head_header
from api.schemas import CommandBody, CommandResponse
from domain.authentication import hash_token
from domain.commands import Command, Say
from domain.lifecycle import chat_hint
from domain.service import GameService

PATH = "/games/{game_id}/commands"
PASSED = "kiroku.lane_passed"  # set in the scope of a request the lane passed on
COMMAND: TypeAdapter[Command] = TypeAdapter(CommandBody)
MAX_GAME_ID = 64  # as the declared route's path parameter
MAX_KEY = 200  # as the declared route's Idempotency-Key header
_SPACE = re.compile(r"\s")  # str.isspace's characters (sre's Unicode space is the same test)


def _bearer(headers: Headers) -> str | None:
    """The token of a well-formed `Authorization: Bearer <token>`, else None (the declared
    route then answers, refusing a malformed one as it always has)."""
    header = headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or _SPACE.search(token):
        return None
    return token


def _is_json(headers: Headers) -> bool:
    media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return media == "application/json"


class LeanCommands:
    """An ASGI endpoint for the fast lane, falling back to `declared` (the FastAPI route)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await _read_body(receive)
        affinity: Affinity | None = getattr(scope["app"].state, "affinity", None)
        if (
            affinity is not None
            and not scope.get(FORWARDED)  # handed over already: its owner runs it
            and _lane_token(scope) is not None
            and await affinity.hand_over(scope, body, send)
        ):
            return  # another worker owns the game: its answer was relayed
        handled = await self._fast(scope, body, send)
        if not handled:  # route again, past the lane, to the declared route
            await scope["app"].router({**scope, PASSED: True}, _replay(body, receive), send)

    async def _fast(self, scope: Scope, body: bytes, send: Send) -> bool:
        game_id: str = scope["path_params"]["game_id"]
        headers = Headers(scope=scope)
        token = _lane_token(scope, headers)
        if token is None:
            return False
        key = headers.get("idempotency-key")
        service: GameService = scope["app"].state.service
        cached = service.games.cached(game_id)
        if cached is None or hash_token(token) not in cached.credentials:
            return False  # the declared route reads the store (off the event loop)
        # The declared route's own check, answered from the cache without reading.
        actor = scope["app"].state.auth.audience(game_id, token)
        if actor == "public":
            return False
        try:
            command = COMMAND.validate_python(json.loads(body))
        except (ValueError, RecursionError, ValidationError):  # the declared route says why
            return False
        outcome = await asyncio.wrap_future(service.submit(game_id, actor, command, key))
        reply = CommandResponse(
            game_id=game_id,
            last_seq=outcome.last_seq,
            replayed=outcome.replayed,
            events=[event_out(outcome.state, r, actor) for r in outcome.records],
            hint=chat_hint(command.text) if isinstance(command, Say) else None,
        )
        content = reply.__pydantic_serializer__.to_json(reply)
        raw_headers = [
            (b"content-length", str(len(content)).encode()),
            (b"content-type", b"application/json"),
        ]
        if outcome.replayed:
            raw_headers.append((b"idempotent-replayed", b"true"))
        raw_headers += [
            (k.lower().encode(), v.encode()) for k, v in head_header(outcome.state).items()
        ]
        await send({"type": "http.response.start", "status": 201, "headers": raw_headers})
        await send({"type": "http.response.body", "body": content})
        return True


def _lane_token(scope: Scope, headers: Headers | None = None) -> str | None:
    """The Bearer token of a request of the shape the lane takes (JSON, an id and key within
    bounds), else None. Whether it takes it also depends on the game's cached state."""
    headers = headers if headers is not None else Headers(scope=scope)
    key = headers.get("idempotency-key")
    if (
        len(scope["path_params"]["game_id"]) > MAX_GAME_ID
        or (key is not None and len(key) > MAX_KEY)
        or not _is_json(headers)
    ):
        return None
    return _bearer(headers)


async def _read_body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client went away
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body already read, then whatever the client sends next."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


class LaneRoute(Route):
    """The lane's route: it matches only requests the lane has not passed on yet."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope.get(PASSED):
            return Match.NONE, {}
        return super().matches(scope)


def install_lean_commands(routes: list[BaseRoute]) -> None:
    """Put the fast lane in front of every route; the declared command route stays in the
    OpenAPI document and serves everything the lane passes on."""
    routes.insert(0, LaneRoute(PATH, LeanCommands(), methods=["POST"], include_in_schema=False))
