"""Strict parameters and headers on every response (issue 34, item 4): a query parameter an
operation does not declare, or one given twice, a seq beyond the game and an audience the
game does not have are refused with problem+json; CSP, X-Frame-Options and nosniff are on
every answer, the API docs' exemption being their exact paths."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from tests.table import Table


@pytest.fixture
def table(client: TestClient) -> Table:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    return table


def problem(response: Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == code, response.json()


@pytest.mark.parametrize(
    ("path", "query", "status", "code"),
    [
        ("view", "seq=-1", 422, "unknown_parameter"),
        ("view", "seq=1e3", 422, "unknown_parameter"),
        ("view", "seq=1000000000000000000000000000000", 422, "unknown_parameter"),
        ("", "as=gm", 422, "unknown_parameter"),
        ("events", "after=-1", 422, "invalid_request"),
        ("events", "after=1e3", 422, "invalid_request"),
        ("events", "after=99", 422, "unknown_seq"),
        ("events", "after=1&after=2", 422, "repeated_parameter"),
        ("events", "limit=10&lmit=3", 422, "unknown_parameter"),
        ("replay", "as=seat:99", 422, "unknown_audience"),
        ("replay", "as=host", 422, "unknown_audience"),  # a GM-run game has no host
        ("replay", "as=nobody", 422, "bad_audience"),
        ("replay", "at=99", 422, None),
        ("stream", "after=99", 422, "unknown_seq"),
    ],
)
def test_a_parameter_is_what_the_document_says_or_refused(
    table: Table, path: str, query: str, status: int, code: str | None
) -> None:
    url = f"/games/{table.game_id}/{path}".rstrip("/") + f"?{query}"
    response = table.client.get(url, headers=table.auth("gm"))
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    if code is not None:
        assert response.json()["code"] == code, response.json()


def test_declared_parameters_still_work(table: Table) -> None:
    auth = table.auth("gm")
    for url in ("events?after=1&limit=2", "replay?as=seat:2&at=2", "view", "replay/log?as=public"):
        response = table.client.get(f"/games/{table.game_id}/{url}", headers=auth)
        assert response.status_code == 200, (url, response.text)
    # Pages are not operations of the API: a browser may add what it likes to their address.
    assert table.client.get(f"/g/{table.game_id}?utm_source=x").status_code == 200


def test_a_host_game_has_a_host_and_no_gm(client: TestClient) -> None:
    table = Table.create(client, seats=["Aki", "Ben"], referee="host")
    response = client.get(f"/games/{table.game_id}/replay?as=gm", headers=table.auth("host"))
    problem(response, 422, "unknown_audience")


@pytest.mark.parametrize(
    "path", ["/", "/healthz", "/openapi.json", "/docsx", "/docs/x", "/redocx", "/nowhere", "/games"]
)
def test_every_response_has_the_security_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert "'unsafe-inline'" not in response.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_api_docs_have_their_own_policy_and_the_other_headers(
    client: TestClient, path: str
) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    policy = response.headers["content-security-policy"]
    assert "'unsafe-inline'" in policy and "frame-ancestors 'none'" in policy
