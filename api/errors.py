"""RFC 9457 problem details for every error, each with a stable `code`.

Every answer that is not a success is `application/problem+json`: the domain's refusals, request
validation, the framework's own 404/405 (with `Allow`), bodies that cannot be parsed, and —
should one ever happen — an unexpected error (500 `internal_error`, no traceback shown).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Final

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
from domain.model import json_shape, messages
from domain.model.commands import Command
from domain.model.errors import CorruptEvent, KirokuError
from domain.model.messages import N_, Invalid, Message
from domain.model.text import BLANK_TEXT, FORBIDDEN_CHARACTER
from domain.rulesets import form_hints

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
    return read(error.template, error.params, language)


def read(key: str, params: Mapping[str, object], language: str) -> str:
    """A catalog key with its arguments in `language`: an argument that is itself a `Message`
    or a `Term` (a catalog key the message declares as one: a phase, a condition, `N_("…")`)
    is read in `language` too; numbers and any other text — names the players typed, even one
    spelled like a catalog key — as they are (domain/model/messages.py `read`)."""
    return messages.read(key, params, lambda message: i18n.gettext(message, language))


# A pydantic error's type → the sentence a player reads; {field} is the field's label, {limit}
# the bound the schema sets. Types not listed read as "not valid".
_IN_WORDS: Final[dict[str, str]] = {
    "missing": N_("Fill in {field}."),
    "greater_than_equal": N_("{field} must be {limit} or more."),
    "less_than_equal": N_("{field} must be {limit} or less."),
    "greater_than": N_("{field} must be more than {limit}."),
    "less_than": N_("{field} must be less than {limit}."),
    "string_too_short": N_("{field} must be at least {limit} characters long."),
    "string_too_long": N_("{field} must be at most {limit} characters long."),
    "too_short": N_("{field} needs at least {limit} entries."),
    "too_long": N_("{field} takes at most {limit} entries."),
    "string_pattern_mismatch": N_("{field} is not written the way it should be."),
    "int_type": N_("{field} must be a whole number."),
    "int_parsing": N_("{field} must be a whole number."),
    "int_from_float": N_("{field} must be a whole number."),
    "bool_type": N_("{field} must be on or off."),
    "bool_parsing": N_("{field} must be on or off."),
    "string_type": N_("{field} must be text."),
    "literal_error": N_("Choose {field} from its choices."),
    "enum": N_("Choose {field} from its choices."),
    "extra_forbidden": N_("{field} is not a field of this command."),
    "json_invalid": N_("The body is not valid JSON."),
}
_NOT_VALID = N_("{field} is not valid.")
_BLANK = N_("Fill in {field}.")
_REQUEST = N_("The request")
_AT = N_("{reason} (at character {position})")  # where a dice command goes wrong, from 1
_FIELD_SAYS = N_("{field}: {reason}")
_UNKNOWN_COMMAND = N_("There is no command {command} here; the commands are {known}.")
# The framework's own refusals, in words.
_BY_STATUS: Final[dict[int, str]] = {
    404: N_("There is nothing at this address."),
    405: N_("This address does not answer that method (the Allow header lists the ones it does)."),
    413: N_("The request body is too large."),
    415: N_("Send the body as JSON (Content-Type: application/json)."),
}
_LIMITS = ("ge", "le", "gt", "lt", "min_length", "max_length")


@cache
def _commands() -> dict[str, type[Command]]:
    from api.schemas import ALL_COMMANDS

    return {c.model_fields["type"].default: c for c in ALL_COMMANDS}


def field_label(loc: Sequence[Any], language: str) -> str:
    """The refused field as its form labels it (domain/rulesets/form_hints.py), in `language`:
    the nearest labelled field of the path, a map's key after it (【出力】 of 能力値); a field
    no ruleset labels reads as its name."""
    parts = [part for part in loc if part not in ("body", "query", "path", "header", "cookie")]
    command = _commands().get(str(parts[0])) if parts else None
    if command is not None:
        parts = parts[1:]
    names = [str(part) for part in parts if isinstance(part, str)]
    hints = form_hints.hints_for(command) if command is not None else None
    for end in range(len(names), 0, -1) if hints is not None else ():
        label = hints.label(".".join(names[:end])) if hints is not None else None
        if label is not None:
            rest = names[end:]
            said = i18n.gettext(label, language)
            return f"{said}（{'・'.join(rest)}）" if rest else said
    return names[-1] if names else i18n.gettext(_REQUEST, language)


def in_words(error: Any, language: str) -> str:
    """One pydantic error as a sentence naming the field by its label (「カラテ は 1 以上に
    してください」); the sentence never quotes the refused value."""
    kind = str(error.get("type", ""))
    context = error.get("ctx") or {}
    limit = next((context[k] for k in _LIMITS if k in context), None)
    field = field_label(list(error.get("loc", ())), language)
    template: str
    if kind == "string_too_short" and limit == 1:
        template = _BLANK
    elif kind == "value_error" and isinstance(context.get("error"), Exception):
        # A validator's own message (domain/model/messages.py `Invalid`), read in `language`.
        error = context["error"]
        said = (
            read(error.message.key, error.message.params, language)
            if isinstance(error, Invalid)
            else i18n.gettext(str(error), language)
        )
        return i18n.translate(_FIELD_SAYS, language, field=field, reason=said)
    else:
        template = _IN_WORDS.get(kind, _NOT_VALID)
    return i18n.translate(template, language, field=field, limit=limit)


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
    async def dice_error(request: Request, error: DiceError) -> JSONResponse:
        language = i18n.language_of(request)
        said = read(error.template, error.params, language)
        if error.position is not None:
            said = i18n.translate(_AT, language, reason=said, position=error.position + 1)
        return problem(422, error.code, said)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        # Only location, message and kind: never echo values back into logs or proxies.
        language = i18n.language_of(request)
        raw = list(error.errors())
        errors = [
            {
                "loc": list(e.get("loc", ())),
                "msg": e.get("msg", ""),
                "type": e.get("type", ""),
                "detail": in_words(e, language),
            }
            for e in raw
        ]
        first = errors[0] if errors else {"loc": [], "msg": "", "type": "", "detail": ""}
        if first["type"] == "union_tag_invalid":
            # The unknown type and every known one, from pydantic's context.
            context = raw[0].get("ctx") or {}
            detail = i18n.translate(
                _UNKNOWN_COMMAND,
                language,
                command=str(context.get("tag", "")),
                known=str(context.get("expected_tags", "")),
            )
            return problem(422, "unknown_command", detail)
        if first["type"] in OWN_VALIDATION_CODES:
            # Our own refusals (domain/model/json_shape.py, domain/model/text.py) keep their code.
            where = field_label(first["loc"], language)
            said = (raw[0].get("ctx") or {}).get("said")  # domain/model/text.py `detail`
            message = (
                read(said.key, said.params, language)
                if isinstance(said, Message)
                else i18n.gettext(str(first["msg"]), language)
            )
            detail = i18n.translate(_FIELD_SAYS, language, field=where, reason=message)
            return problem(422, str(first["type"]), detail, errors=errors)
        detail = str(first.get("detail") or "")
        return problem(422, "invalid_request", detail, errors=errors)

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
        said = _BY_STATUS.get(status)
        detail = i18n.gettext(said, i18n.language_of(request)) if said else str(error.detail)
        return problem(status, code, detail, headers=headers)

    @app.exception_handler(Exception)
    async def unexpected_error(request: Request, error: Exception) -> JSONResponse:
        # Starlette logs the traceback; the caller gets a problem, never a stack or a secret.
        wrong = N_("Something went wrong on the server.")
        return problem(500, "internal_error", i18n.gettext(wrong, i18n.language_of(request)))
