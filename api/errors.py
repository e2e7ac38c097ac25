"""RFC 9457 problem details for every error, each with a stable `code`.

Every answer that is not a success is `application/problem+json`: the domain's refusals, request
validation, the framework's own 404/405 (with `Allow`), bodies that cannot be parsed, and —
should one ever happen — an unexpected error (500 `internal_error`, no traceback shown).
"""

from __future__ import annotations

import logging
from typing import Any

from eventsourcing.persistence import InterfaceError as StoreInterfaceError
from eventsourcing.persistence import OperationalError as StoreOperationalError
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from api.pages import i18n
from domain.adapters.repository import StoreBusy
from domain.dice import DiceError
from domain.model import json_shape
from domain.model.errors import CorruptEvent, KirokuError
from domain.model.messages import N_
from domain.model.text import BLANK_TEXT, FORBIDDEN_CHARACTER

log = logging.getLogger("kiroku.api")

PROBLEM_JSON = "application/problem+json"
OWN_VALIDATION_CODES = json_shape.CODES | {FORBIDDEN_CHARACTER, BLANK_TEXT}
STATUS_BY_KIND = {
    "invalid": 422,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "conflict": 409,
    "corrupt": 500,
    "unavailable": 503,
}
# The framework's statuses and the code each gets.
CODE_BY_STATUS = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


class Problem(BaseModel):
    """An error (RFC 9457). `code` is stable: match on it, not on `detail`."""

    type: str = Field(description="A URI naming the problem: ends in its code")
    title: str
    status: int
    code: str = Field(description="Stable, machine-readable: e.g. gm_only, json_too_deep")
    detail: str = Field(description="For a person to read")
    seq: int | None = Field(default=None, description="corrupt_event: the damaged event")
    errors: list[dict[str, Any]] | None = Field(
        default=None, description="invalid_request: each invalid part (loc, msg, type)"
    )


def problem(
    status: int, code: str, detail: str, headers: dict[str, str] | None = None, **extra: Any
) -> JSONResponse:
    body = Problem(
        type=f"https://kiroku.invalid/problems/{code}",
        title=code.replace("_", " ").capitalize(),
        status=status,
        code=code,
        detail=detail,
        **extra,
    )
    headers = dict(headers or {})
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    return JSONResponse(
        body.model_dump(exclude_none=True), status, media_type=PROBLEM_JSON, headers=headers
    )


def read_in(error: KirokuError, language: str) -> str:
    """A refusal in the caller's language (its cookie, else Accept-Language, else Japanese):
    the message's catalog entry, its arguments read through the catalog too (a referee's
    name, a phrase such as "start the game"); the stable `code` never changes."""
    arguments = {
        name: i18n.gettext(value, language) if isinstance(value, str) else value
        for name, value in error.params.items()
    }
    return i18n.translate(error.template, language, **arguments)


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route answers at this path (Starlette names only the first route's,
    and one path may have several: GET and POST /games/{id}/session)."""
    allowed = []
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] == Match.FULL for route in request.app.router.routes):
            allowed.append(method)
    return allowed


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(KirokuError)
    async def kiroku_error(request: Request, error: KirokuError) -> JSONResponse:
        detail = read_in(error, i18n.language_of(request))
        if isinstance(error, CorruptEvent):
            log.error("game data is damaged: %s", error.message)
            return problem(500, error.code, detail, seq=error.seq)
        if error.kind == "unavailable":
            log.error("the store is unavailable: %s", error.message)
            return problem(503, error.code, detail, headers={"Retry-After": "1"})
        return problem(STATUS_BY_KIND[error.kind], error.code, detail)

    @app.exception_handler(StoreOperationalError)
    @app.exception_handler(StoreInterfaceError)
    async def store_error(request: Request, error: Exception) -> JSONResponse:
        # No connection (refused, none free in time) or the database file locked too long.
        log.error("the store is unavailable: %s", str(error).splitlines()[0] if str(error) else "")
        busy = StoreBusy()
        detail = read_in(busy, i18n.language_of(request))
        return problem(503, busy.code, detail, headers={"Retry-After": "1"})

    @app.exception_handler(DiceError)
    async def dice_error(_: Request, error: DiceError) -> JSONResponse:
        return problem(422, error.code, str(error))

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, error: RequestValidationError) -> JSONResponse:
        # Only location, message and kind: never echo values back into logs or proxies.
        errors = [
            {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
            for e in error.errors()
        ]
        first = errors[0] if errors else {"loc": [], "msg": "invalid request", "type": ""}
        if first["type"] == "union_tag_invalid":
            # pydantic's message names the unknown type and every known one.
            detail = str(first["msg"]).replace("Input tag", "Command type")
            return problem(422, "unknown_command", detail)
        where = ".".join(str(part) for part in first["loc"] if part != "body")
        if first["type"] in OWN_VALIDATION_CODES:
            # Our own refusals (domain/model/json_shape.py, domain/model/text.py) keep their code.
            detail = f"{where}: {first['msg']}" if where else str(first["msg"])
            return problem(422, str(first["type"]), detail, errors=errors)
        return problem(
            422, "invalid_request", f"{where or 'request'}: {first['msg']}", errors=errors
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        status, cause = error.status_code, error.__cause__
        if status == 400 and isinstance(cause, RecursionError):
            # The JSON parser gave up on the nesting before any model saw the body.
            deep = N_("The body is nested too deeply to read; free values may nest {depth} levels.")
            language = i18n.language_of(request)
            detail = i18n.translate(deep, language, depth=json_shape.MAX_DEPTH)
            return problem(422, "json_too_deep", detail)
        if status == 400 and isinstance(cause, UnicodeError):
            not_utf8 = N_("The body is not valid UTF-8 JSON.")
            return problem(
                422, "invalid_request", i18n.gettext(not_utf8, i18n.language_of(request))
            )
        code = CODE_BY_STATUS.get(status, "http_error")
        headers = dict(error.headers or {})
        if status == 405:
            headers["Allow"] = ", ".join(_allowed_methods(request))
        return problem(status, code, str(error.detail), headers=headers)

    @app.exception_handler(Exception)
    async def unexpected_error(request: Request, error: Exception) -> JSONResponse:
        # Starlette logs the traceback; the caller gets a problem, never a stack or a secret.
        wrong = N_("Something went wrong on the server.")
        return problem(500, "internal_error", i18n.gettext(wrong, i18n.language_of(request)))
