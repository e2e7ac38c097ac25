"""Limits per client (issue 34, item 5): over a limit, 429 problem+json `rate_limited` with
`Retry-After`, nothing done; per address for creation and joins, per token (and, several
times larger, per address) for commands and stream connections; counted across workers in
Redis when there is one."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from domain.config import DEFAULT_LIMITS, PublicServerSettings
from domain.service import GameService
from tests.api.test_fanout_redis import redis_prefix, running
from tests.api.test_stream_client import Follower
from tests.conftest import REDIS_URL
from tests.serverproc import KirokuServer
from tests.table import Table

__all__ = ["redis_prefix"]

SMALL = {
    "KIROKU_LIMITS": "on",
    "KIROKU_LIMIT_CREATE": "3/minute",
    "KIROKU_LIMIT_JOIN": "2/minute",
    "KIROKU_LIMIT_COMMAND": "4/minute",
    "KIROKU_LIMIT_STREAM": "2/minute",
}


@pytest.fixture
def limited(sqlite_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    for name, value in SMALL.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("KIROKU_REDIS_URL", raising=False)
    service = GameService(sqlite_env)
    with TestClient(create_app(service)) as client:
        yield client
    service.close()


def refused(response: httpx.Response) -> int:
    assert response.status_code == 429, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "rate_limited"
    wait = int(response.headers["retry-after"])
    assert 1 <= wait <= 60
    return wait


def test_game_creation_is_limited_per_address(limited: TestClient) -> None:
    body = {"title": "T", "seats": ["A", "B", "C"]}
    for _ in range(3):
        assert limited.post("/games", json=body).status_code == 201
    refused(limited.post("/games", json=body))
    assert "秒" in limited.post("/games", json=body).json()["detail"]
    assert limited.get("/healthz").status_code == 200  # reads are not limited


def test_joins_are_limited_per_address(limited: TestClient) -> None:
    created = limited.post("/games", json={"title": "T", "seats": ["A", "B", "C"]}).json()
    path = f"/games/{created['game_id']}/join"
    for seat in created["seats"][:2]:
        assert limited.post(path, json={"invite": seat["invite"]}).status_code == 200
    refused(limited.post(path, json={"invite": created["seats"][2]["invite"]}))


def test_commands_are_limited_per_token_and_nothing_is_appended(limited: TestClient) -> None:
    table = Table.create(limited, seats=["A"])
    table.join_all()
    # Through the browser session: the declared route (the fast lane is being merged into it).
    assert (
        limited.post(f"/games/{table.game_id}/session", headers=table.auth("seat:1")).status_code
        == 201
    )
    csrf = {"X-Kiroku": "1"}
    url = f"/games/{table.game_id}/commands"
    assert limited.post(url, json={"type": "start"}, headers=table.auth("gm")).status_code == 201
    sent = [
        limited.post(url, json={"type": "say", "text": f"{n}"}, headers=csrf).status_code
        for n in range(4)
    ]
    assert sent == [201, 201, 201, 201]
    before = table.log_bytes()
    refused(limited.post(url, json={"type": "say", "text": "one more"}, headers=csrf))
    assert table.log_bytes() == before
    # Another token from the same address has its own count.
    assert (
        limited.post(url, json={"type": "say", "text": "gm"}, headers=table.auth("gm")).status_code
        == 201
    )


def test_the_defaults_suit_a_public_server() -> None:
    settings = PublicServerSettings()
    assert settings.limits_on
    assert dict(settings.limits) == DEFAULT_LIMITS
    assert DEFAULT_LIMITS["create"].startswith("10/minute")


@pytest.mark.slow
@pytest.mark.redis
def test_stream_connections_are_limited_across_servers_in_redis(
    tmp_path: Path, redis_prefix: str
) -> None:
    env = {**SMALL, "KIROKU_REDIS_URL": REDIS_URL, "KIROKU_REDIS_PREFIX": redis_prefix}

    async def scenario(a: str, b: str) -> None:
        async with (
            httpx.AsyncClient(base_url=a, timeout=10) as on_a,
            httpx.AsyncClient(base_url=b, timeout=10) as on_b,
        ):
            created = (await on_a.post("/games", json={"title": "T", "seats": ["A"]})).json()
            game_id = created["game_id"]
            gm = {"Authorization": f"Bearer {created['gm_token']}"}
            followers = [await Follower(http, game_id, gm).open() for http in (on_a, on_b)]
            for http in (on_a, on_b):  # the one count in Redis, whichever server is asked
                refused(await http.get(f"/games/{game_id}/stream", headers=gm))
            for follower in followers:
                assert follower.status == 200
                await follower.close()

    servers = [KirokuServer(db=tmp_path / "k.db", env=env) for _ in range(2)]
    with running(*servers) as (a, b):
        asyncio.run(asyncio.wait_for(scenario(a.base_url, b.base_url), 60))
