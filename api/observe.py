"""Observability: Prometheus metrics (`/metrics`, prometheus-client) and structured logs
through the standard `logging` configuration (issue 34, item 6).

Metrics (one process each; with several workers set PROMETHEUS_MULTIPROC_DIR to an empty
folder and `/metrics` sums them, as prometheus-client's multiprocess mode does):

- `kiroku_requests_total{route,method,status}`, `kiroku_request_seconds{route,method}`
- `kiroku_commands_total{ruleset,outcome}` (appended, replayed, refused, error) and
  `kiroku_command_seconds{ruleset}`
- `kiroku_events_appended_total`, `kiroku_append_batch_events` (events an append stored)
- `kiroku_streams_open`, `kiroku_fanout_lag_seconds` (from a notice of new events, local or
  through Redis, to the game's feed having read them for its streams)
- `kiroku_errors_total{kind}` (server errors: an answer of 500 or more, a failed stream read)

Logs: every line has the time, level and logger, and — inside a request — its request id (the
client's `X-Request-ID` if it is sane, else a new one, echoed in the response) and the game;
`seq` where a line is about an event. `KIROKU_LOG_FORMAT=json` makes each line one JSON object.
"""

from __future__ import annotations

import contextvars
import json
import logging
import logging.config
import os
import re
import time
import uuid
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as prometheus_multiprocess
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from domain.application.settings import PublicServerSettings
from domain.model.game import GameState
from domain.model.records import Recorded

REQUESTS = Counter("kiroku_requests_total", "HTTP requests answered", ["route", "method", "status"])
REQUEST_SECONDS = Histogram(
    "kiroku_request_seconds",
    "Time to the start of the answer (a stream: to its head)",
    ["route", "method"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
COMMANDS = Counter("kiroku_commands_total", "Commands by outcome", ["ruleset", "outcome"])
COMMAND_SECONDS = Histogram(
    "kiroku_command_seconds",
    "Command latency, received to answered",
    ["ruleset"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
APPENDED = Counter("kiroku_events_appended_total", "Events stored")
BATCH_EVENTS = Histogram(
    "kiroku_append_batch_events",
    "Events one append stored",
    buckets=(1, 2, 3, 5, 8, 13, 21, 50, 100, 1000),
)
STREAMS_OPEN = Gauge("kiroku_streams_open", "Event streams open now", multiprocess_mode="livesum")
FANOUT_LAG = Histogram(
    "kiroku_fanout_lag_seconds",
    "From a notice of new events to the feed having read them",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
ERRORS = Counter("kiroku_errors_total", "Server errors", ["kind"])

COMMAND_ROUTE = "/games/{game_id}/commands"
REQUEST_ID_HEADER = b"x-request-id"
_SANE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "kiroku_request_id", default=None
)
game_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("kiroku_game_id", default=None)


# ------------------------------------------------------------------------------ metrics


def metrics_response() -> Response:
    """The metrics of this process, or with PROMETHEUS_MULTIPROC_DIR of every worker."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        prometheus_multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        data = generate_latest(registry)
    else:
        data = generate_latest()
    return Response(data, media_type=CONTENT_TYPE_LATEST)


def on_append(state: GameState, records: list[Recorded]) -> None:
    """A service listener: called after every append, in the appending thread."""
    if records:
        APPENDED.inc(len(records))
        BATCH_EVENTS.observe(len(records))


def _route(scope: Scope) -> str:
    """The route's template (bounded labels), or a catch-all for paths that match none."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path
    app = scope.get("app")
    for candidate in getattr(getattr(app, "router", None), "routes", ()):
        match, _ = candidate.matches(scope)
        if match == Match.FULL:
            return str(getattr(candidate, "path", "other"))
    return "other"


def _ruleset(scope: Scope, game: str | None) -> str:
    if game is None:
        return "unknown"
    app = scope.get("app")
    service = getattr(getattr(app, "state", None), "service", None)
    cached = service.games.cached(game) if service is not None else None
    return cached.ruleset if cached is not None else "unknown"


class RequestMetrics:
    """Counts and times every answer; gives each request its id (and the log its game)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        given = dict(scope["headers"]).get(REQUEST_ID_HEADER, b"").decode("latin-1")
        rid = given if _SANE_ID.match(given) else uuid.uuid4().hex[:16]
        rid_token = request_id.set(rid)
        game = _game_of(scope["path"])
        game_token = game_id.set(game)
        status = 500
        replayed = False

        async def send_observed(message: Message) -> None:
            nonlocal status, replayed
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                replayed = any(k.lower() == b"idempotent-replayed" for k, _v in headers)
                message["headers"] = [*headers, (REQUEST_ID_HEADER, rid.encode())]
                REQUEST_SECONDS.labels(_route(scope), scope["method"]).observe(
                    time.perf_counter() - began
                )
            await send(message)

        try:
            await self.app(scope, receive, send_observed)
        finally:
            route = _route(scope)
            REQUESTS.labels(route, scope["method"], str(status)).inc()
            if status >= 500:
                ERRORS.labels("http").inc()
            if route == COMMAND_ROUTE and scope["method"] == "POST":
                ruleset = _ruleset(scope, game)
                COMMANDS.labels(ruleset, _outcome(status, replayed)).inc()
                COMMAND_SECONDS.labels(ruleset).observe(time.perf_counter() - began)
            request_id.reset(rid_token)
            game_id.reset(game_token)


def _outcome(status: int, replayed: bool) -> str:
    if status < 300:
        return "replayed" if replayed else "appended"
    return "error" if status >= 500 else "refused"


_GAME_PATH = re.compile(r"^/(?:games|g)/([0-9a-fA-F-]{36})(?:/|$)")


def _game_of(path: str) -> str | None:
    match = _GAME_PATH.match(path)
    return match.group(1) if match else None


async def metrics_endpoint(_request: Request) -> Response:
    return metrics_response()


# ------------------------------------------------------------------------------ logs


class ContextFilter(logging.Filter):
    """Adds the request id and game of the request a line is logged in (None outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get()
        if not hasattr(record, "game"):
            record.game = game_id.get()
        if not hasattr(record, "seq"):
            record.seq = None
        return True


class TextFormatter(logging.Formatter):
    """`2026-11-28T00:01:02.345Z INFO kiroku.live [req=… game=… seq=…] message`."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s%(context)s %(message)s")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return _utc(record.created)

    def format(self, record: logging.LogRecord) -> str:
        parts = [
            f"{name}={value}"
            for name, value in (
                ("req", getattr(record, "request_id", None)),
                ("game", getattr(record, "game", None)),
                ("seq", getattr(record, "seq", None)),
            )
            if value is not None
        ]
        record.context = f" [{' '.join(parts)}]" if parts else ""
        return super().format(record)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request_id, game, seq, and the
    exception's text when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _utc(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in ("request_id", "game", "seq"):
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def _utc(created: float) -> str:
    seconds = time.gmtime(created)
    return time.strftime("%Y-%m-%dT%H:%M:%S", seconds) + f".{int(created % 1 * 1000):03d}Z"


def log_config(settings: PublicServerSettings) -> dict[str, Any]:
    """A `logging.config.dictConfig` for the server, uvicorn's loggers included (given to
    uvicorn as its `log_config`, so every worker configures itself with it)."""
    formatter = "json" if settings.log_format == "json" else "text"
    handler = {
        "class": "logging.StreamHandler",
        "formatter": formatter,
        "filters": ["context"],
        "stream": "ext://sys.stderr",
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": ContextFilter}},
        "formatters": {"text": {"()": TextFormatter}, "json": {"()": JsonFormatter}},
        "handlers": {"default": handler},
        "root": {"handlers": ["default"], "level": settings.log_level},
        "loggers": {
            "uvicorn": {"handlers": [], "level": settings.log_level, "propagate": True},
            "uvicorn.error": {"handlers": [], "level": settings.log_level, "propagate": True},
            "uvicorn.access": {"handlers": [], "level": "INFO", "propagate": True},
        },
    }


def configure_logging(settings: PublicServerSettings) -> None:
    logging.config.dictConfig(log_config(settings))
