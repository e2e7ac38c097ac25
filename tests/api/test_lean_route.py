"""The command route's fast lane (api/routes/lean.py) answers as the declared route does: the
same body shape, status and headers for a command it serves, and every request it passes on
gets the declared route's own answer (validation errors, auth errors, cookies). Standing in
front of the middleware, it keeps the body limit, the security headers and the error
handlers' answers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.affinity import Answer
from api.limits import MAX_BODY_BYTES
from api.routes import lean
from api.schemas import CommandResponse
from api.web import session_cookie
from domain.service import GameService
from tests.table import Table

PAGE = {"X-Kiroku": "1"}


@pytest.fixture
def lane(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether the lane served (True) or passed on (False) each command request."""
    served: list[bool] = []
    real = lean.LeanCommands._fast

    async def spy(self: lean.LeanCommands, scope: Any, *args: Any) -> Answer | None:
        answer = await real(self, scope, *args)
        served.append(answer is not None)
        return answer

    monkeypatch.setattr(lean.LeanCommands, "_fast", spy)
    return served


def _shape(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return type(value).__name__


def test_the_lane_answers_like_the_declared_route(client: TestClient, lane: list[bool]) -> None:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    cookie = client.post(f"/games/{table.game_id}/session", headers=table.auth("seat:2"))
    assert cookie.status_code == 201
    lane.clear()

    roll = {"type": "roll", "expression": "2d6+1", "secret": True}
    fast = table.send("seat:1", roll, **{"Idempotency-Key": "k1"})
    client.cookies.set(session_cookie(table.game_id), cookie.cookies[session_cookie(table.game_id)])
    declared = client.post(
        f"/games/{table.game_id}/commands", json=roll, headers={**PAGE, "Idempotency-Key": "k1"}
    )
    client.cookies.clear()
    assert lane == [True, False]
    assert fast.status_code == declared.status_code == 201
    for response in (fast, declared):
        CommandResponse.model_validate(response.json())
        seq, digest = response.headers["Kiroku-Head"].split()
        assert int(seq) == response.json()["last_seq"] and len(digest) == 64
    names = {"content-type", "kiroku-head", "content-security-policy", "x-frame-options"}
    assert names <= set(fast.headers) and names <= set(declared.headers)
    assert fast.headers["content-type"] == declared.headers["content-type"]
    assert _shape(fast.json()) == _shape(declared.json())

    again = table.send("seat:1", roll, **{"Idempotency-Key": "k1"})
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["events"] == fast.json()["events"] and again.json()["replayed"] is True
    assert "Idempotent-Replayed" not in fast.headers

    # A line BCDice does not know is chat, with no hint, as in ココフォリア.
    said = table.send("seat:1", {"type": "say", "text": "hello 2d6"})
    assert said.status_code == 201 and said.json()["hint"] is None
    assert said.json()["events"][0]["type"] == "Said"


@pytest.mark.parametrize(
    ("actor", "body", "headers", "status", "code"),
    [
        ("seat:1", {"type": "nope"}, {}, 422, "unknown_command"),
        ("seat:1", {"type": "roll"}, {}, 422, "invalid_request"),
        (
            "seat:1",
            {"type": "roll", "expression": "2d6"},
            {"Idempotency-Key": "k" * 201},
            422,
            "invalid_request",
        ),
        ("seat:1", {"type": "roll", "expression": "こんにちは"}, {}, 409, "dice_unsupported"),
        ("seat:1", {"type": "end"}, {}, 403, None),
        (None, {"type": "roll", "expression": "2d6"}, {}, 403, "token_required"),
        ("bad", {"type": "roll", "expression": "2d6"}, {}, 401, "bad_token"),
        ("malformed", {"type": "roll", "expression": "2d6"}, {}, 401, "bad_authorization"),
    ],
)
def test_what_the_lane_refuses_or_passes_on_is_answered_as_before(
    client: TestClient,
    lane: list[bool],
    actor: str | None,
    body: dict[str, Any],
    headers: dict[str, str],
    status: int,
    code: str | None,
) -> None:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    before = table.do("gm", {"type": "declare", "text": "x"})["last_seq"]
    table.tokens["bad"] = "not-a-token"
    auth = {"Authorization": "Basic abc"} if actor == "malformed" else table.auth(actor)
    response = client.post(
        f"/games/{table.game_id}/commands", json=body, headers={**auth, **headers}
    )
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.headers["x-frame-options"] == "DENY"  # the lane's refusals too
    assert "content-security-policy" in response.headers
    if code is not None:
        assert response.json()["code"] == code
    after = client.get(f"/games/{table.game_id}/events", headers=table.auth("gm")).json()
    assert after["last_seq"] == before  # nothing appended


def test_bodies_the_lane_cannot_read_get_the_declared_answers(
    client: TestClient, lane: list[bool]
) -> None:
    table = Table.create(client)
    table.join_all()
    url = f"/games/{table.game_id}/commands"
    auth = table.auth("gm")
    broken = client.post(
        url, content=b'{"type": "start"', headers={**auth, "Content-Type": "application/json"}
    )
    assert broken.status_code == 422 and broken.json()["code"] == "invalid_request"
    deep = client.post(
        url,
        content=json.dumps({"type": "ruling", "effect": _nested(300)}),
        headers={**auth, "Content-Type": "application/json"},
    )
    assert deep.status_code == 422 and deep.json()["code"] == "invalid_request"
    other = client.get(url, headers=auth)
    assert other.status_code == 405 and other.headers["Allow"] == "POST"
    missing = client.post("/games/not-a-game/commands", json={"type": "start"}, headers=auth)
    assert missing.status_code in (401, 404)
    assert lane == [False, False, False]


def test_a_failure_in_the_lane_is_a_problem_not_a_crash(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lane stands in front of the middleware that turns an unexpected error into a 500
    problem; it answers one the same way, with the security headers, appending nothing."""
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    before = table.log_bytes()

    def broken(*args: Any) -> None:
        then = args[-1]
        then(None, RuntimeError("a bug"))  # as the writer hands over an unexpected failure

    monkeypatch.setattr(GameService, "send", broken)
    response = table.send("seat:1", {"type": "roll", "expression": "2d6"})
    assert response.status_code == 500, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "internal_error" and "a bug" not in response.text
    assert response.headers["x-frame-options"] == "DENY"
    assert table.log_bytes() == before


def test_an_over_long_body_is_refused_by_the_limit_not_read_by_the_lane(
    client: TestClient, lane: list[bool]
) -> None:
    table = Table.create(client)
    table.join_all()
    before = table.log_bytes()
    huge = json.dumps({"type": "declare", "text": "x" * (MAX_BODY_BYTES + 1)}).encode()
    response = client.post(
        f"/games/{table.game_id}/commands",
        content=huge,
        headers={**table.auth("gm"), "Content-Type": "application/json"},
    )
    assert response.status_code == 413 and response.json()["code"] == "payload_too_large"
    assert lane == [] and table.log_bytes() == before


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"a": value}
    return value
