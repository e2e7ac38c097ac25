"""Observability (issue 34, item 6): Prometheus metrics at /metrics, readiness that checks the
store and Redis, and structured log lines (time, level, request id, game, seq; JSON when
asked) from a real server."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from domain.config import store_env
from domain.service import GameService
from tests.api.test_stream_client import Follower
from tests.conftest import POSTGRES_URL
from tests.serverproc import KirokuServer
from tests.table import Table


def sample(client: TestClient, name: str, **labels: str) -> float:
    """The value of one series in /metrics (0 when it is not there yet)."""
    text = client.get("/metrics").text
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        series, _, value = line.rpartition(" ")
        metric, _, rest = series.partition("{")
        got = ",".join(sorted(rest.rstrip("}").split(","))) if rest else ""
        if metric == name and got == want:
            return float(value)
    return 0.0


def cookie_table(client: TestClient) -> tuple[Table, dict[str, str]]:
    """A started table whose seat 1 acts through its browser session: the declared command
    route, as every command will once the fast lane is merged into it."""
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    session = client.post(f"/games/{table.game_id}/session", headers=table.auth("seat:1"))
    assert session.status_code == 201
    return table, {"X-Kiroku": "1"}


def test_metrics_count_commands_appends_and_answers(client: TestClient) -> None:
    table, csrf = cookie_table(client)
    appended = sample(client, "kiroku_commands_total", ruleset="freeform", outcome="appended")
    refused = sample(client, "kiroku_commands_total", ruleset="freeform", outcome="refused")
    events = sample(client, "kiroku_events_appended_total")
    url = f"/games/{table.game_id}/commands"
    for n in range(3):
        sent = client.post(url, json={"type": "declare", "text": f"go {n}"}, headers=csrf)
        assert sent.status_code == 201, sent.text
    assert client.post(url, json={"type": "start"}, headers=csrf).status_code == 403
    assert (
        sample(client, "kiroku_commands_total", ruleset="freeform", outcome="appended")
        == appended + 3
    )
    assert (
        sample(client, "kiroku_commands_total", ruleset="freeform", outcome="refused")
        == refused + 1
    )
    assert sample(client, "kiroku_events_appended_total") >= events + 3
    assert sample(client, "kiroku_command_seconds_count", ruleset="freeform") >= 4
    assert sample(client, "kiroku_append_batch_events_count") > 0
    text = client.get("/metrics").text
    for name in ("kiroku_streams_open", "kiroku_fanout_lag_seconds", "kiroku_request_seconds"):
        assert name in text
    assert table.game_id not in text  # labels are routes and rulesets, never a game
    assert (
        sample(
            client,
            "kiroku_requests_total",
            route="/games/{game_id}/commands",
            method="POST",
            status="201",
        )
        >= 3
    )


def test_each_answer_carries_a_request_id(client: TestClient) -> None:
    mine = client.get("/healthz", headers={"X-Request-ID": "my-trace-1"})
    assert mine.headers["x-request-id"] == "my-trace-1"
    made = client.get("/healthz", headers={"X-Request-ID": "not a sane id\x01"})
    assert re.fullmatch(r"[0-9a-f]{16}", made.headers["x-request-id"])


def test_readyz_checks_the_store(client: TestClient) -> None:
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json() == {"status": "ready", "store": "ok"}
    assert client.get("/healthz").json() == {"status": "ok"}


@pytest.fixture
def doomed_schema(postgres_url: str) -> Iterator[tuple[str, str]]:
    schema = postgres_url.rpartition("schema=")[2]
    yield postgres_url, schema


@pytest.mark.postgres
def test_readyz_says_not_ready_with_the_store_gone(doomed_schema: tuple[str, str]) -> None:
    url, schema = doomed_schema
    service = GameService(store_env(database_url=url))
    try:
        with TestClient(create_app(service)) as client:
            assert client.get("/readyz").status_code == 200
            with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
                conn.execute(f'CREATE SCHEMA "{schema}"')  # for the fixture to drop again
            gone = client.get("/readyz")
            assert gone.status_code == 503, gone.text
            assert gone.headers["content-type"] == "application/problem+json"
            assert gone.json()["code"] == "not_ready" and "store" in gone.json()["detail"]
            assert client.get("/healthz").status_code == 200  # liveness stays
    finally:
        service.close()


def test_readyz_says_not_ready_without_its_redis(
    sqlite_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KIROKU_REDIS_URL", "redis://127.0.0.1:1/0")  # nothing listens there
    service = GameService(sqlite_env)
    try:
        with TestClient(create_app(service)) as client:
            answer = client.get("/readyz")
            assert answer.status_code == 503 and "redis" in answer.json()["detail"]
    finally:
        service.close()


@pytest.mark.slow
def test_json_log_lines_carry_time_level_request_game_and_seq(tmp_path: Path) -> None:
    env = {"KIROKU_LOG_FORMAT": "json", "KIROKU_STREAM_HEARTBEAT": "0.5"}

    async def scenario(base: str) -> str:
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            created = (await http.post("/games", json={"title": "Log", "seats": ["A"]})).json()
            game_id, gm = created["game_id"], {"Authorization": f"Bearer {created['gm_token']}"}
            joined = await http.post(
                f"/games/{game_id}/join", json={"invite": created["seats"][0]["invite"]}
            )
            seat = {"Authorization": f"Bearer {joined.json()['token']}"}
            session = await http.post(f"/games/{game_id}/session", headers=seat)
            cookie = {"Cookie": f"kiroku_{game_id}={session.cookies[f'kiroku_{game_id}']}"}
            follower = Follower(http, game_id, {**cookie, "X-Request-ID": "trace-77"})
            await follower.open()
            revoke = {"type": "revoke_sessions", "audience": "seat:1"}
            assert (
                await http.post(f"/games/{game_id}/commands", json=revoke, headers=gm)
            ).status_code == 201
            await follower.wait_until(lambda f: f.ended, 5, "the end")
            return str(game_id)

    with KirokuServer(db=tmp_path / "k.db", env=env) as server:
        game_id = asyncio.run(scenario(server.base_url))
        lines = [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]
    assert any(line["message"] == "Application startup complete." for line in lines)
    ended = [line for line in lines if "revoked" in line["message"]]
    assert ended, lines
    line = ended[0]
    assert line["level"] == "INFO" and line["logger"] == "kiroku.live"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"])
    assert line["request_id"] == "trace-77" and line["game"] == game_id
    assert line["seq"] == 3  # created, joined, signed in: read; the revocation (4) was not
