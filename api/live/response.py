"""A StreamingResponse for Server-Sent Events that always closes its generator."""

from __future__ import annotations

from collections.abc import AsyncGenerator

from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send


class EventStreamResponse(StreamingResponse):
    media_type = "text/event-stream"

    def __init__(
        self, content: AsyncGenerator[bytes, None], headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(
            content,
            # no-transform and X-Accel-Buffering: proxies must pass each message on at once.
            headers={
                "Cache-Control": "no-cache, no-transform",
                "X-Accel-Buffering": "no",
                **(headers or {}),
            },
        )
        self._generator = content

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            # Starlette abandons the generator when the client goes; closing it here releases
            # the subscription now rather than whenever the generator is collected.
            await self._generator.aclose()
