"""Refuse oversized request bodies before anything parses them, declared or chunked."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import problem
from api.pages import i18n
from domain.model.messages import N_

TOO_LARGE = N_("Request bodies are limited to {limit} bytes.")

MAX_BODY_BYTES = 64 * 1024


class BodyTooLarge(HTTPException):
    """Raised while the body is read. An HTTPException, so FastAPI passes it on as it is (any
    other error while reading becomes its generic 400) and the handler answers 413."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, f"Request bodies are limited to {max_bytes} bytes.")


class BodySizeLimit:
    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(scope, receive, send)
            return
        seen = 0

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return message

        try:
            await self.app(scope, counting_receive, send)
        except BodyTooLarge:  # read outside a route's handler (nothing answered it yet)
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        language = i18n.language_of(Request(scope))
        detail = i18n.translate(TOO_LARGE, language, limit=self.max_bytes)
        response = problem(413, "payload_too_large", detail)
        await response(scope, receive, send)
