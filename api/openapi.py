"""The OpenAPI document, made to say what the server does (checked by schemathesis in the suite).

FastAPI's generated document is completed here, in one place, for every operation:

- every error status the operation can answer, each as `application/problem+json` (`Problem`):
  500 and 503 (the store unreachable or busy) everywhere; 422 where there are parameters or a
  body; 413 where there is a body; 401 where there are credentials; 404 where the path names
  a game; plus what a route declares itself with `problems(…)` (403, 409);
- who may call: a bearer token, or the browser's session cookie for that game, or — where the
  game allows spectators — nobody at all;
- the `Kiroku-Head` header on answers that carry the log, and `Idempotent-Replayed`;
- the Server-Sent Events stream: its media type and the shape of each message;
- links from a created game to everything done with it (for stateful clients and tests).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from api.errors import PROBLEM_JSON, Problem
from api.present import HEAD_HEADER
from api.schemas import EventOut
from domain.rulesets import all_rulesets

PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
DESCRIPTIONS = {
    401: "No valid credentials: `token_required`, `bad_token`, `bad_authorization`, `bad_session`",
    403: "A known caller that may not do this: `gm_only`, `invalid_invite`, "
    "`token_required` (spectators cannot act), `csrf_header_missing`, …",
    404: "No such game (`game_not_found`) or ruleset (`unknown_ruleset`)",
    409: "Not allowed in the game's current state: `already_started`, `game_ended`, "
    "`game_not_ended`, `idempotency_key_reused`, `game_busy`, a ruleset's own refusals, …",
    413: "`payload_too_large`: bodies are limited to 64 KiB",
    422: "The request is invalid: `invalid_request`, `unknown_command`, `json_too_deep`, "
    "`json_too_many_keys`, `json_too_large`, `forbidden_character`, `unencodable_json`, "
    "`dice_syntax`, …",
    500: "`corrupt_event`: a stored event of this game cannot be read (`seq` names it; "
    "the game is stopped there); `internal_error`: anything unexpected",
    503: "The store cannot be reached or is busy (`store_unavailable`, `store_busy`): "
    "nothing was done; try again after `Retry-After` seconds",
}
STREAM_DESCRIPTION = (
    "Server-Sent Events: first `retry: 1000`, then one message per event the caller may see, "
    "`id: <seq>`, `event: <type>`, `data: <the event as in /events>` (see `StreamMessage`); "
    "comment lines (`: keep-alive`) keep an idle stream open. `Last-Event-ID` resumes."
)
HEADS = {
    ("get", "/games/{game_id}"),
    ("get", "/games/{game_id}/events"),
    ("get", "/games/{game_id}/view"),
    ("get", "/games/{game_id}/stream"),
    ("post", "/games/{game_id}/commands"),
}
# Every operation with credentials takes a bearer token or the game's session cookie, or none
# (a spectator, where the game allows it); these take a bearer token only.
BEARER_ONLY = {("post", "/games/{game_id}/session")}
SESSION_COOKIE = "SessionCookie"
BEARER = "Bearer"


STREAM_MESSAGE = {
    "title": "StreamMessage",
    "description": "One message of `/games/{game_id}/stream`, as its SSE fields.",
    "type": "object",
    "required": ["id", "event", "data"],
    "properties": {
        "id": {
            "type": "string",
            "pattern": "^[0-9]+$",
            "description": "The event's seq: what `Last-Event-ID` resumes after",
        },
        "event": {"type": "string", "description": "The event's type, e.g. DiceRolled"},
        "data": {
            "type": "string",
            "description": "The event as the caller may see it (as in /events), one JSON line",
            "contentMediaType": "application/json",
            "contentSchema": {"$ref": "#/components/schemas/EventOut"},
        },
    },
}


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` for a route's own error statuses (the generic ones are added for all)."""
    return {status: _problem_response(status) for status in statuses}


def _problem_response(status: int) -> dict[str, Any]:
    return {
        "description": DESCRIPTIONS.get(status, "An error"),
        "content": {PROBLEM_JSON: {"schema": PROBLEM_REF}},
    }


def install_openapi(app: FastAPI) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                summary=app.summary,
                routes=app.routes,
            )
            complete(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def complete(schema: dict[str, Any]) -> None:
    components = schema.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    for model in (Problem, EventOut):
        definition = model.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, nested in definition.pop("$defs", {}).items():
            schemas.setdefault(name, nested)
        schemas.setdefault(model.__name__, definition)
    schemas["StreamMessage"] = STREAM_MESSAGE
    # The rulesets this server plays, so a client (and a generated test) picks a real one.
    ruleset = schemas["CreateGameRequest"]["properties"]["ruleset"]
    ruleset["enum"] = sorted(r.id for r in all_rulesets())
    components["securitySchemes"] = {
        BEARER: {
            "type": "http",
            "scheme": "bearer",
            "description": "The GM's or host's token, or a seat token, of this game",
        },
        SESSION_COOKIE: {
            "type": "apiKey",
            "in": "cookie",
            "name": "kiroku_<game_id>",
            "description": "A browser's session for one game (HttpOnly, from POST "
            "/games/{game_id}/session); the cookie is named kiroku_ and the game's id. With it, "
            "a request that changes something must also send `X-Kiroku: 1`.",
        },
    }
    for (method, path), operation in _operations(schema):
        _errors(path, operation)
        for parameter in operation.get("parameters", []):
            _not_null(parameter)
        if operation.get("security"):
            operation["security"] = (
                [{BEARER: []}]
                if (method, path) in BEARER_ONLY
                else [{}, {BEARER: []}, {SESSION_COOKIE: []}]
            )
        if (method, path) in HEADS:
            _head_header(operation)
    _stream(schema)
    _links(schema)
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)


def _operations(schema: dict[str, Any]) -> Iterator[tuple[tuple[str, str], dict[str, Any]]]:
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield (method, path), operation


def _errors(path: str, operation: dict[str, Any]) -> None:
    responses = operation["responses"]
    statuses = {500, 503}  # every operation reads the store, which may be out of reach
    if operation.get("parameters") or "requestBody" in operation:
        statuses.add(422)
    if "requestBody" in operation:
        statuses.add(413)
    if operation.get("security"):
        statuses.add(401)
    if "{" in path:
        statuses.add(404)
    statuses |= {int(s) for s in responses if s.isdigit() and int(s) >= 400}
    for status in sorted(statuses):
        responses[str(status)] = _problem_response(status)
        if status == 401:
            responses["401"]["headers"] = {
                "WWW-Authenticate": {"schema": {"type": "string"}, "description": "Bearer"}
            }
        if status == 503:
            responses["503"]["headers"] = {
                "Retry-After": {"schema": {"type": "string"}, "description": "Seconds"}
            }


def _not_null(parameter: dict[str, Any]) -> None:
    """An optional parameter is left out, never sent as null: `str | None` becomes `str`."""
    schema = parameter.get("schema", {})
    options = [o for o in schema.get("anyOf", ()) if o.get("type") != "null"]
    if "anyOf" in schema and len(options) == 1:
        rest = {k: v for k, v in schema.items() if k != "anyOf"}
        if rest.get("default") is None:
            rest.pop("default", None)
        parameter["schema"] = {**options[0], **rest}


def _head_header(operation: dict[str, Any]) -> None:
    for status, response in operation["responses"].items():
        if status.startswith("2"):
            response.setdefault("headers", {})[HEAD_HEADER] = {
                "description": "`<seq> <hash>`: the game's last event when this was answered; "
                "keep it, and `GET /games/{game_id}/verify?seq=&hash=` later confirms the log "
                "still holds it",
                "required": True,
                "schema": {"type": "string", "pattern": "^[0-9]+ [0-9a-f]{64}$"},
            }
            names = {p["name"].lower() for p in operation.get("parameters", [])}
            if "idempotency-key" in names:
                response["headers"]["Idempotent-Replayed"] = {
                    "description": "`true` when an Idempotency-Key matched an earlier command",
                    "schema": {"type": "string", "enum": ["true"]},
                }


def _stream(schema: dict[str, Any]) -> None:
    operation = schema["paths"]["/games/{game_id}/stream"]["get"]
    operation["responses"]["200"] = {
        **operation["responses"]["200"],
        "description": STREAM_DESCRIPTION,
        # In OpenAPI 3.1 the schema of an event stream describes each of its events.
        "content": {
            "text/event-stream": {"schema": {"$ref": "#/components/schemas/StreamMessage"}}
        },
    }


def _links(schema: dict[str, Any]) -> None:
    """From a created game (GM or host token) and a joined seat (seat token) to what they
    can do."""
    paths = schema["paths"]

    def op_id(method: str, path: str) -> str:
        return str(paths[path][method]["operationId"])

    reads = [
        ("get", "/games/{game_id}"),
        ("get", "/games/{game_id}/events"),
        ("get", "/games/{game_id}/view"),
        ("get", "/games/{game_id}/verify"),
        ("get", "/games/{game_id}/stream"),
        ("get", "/games/{game_id}/replay"),
        ("get", "/games/{game_id}/audit"),
        ("get", "/games/{game_id}/session"),
        ("post", "/games/{game_id}/commands"),
        ("post", "/games/{game_id}/session"),
    ]

    def links(game: str, authorization: str, suffix: str = "") -> dict[str, Any]:
        found = {}
        for method, path in reads:
            if path in paths and method in paths[path]:
                name = op_id(method, path)
                found[name + suffix] = {
                    "operationId": name,
                    "parameters": {"path.game_id": game, "header.Authorization": authorization},
                }
        return found

    created = paths["/games"]["post"]["responses"]["201"]
    created["links"] = {
        **links("$response.body#/game_id", "Bearer {$response.body#/gm_token}"),
        # a game without a referee answers with a host token instead (gm_token is null)
        **links("$response.body#/game_id", "Bearer {$response.body#/host_token}", "AsHost"),
        "join": {
            "operationId": op_id("post", "/games/{game_id}/join"),
            "parameters": {"path.game_id": "$response.body#/game_id"},
            "requestBody": {"invite": "$response.body#/seats/0/invite"},
        },
    }
    joined = paths["/games/{game_id}/join"]["post"]["responses"]["200"]
    joined["links"] = links("$request.path.game_id", "Bearer {$response.body#/token}")
