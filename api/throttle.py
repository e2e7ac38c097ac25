"""Limits per client (issue 34, item 5), with the `limits` package: game creation and joins
per client address; commands and new stream connections per token (or browser session) and
per address (ADDRESS_FACTOR times the token's, for players sharing one). Over a limit the
answer is 429 problem+json `rate_limited` with `Retry-After`, and nothing is done.

The counts live in Redis when the live fan-out uses it (KIROKU_REDIS_URL: one count for
every worker and instance), else in each worker's memory. A Redis that fails lets requests
through (logged once): limits protect the service, they must not stop it.

The client address is the connection's, or behind a proxy uvicorn trusts (its
--forwarded-allow-ips, 127.0.0.1 by default) the one in its X-Forwarded-For. Settings:
domain/application/settings.py (KIROKU_LIMITS, KIROKU_LIMIT_CREATE, …); defaults there.
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import time
from dataclasses import dataclass
from http.cookies import SimpleCookie

from limits import RateLimitItem, parse_many
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from api.errors import problem, read
from api.pages import i18n
from api.web import session_cookie
from domain.application.settings import ADDRESS_FACTOR, PublicServerSettings
from domain.model.messages import N_

logger = logging.getLogger("kiroku.limits")

_GAME = r"/games/([^/]{1,64})"
KINDS: list[tuple[str, str, re.Pattern[str]]] = [
    ("create", "POST", re.compile(r"^/games/?$")),
    ("join", "POST", re.compile(rf"^{_GAME}/join$")),
    ("command", "POST", re.compile(rf"^{_GAME}/commands$")),
    ("stream", "GET", re.compile(rf"^{_GAME}/stream$")),
]
WHAT = {
    "create": N_("Creating tables"),
    "join": N_("Joining"),
    "command": N_("Commands"),
    "stream": N_("Stream connections"),
}
TOO_MANY = N_("{what} came too often in a short time. Wait about {wait} seconds and try again.")


@dataclass(frozen=True)
class Rule:
    per_credential: list[RateLimitItem]
    per_address: list[RateLimitItem]


def _scaled(items: list[RateLimitItem], factor: int) -> list[RateLimitItem]:
    return [type(item)(item.amount * factor, item.multiples) for item in items]


class Throttle:
    def __init__(
        self,
        app: ASGIApp,
        settings: PublicServerSettings | None = None,
        redis_url: str | None = None,
        prefix: str = "kiroku",
    ) -> None:
        self.app = app
        settings = settings or PublicServerSettings.from_env()
        self.on = settings.limits_on
        self.rules: dict[str, Rule] = {}
        for kind, _method, _path in KINDS:
            items = parse_many(settings.limit(kind))
            if kind in ("command", "stream"):  # a token has its own; an address several
                self.rules[kind] = Rule(items, _scaled(items, ADDRESS_FACTOR))
            else:
                self.rules[kind] = Rule([], items)
        storage = (
            storage_from_string(f"async+{redis_url}", implementation="redispy")
            if redis_url
            else storage_from_string("async+memory://")
        )
        self.limiter = MovingWindowRateLimiter(storage)
        self.prefix = prefix
        self._failing = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.on or scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        found = _kind(scope)
        if found is None:
            await self.app(scope, receive, send)
            return
        kind, game = found
        wait = await self._over(kind, scope, game)
        if wait is None:
            await self.app(scope, receive, send)
            return
        response = problem(
            429,
            "rate_limited",
            read(TOO_MANY, {"what": WHAT[kind], "wait": wait}, i18n.language_of(Request(scope))),
            headers={"Retry-After": str(wait)},
        )
        await response(scope, receive, send)

    async def _over(self, kind: str, scope: Scope, game: str | None) -> int | None:
        """Seconds until the request would be allowed, or None: it is (and it is counted)."""
        rule = self.rules[kind]
        client = scope.get("client")
        address = client[0] if client else "unknown"
        checks = [(item, "address", address) for item in rule.per_address]
        credential = _credential(scope, game)
        if credential is not None:
            checks += [(item, "credential", credential) for item in rule.per_credential]
        try:
            for item, by, who in checks:
                if not await self.limiter.test(item, self.prefix, kind, by, who):
                    stats = await self.limiter.get_window_stats(item, self.prefix, kind, by, who)
                    return max(1, math.ceil(stats.reset_time - time.time()))
            for item, by, who in checks:
                await self.limiter.hit(item, self.prefix, kind, by, who)
        except Exception as error:  # the counts' store failed: let the request through
            if not self._failing:
                logger.warning("rate limits not applied: %s: %s", type(error).__name__, error)
            self._failing = True
            return None
        if self._failing:
            logger.warning("rate limits applied again")
            self._failing = False
        return None


def _kind(scope: Scope) -> tuple[str, str | None] | None:
    for kind, method, pattern in KINDS:
        if scope["method"] == method:
            match = pattern.match(scope["path"])
            if match:
                return kind, match.group(1) if match.groups() else None
    return None


def _credential(scope: Scope, game: str | None) -> str | None:
    """A hash of the bearer token or the game's session cookie the request carries."""
    headers = dict(scope["headers"])
    authorization = headers.get(b"authorization", b"").decode("latin-1").strip()
    scheme, _, token = authorization.partition(" ")
    secret = token.strip() if scheme.lower() == "bearer" else ""
    if not secret and game is not None and b"cookie" in headers:
        cookies = SimpleCookie()
        try:
            cookies.load(headers[b"cookie"].decode("latin-1"))
        except Exception:
            return None
        morsel = cookies.get(session_cookie(game))
        secret = morsel.value if morsel is not None else ""
    if not secret:
        return None
    return hashlib.sha256(secret.encode()).hexdigest()[:32]
