"""One browser context per audience, and everything that context received.

`Seat.received()` is every byte the context got from the server: each HTTP response body and
each Server-Sent Events message (through the DevTools protocol, since a stream's body never
ends), plus its DOM. Leak checks search all of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Audience:
    name: str
    context: Any
    page: Any
    responses: list[Any] = field(default_factory=list)
    stream_messages: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @classmethod
    def open(cls, browser: Any, name: str, **context_options: Any) -> Audience:
        # English unless a test asks for Japanese (the pages' default): the older tests read
        # the English chrome.
        context = browser.new_context(**{"locale": "en-US", **context_options})
        page = context.new_page()
        audience = cls(name=name, context=context, page=page)
        page.on("response", lambda response: audience.responses.append(response))
        page.on("pageerror", lambda error: audience.errors.append(str(error)))
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on(
            "Network.eventSourceMessageReceived",
            lambda message: audience.stream_messages.append(message["data"]),
        )
        return audience

    def received(self) -> str:
        """Every response body (streams as their messages) and the DOM, as one text."""
        parts = [self.page.content(), *self.stream_messages]
        for response in self.responses:
            if "text/event-stream" in (response.headers.get("content-type") or ""):
                continue
            try:
                parts.append(response.body().decode("utf-8", "replace"))
            except Exception:  # a redirect or an aborted request has no body
                continue
        return "\n".join(parts)

    def log_text(self) -> str:
        return self.page.inner_text("#log")

    def close(self) -> None:
        self.context.close()
