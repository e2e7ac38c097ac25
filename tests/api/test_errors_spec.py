"""Errors and statuses: every error is problem+json with a stable code — the framework's own
404/405 (with Allow) and unexpected errors included; 413 for any body over the limit, chunked
too; 401 for an Authorization that is not `Bearer <token>`; 422 for out-of-range integers; and
the OpenAPI document declares all of it for every operation.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from domain.application.service import GameService
from tests.api.test_stream_http import ThreadedServer
from tests.table import Table


def assert_problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["code"] == code and body["status"] == status and body["detail"]
    return body


@pytest.fixture
def table(client: TestClient) -> Table:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    return table


def test_unknown_paths_and_methods_are_problems_with_allow(table: Table) -> None:
    client, game = table.client, table.game_id
    assert_problem(client.get("/no/such/page"), 404, "not_found")
    assert_problem(client.get(f"/games/{game}/no-such-thing"), 404, "not_found")
    for method, path, allowed in [
        ("GET", "/games", {"POST"}),
        ("DELETE", f"/games/{game}", {"GET"}),
        ("PUT", f"/games/{game}/commands", {"POST"}),
        ("DELETE", f"/games/{game}/session", {"GET", "POST"}),  # one path, two routes
    ]:
        response = client.request(method, path)
        assert_problem(response, 405, "method_not_allowed")
        assert set(response.headers["allow"].split(", ")) == allowed


def test_unexpected_errors_are_problems_without_a_traceback(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(create_app(service), raise_server_exceptions=False) as client:
        game = Table.create(client).game_id

        def broken(*_args: object, **_kwargs: object) -> None:
            raise RuntimeError("secret internals /srv/kiroku")

        monkeypatch.setattr(service, "state", broken)
        response = client.get(f"/games/{game}/events")
    body = assert_problem(response, 500, "internal_error")
    assert "secret internals" not in response.text and "Traceback" not in response.text
    assert body["detail"] == "サーバーで問題が起きました。"  # Japanese unless asked


@pytest.mark.parametrize(
    "authorization",
    ["Basic Zm9vOmJhcg==", "Bearer", "Bearer ", "Bearer a b", "Token abc", "", "bearer"],
)
def test_an_authorization_that_is_not_a_bearer_token_is_401(
    table: Table, authorization: str
) -> None:
    headers = {"Authorization": authorization}
    before = table.log_bytes()
    for response in (
        table.client.get(f"/games/{table.game_id}/events", headers=headers),
        table.client.get(f"/games/{table.game_id}", headers=headers),
        table.client.post(
            f"/games/{table.game_id}/commands",
            json={"type": "declare", "text": "hi"},
            headers=headers,
        ),
    ):
        assert_problem(response, 401, "bad_authorization")
        assert response.headers["www-authenticate"] == "Bearer"
    assert table.log_bytes() == before
    # The scheme's name is case-insensitive (RFC 7235): this one is a bearer token.
    lower = {"Authorization": f"bearer {table.gm_token}"}
    assert table.client.get(f"/games/{table.game_id}/events", headers=lower).status_code == 200


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("events", {"after": 2**63}),
        ("events", {"after": 2**53}),
        ("events", {"after": -1}),
        ("events", {"limit": 10**6}),
        ("replay", {"at": 2**63}),
        ("replay/log", {"at": 2**63}),
        ("replay/log", {"limit": 0}),
        ("stream", {"after": 10**13}),
        ("verify", {"seq": 2**63, "hash": "a" * 64}),
    ],
)
def test_out_of_range_integers_in_queries_are_422(
    table: Table, path: str, params: dict[str, int]
) -> None:
    response = table.client.get(
        f"/games/{table.game_id}/{path}", params=params, headers=table.auth("gm")
    )
    assert_problem(response, 422, "invalid_request")


def test_out_of_range_integers_in_paths_and_bodies_are_422(table: Table) -> None:
    url = f"/games/{table.game_id}/seats/{2**63}/invite"
    assert_problem(table.client.post(url, headers=table.auth("gm")), 422, "invalid_request")
    before = table.log_bytes()
    for body in (
        {"type": "ruling", "concerning_seq": 2**63, "text": "t"},
        {"type": "reveal", "seq": 2**64},
        {"type": "roll", "expression": "1d6", "faces": [2**63]},
        {"type": "ruling", "concerning_seq": 1, "text": "t", "effect": {"n": 2**70}},
    ):
        response = table.send("gm", body)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["code"] in ("invalid_request", "unencodable_json")
    assert table.log_bytes() == before


@pytest.fixture
def real_server(service: GameService, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadedServer]:
    monkeypatch.delenv("KIROKU_REDIS_URL", raising=False)
    with ThreadedServer(service) as server:
        yield server


def test_a_body_over_the_limit_is_413_declared_or_chunked(real_server: ThreadedServer) -> None:
    with httpx.Client(base_url=real_server.base_url) as http:
        created = http.post("/games", json={"title": "T", "seats": ["A"]}).json()
        url = f"/games/{created['game_id']}/commands"
        headers = {"Authorization": f"Bearer {created['gm_token']}"}
        before = http.get(f"/games/{created['game_id']}/events", headers=headers).content

        def chunks() -> Iterator[bytes]:  # no Content-Length: Transfer-Encoding: chunked
            yield b'{"type": "declare", "text": "'
            for _ in range(70):
                yield b"x" * 1024
            yield b'"}'

        chunked = http.post(url, content=chunks(), headers=headers)
        declared = http.post(url, content=b"".join(chunks()), headers=headers)
        creation = http.post(
            "/games", content=chunks(), headers={"content-type": "application/json"}
        )
        for response in (chunked, declared, creation):
            assert_problem(response, 413, "payload_too_large")
        assert http.get(f"/games/{created['game_id']}/events", headers=headers).content == before


def test_the_document_declares_every_error_as_a_problem(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    problem = {"$ref": "#/components/schemas/Problem"}
    assert set(spec["components"]["schemas"]["Problem"]["required"]) >= {"code", "status"}
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            responses = operation["responses"]
            where = f"{method.upper()} {path}"
            statuses = {int(s) for s in responses}
            assert 500 in statuses, where
            if operation.get("parameters") or "requestBody" in operation:
                assert 422 in statuses, where
            if "requestBody" in operation:
                assert 413 in statuses, where
            if operation.get("security"):
                assert 401 in statuses, where
            for status, response in responses.items():
                if int(status) >= 400:
                    assert response["content"] == {
                        "application/problem+json": {"schema": problem}
                    }, where
            assert "HTTPValidationError" not in str(operation), where
    commands = spec["paths"]["/games/{game_id}/commands"]["post"]["responses"]
    assert {"201", "401", "403", "404", "409", "413", "422", "500"} <= set(commands)
    assert "Kiroku-Head" in commands["201"]["headers"]


def test_the_document_declares_the_stream_and_who_may_call(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    stream = spec["paths"]["/games/{game_id}/stream"]["get"]["responses"]["200"]
    assert stream["content"] == {
        "text/event-stream": {"schema": {"$ref": "#/components/schemas/StreamMessage"}}
    }
    message = spec["components"]["schemas"]["StreamMessage"]
    assert message["properties"]["data"]["contentSchema"] == {
        "$ref": "#/components/schemas/EventOut"
    }
    schemes = spec["components"]["securitySchemes"]
    assert schemes["Bearer"] == {**schemes["Bearer"], "type": "http", "scheme": "bearer"}
    assert schemes["SessionCookie"]["in"] == "cookie"
    events = spec["paths"]["/games/{game_id}/events"]["get"]
    assert events["security"] == [{}, {"Bearer": []}, {"SessionCookie": []}]
    session = spec["paths"]["/games/{game_id}/session"]["post"]
    assert session["security"] == [{"Bearer": []}]
    rulesets = spec["components"]["schemas"]["CreateGameRequest"]["properties"]["ruleset"]
    assert {"freeform", "ninja_slayer", "chojin_locke"} <= set(rulesets["enum"])
