"""The command route's fast lane: `POST /games/{id}/commands` without the framework's glue.

The lane stands in front of the app's middleware and routing (`api/app.KirokuApp`), so the
request a table sends most does not pass through ten layers it does not need; what those
layers would give it, it does itself: the body-size limit (a declared `Content-Length`
within it, else the layers answer), the security headers, and a refusal answered by the
app's own exception handlers.

Most commands are a well-formed JSON body from a seat or the GM whose token this process has
already seen. For those, this endpoint reads the body once, validates it exactly as the
declared route would (`json.loads`, then the same model in Python mode), authenticates from
the cached game, hands the command to the service's writer and serializes the answer once —
no dependency solving, no threadpool hop, no re-validation of the reply.

Anything else — no or another Authorization, a cookie session, an unknown token, a body
that does not parse or validate, an over-long key or id — goes through the middleware to the
declared FastAPI route (`api/routes/commands.py`) with the body replayed, so every error a
client can get, and the OpenAPI document, are that route's. The answers are the same either
way (tests/api/test_lean_route.py compares them).

With affinity (api/affinity.py: PostgreSQL, several workers), a request of the lane's shape
for a game another worker owns is first handed to that worker, which answers it with this
same lane (`LeanCommands.answer`), and its answer is relayed; the game's cached state is then
only the owner's.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import Any

from pydantic import TypeAdapter, ValidationError
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.affinity import FORWARDED, Affinity, Answer, send_answer
from api.limits import MAX_BODY_BYTES
from api.present import event_out, head_header
from api.schemas import CommandBody, CommandResponse
from api.web import secured
from domain.commands import Command, Say
from domain.dice import DiceError
from domain.errors import KirokuError
from domain.lifecycle import chat_hint
from domain.service import GameService, Outcome

log = logging.getLogger(__name__)
PATH = re.compile(r"/games/([^/]+)/commands")  # as the declared route's path
COMMAND: TypeAdapter[Command] = TypeAdapter(CommandBody)
MAX_GAME_ID = 64  # as the declared route's path parameter
MAX_KEY = 200  # as the declared route's Idempotency-Key header
_SPACE = re.compile(r"\s")  # str.isspace's characters (sre's Unicode space is the same test)


def _bearer(headers: dict[bytes, str]) -> str | None:
    """The token of a well-formed `Authorization: Bearer <token>`, else None (the declared
    route then answers, refusing a malformed one as it always has)."""
    header = headers.get(b"authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or _SPACE.search(token):
        return None
    return token


def _is_json(headers: dict[bytes, str]) -> bool:
    media = headers.get(b"content-type", "").split(";", 1)[0].strip().lower()
    return media == "application/json"


def lane_game_id(scope: Scope) -> str | None:
    """The game id of a request to the declared command route, else None."""
    if scope["type"] != "http" or scope["method"] != "POST" or scope.get("root_path"):
        return None
    match = PATH.fullmatch(scope["path"])
    return match.group(1) if match else None


class LeanCommands:
    """The fast lane, falling back to `behind`: the app's middleware, routes and the declared
    route. `handlers`: the app's exception handlers, for the lane's refusals."""

    def __init__(self, behind: ASGIApp, handlers: dict[Any, Any]) -> None:
        self._behind = behind
        self._handlers = handlers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = _headers(scope)
        length = headers.get(b"content-length")
        if length is None or not length.isdigit() or int(length) > MAX_BODY_BYTES:
            await self._behind(scope, receive, send)  # the body-size limit answers
            return
        body = await _read_body(receive)
        affinity: Affinity | None = getattr(scope["app"].state, "affinity", None)
        if (
            affinity is not None
            and not scope.get(FORWARDED)  # handed over already: its owner runs it
            and not affinity.runs_here(scope)
            and _lane_token(scope, headers) is not None
            and await self._hand_over(affinity, scope, body, send)
        ):
            return  # another worker owns the game: its answer was relayed
        answer = await self.answer(scope, body, headers)
        if answer is None:  # through the middleware to the declared route
            await self._behind(scope, _replay(body, receive), send)
            return
        await send_answer(answer, secured(send))

    async def answer(
        self, scope: Scope, body: bytes, headers: dict[bytes, str] | None = None
    ) -> Answer | None:
        """The lane's answer to a command whose body is read — stored, replayed or refused —
        or None: the declared route answers it. Also how an owner answers a command another
        worker handed it (api/affinity.py), without the app's ASGI layers around it."""
        try:
            return await self._fast(scope, headers or _headers(scope), body)
        except Exception as error:
            return await self._refusal(scope, error)

    async def _hand_over(self, affinity: Affinity, scope: Scope, body: bytes, send: Send) -> bool:
        started = False

        def starting(message: Message) -> Any:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            return send(message)

        try:
            return await affinity.hand_over(scope, body, secured(starting))
        except Exception as error:
            if started:
                raise
            answer = await self._refusal(scope, error)
            await send_answer(answer, secured(send))
            return True

    async def _refusal(self, scope: Scope, error: Exception) -> Answer:
        """`error` answered by the app's handler for it, as its middleware would have."""
        handler = next(
            (self._handlers[k] for k in type(error).__mro__ if k in self._handlers), None
        )
        if handler is None:
            raise error
        if not isinstance(error, KirokuError | DiceError):
            log.error("a command on %s failed", scope["path"], exc_info=error)
        response = await handler(Request(scope), error)
        return Answer(response.status_code, response.raw_headers, bytes(response.body))

    async def _fast(self, scope: Scope, headers: dict[bytes, str], body: bytes) -> Answer | None:
        game_id: str = scope["path_params"]["game_id"]
        token = _lane_token(scope, headers)
        if token is None:
            return None
        key = headers.get(b"idempotency-key")
        service: GameService = scope["app"].state.service
        # The declared route's own check, answered from the cache without reading; a token
        # the cached game does not know goes to the declared route, which reads the store.
        actor = scope["app"].state.auth.cached_actor(game_id, token)
        if actor is None:
            return None
        try:
            command = COMMAND.validate_python(json.loads(body))
        except (ValueError, RecursionError, ValidationError):  # the declared route says why
            return None
        outcome = await _outcome(service, game_id, actor, command, key)
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
        return Answer(201, raw_headers, content)


async def _outcome(
    service: GameService, game_id: str, actor: str, command: Command, key: str | None
) -> Outcome:
    """The command's outcome from the writer, handed to this event loop when it is stored (or
    its refusal raised here)."""
    loop = asyncio.get_running_loop()
    waiter: asyncio.Future[Outcome] = loop.create_future()

    def then(outcome: Outcome | None, error: BaseException | None) -> None:  # writer's thread
        if not loop.is_closed():
            loop.call_soon_threadsafe(_settle, waiter, outcome, error)

    service.send(game_id, actor, command, key, then)
    return await waiter


def _settle(
    waiter: asyncio.Future[Outcome], outcome: Outcome | None, error: BaseException | None
) -> None:
    if waiter.done():  # the request was cancelled meanwhile
        return
    if error is not None:
        waiter.set_exception(error)
    else:
        waiter.set_result(outcome)  # type: ignore[arg-type]


def _headers(scope: Scope) -> dict[bytes, str]:
    """The request's headers by lower-case name, the first of each name as Starlette's
    `Headers.get` gives it (ASGI servers send names in lower case)."""
    found: dict[bytes, str] = {}
    for name, value in scope["headers"]:
        if name not in found:
            found[name] = value.decode("latin-1")
    return found


def _lane_token(scope: Scope, headers: dict[bytes, str]) -> str | None:
    """The Bearer token of a request of the shape the lane takes (JSON, an id and key within
    bounds), else None. Whether it takes it also depends on the game's cached state."""
    key = headers.get(b"idempotency-key")
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
