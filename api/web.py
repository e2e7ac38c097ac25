"""What the browser side of the app shares: the session cookie, links, security headers."""

from __future__ import annotations

import os
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSRF_HEADER = "X-Kiroku"
SESSION_MAX_AGE = 60 * 60 * 24 * 30  # a campaign's month between sessions
PUBLIC_URL_ENV = "KIROKU_PUBLIC_URL"

# Pages load only the app's own files: no inline script, no CDN, no framing.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
CSP_HEADER = b"content-security-policy"
SECURITY_HEADERS = [
    (CSP_HEADER, CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


def session_cookie(game_id: str) -> str:
    """One cookie per game, so a session of one game is never presented to another."""
    return f"kiroku_{game_id}"


@dataclass(frozen=True)
class WebSettings:
    """Where players reach this server (behind a proxy it is not the address it listens on)."""

    public_url: str | None = None

    @classmethod
    def from_env(cls) -> WebSettings:
        url = os.environ.get(PUBLIC_URL_ENV, "").strip().rstrip("/")
        return cls(public_url=url or None)

    def base(self, request_base: str) -> str:
        return self.public_url or request_base.rstrip("/")

    def secure_cookies(self, request_scheme: str) -> bool:
        if self.public_url is not None:
            return self.public_url.startswith("https://")
        return request_scheme == "https"


def join_link(
    base: str, game_id: str, *, invite: str | None = None, token: str | None = None
) -> str:
    """A link to a seat (by invite) or to the GM's chair (by token). The secret rides in the
    URL fragment, which browsers never send to a server, so no access log ever holds it."""
    secret = f"invite={invite}" if invite is not None else f"token={token}"
    return f"{base}/g/{game_id}/join#{secret}"


# FastAPI's interactive API docs (Swagger UI, ReDoc) run an inline script and load their
# bundles from a CDN: these exact paths get a policy that allows just that, and the other
# headers like every response. Exact: `/docsx` or `/docs/anything` is an ordinary path.
DOCS_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})
DOCS_CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    "font-src 'self' https://fonts.gstatic.com; worker-src 'self' blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


def secured(send: Send, policy: bytes | None = None) -> Send:
    """`send`, with the content security policy (`policy`, else the default) and friends added
    to the response's head."""

    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            # A response with a policy of its own (the session log: its inline style and
            # script allowed by their hashes) keeps it; every other gets the default.
            own = any(name.lower() == CSP_HEADER for name, _value in headers)
            extra = [h for h in SECURITY_HEADERS if not (own and h[0] == CSP_HEADER)]
            if policy is not None and not own:
                extra = [(CSP_HEADER, policy) if h[0] == CSP_HEADER else h for h in extra]
            message["headers"] = [*headers, *extra]
        await send(message)

    return send_with_headers


class SecurityHeaders:
    """Adds the content security policy and friends to every response (the API docs' own
    exact paths get a policy of their own)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._docs_policy = DOCS_CONTENT_SECURITY_POLICY.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = self._docs_policy if scope["path"] in DOCS_PATHS else None
        await self.app(scope, receive, secured(send, policy))
