"""Revocation that really revokes, over real HTTP (issue 34, item 1).

A seat follows its game over raw Server-Sent Events with its bearer token and with a browser
session cookie, on every server of the deployment. When the GM signs the seat's browsers out,
the cookie's streams end at once and see nothing after; when the GM replaces the seat's
credentials, the token's streams end too, the old token and cookie are refused everywhere
within a second, and the new link joins the seat again. Secrets sealed to the seat after the
revocation (a marker in a note) never reach a revoked stream.

Run on SQLite (the embedded default; and two workers on one file with Redis) and on
PostgreSQL with two servers fanning out over Redis.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import httpx
import pytest

from tests.api.test_fanout_redis import bearer, redis_prefix, running
from tests.api.test_stream_client import Follower
from tests.conftest import REDIS_URL
from tests.serverproc import KirokuServer

pytestmark = pytest.mark.slow
__all__ = ["redis_prefix"]  # the fixture, imported for these tests

WITHIN = 1.0  # seconds from a revocation's acknowledgement to every stream of it ending
QUIET_RECHECK = "60"  # streams learn of other servers' appends only through Redis


def cookie(game_id: str, session: str) -> dict[str, str]:
    return {"Cookie": f"kiroku_{game_id}={session}"}


async def post(http: httpx.AsyncClient, path: str, token: str, body: Any = None) -> Any:
    response = await http.post(path, json=body, headers=bearer(token))
    assert response.status_code in (200, 201), response.text
    return response.json()


async def ended_within(follower: Follower, seconds: float) -> float:
    began = time.monotonic()
    while not follower.ended:
        assert follower.error is None, follower.error
        assert time.monotonic() - began < seconds, f"still open after {seconds}s"
        await asyncio.sleep(0.01)
    return time.monotonic() - began


async def scenario(urls: list[str]) -> None:
    clients = [httpx.AsyncClient(base_url=url, timeout=10) for url in urls]
    a, b = clients[0], clients[-1]
    followers: list[Follower] = []
    try:
        created = await a.post("/games", json={"title": "Revocation", "seats": ["P1", "P2"]})
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        gm = created.json()["gm_token"]
        commands = f"/games/{game_id}/commands"
        tokens = {}
        for seat in created.json()["seats"]:
            joined = await post(b, f"/games/{game_id}/join", "", {"invite": seat["invite"]})
            tokens[joined["actor"]] = joined["token"]
        await post(a, commands, gm, {"type": "start"})
        seat1 = tokens["seat:1"]
        sessions = [
            (await b.post(f"/games/{game_id}/session", headers=bearer(seat1))).cookies[
                f"kiroku_{game_id}"
            ]
            for _ in range(2)
        ]

        def follow(http: httpx.AsyncClient, headers: dict[str, str]) -> Follower:
            follower = Follower(http, game_id, headers)
            followers.append(follower)
            return follower

        by_cookie = [
            await follow(c, cookie(game_id, sessions[i % 2])).open()
            for i, c in enumerate(clients * 2)
        ]
        by_token = [await follow(c, bearer(seat1)).open() for c in clients * 2]
        other = await follow(b, bearer(tokens["seat:2"])).open()

        async def note_to_seat1(mark: str) -> int:
            body = {"type": "note", "text": mark, "to": ["seat:1"]}
            return int((await post(b, commands, gm, body))["last_seq"])

        before = f"BEFORE-{uuid.uuid4().hex}"
        seq = await note_to_seat1(before)
        for follower in (*by_cookie, *by_token):
            await follower.wait_for(seq, timeout=5)
            assert before.encode() in follower.raw

        # 1. The GM signs seat 1's browsers out: every cookie stream ends, on every server.
        await post(a, commands, gm, {"type": "revoke_sessions", "audience": "seat:1"})
        worst = max([await ended_within(f, WITHIN) for f in by_cookie])
        print(f"\nsessions revoked: the last cookie stream ended after {worst * 1000:.0f} ms")
        after_sessions = f"AFTER-SESSIONS-{uuid.uuid4().hex}"
        seq = await note_to_seat1(after_sessions)
        for follower in by_token:
            await follower.wait_for(seq, timeout=5)  # the token still holds
            assert not follower.ended
        for http in clients:
            for session in sessions:
                refused = await http.get(
                    f"/games/{game_id}/events", headers=cookie(game_id, session)
                )
                assert refused.status_code == 401, refused.text
            again = Follower(http, game_id, cookie(game_id, sessions[0]))
            await again.open()
            assert again.status == 401

        # 2. The GM replaces seat 1's credentials: the token's streams end, the token is dead.
        new_session = (await a.post(f"/games/{game_id}/session", headers=bearer(seat1))).cookies[
            f"kiroku_{game_id}"
        ]
        by_new_cookie = await follow(b, cookie(game_id, new_session)).open()
        rotated = await post(a, f"/games/{game_id}/seats/1/rotate", gm)
        assert rotated["seat"] == 1 and rotated["link"].endswith("#invite=" + rotated["invite"])
        worst = max([await ended_within(f, WITHIN) for f in (*by_token, by_new_cookie)])
        print(f"credentials rotated: the last stream ended after {worst * 1000:.0f} ms")
        for http in clients:
            for headers in (bearer(seat1), cookie(game_id, new_session)):
                refused = await http.get(f"/games/{game_id}/events", headers=headers)
                assert refused.status_code == 401, refused.text
            sent = await http.post(
                commands, json={"type": "note", "text": "x"}, headers=bearer(seat1)
            )
            assert sent.status_code == 401, sent.text
        after_rotation = f"AFTER-ROTATION-{uuid.uuid4().hex}"
        seq = await note_to_seat1(after_rotation)

        # The new link joins the seat again; the new token reads what the old one may not.
        joined = await post(a, f"/games/{game_id}/join", "", {"invite": rotated["invite"]})
        assert joined["actor"] == "seat:1"
        async with Follower(b, game_id, bearer(joined["token"])) as fresh:
            await fresh.wait_for(seq, timeout=5)
            assert after_rotation.encode() in fresh.raw
        await other.wait_for(seq, timeout=5)
        assert not other.ended  # seat 2 was never touched

        await asyncio.sleep(0.5)  # room for a late delivery to show
        for follower in by_cookie:
            assert after_sessions.encode() not in follower.raw
        for follower in (*by_cookie, *by_token, by_new_cookie):
            assert after_rotation.encode() not in follower.raw
            assert all(m.seq < seq for m in follower.messages)

        # Logged as events: who and when, never a secret.
        log = (await a.get(f"/games/{game_id}/events", headers=bearer(gm))).json()["events"]
        logged = {e["type"]: e for e in log}
        assert logged["SessionsRevoked"]["actor"] == "gm"
        assert logged["CredentialsRotated"]["actor"] == "gm"
        assert logged["CredentialsRotated"]["at"]
        text = str(log)
        for secret in (seat1, *sessions, new_session, rotated["invite"]):
            assert secret not in text
    finally:
        for follower in followers:
            await follower.close()
        for client in clients:
            await client.aclose()


def test_sqlite_one_server(tmp_path: Any) -> None:
    """The embedded default: one process, no Redis."""
    env = {"KIROKU_STREAM_HEARTBEAT": "0.5"}
    with KirokuServer(db=tmp_path / "kiroku.db", env=env) as server:
        asyncio.run(asyncio.wait_for(scenario([server.base_url]), 60))


@pytest.mark.redis
def test_sqlite_two_workers_over_redis(tmp_path: Any, redis_prefix: str) -> None:
    env = _redis_env(redis_prefix)
    with KirokuServer(db=tmp_path / "kiroku.db", workers=2, env=env) as server:
        asyncio.run(asyncio.wait_for(scenario([server.base_url, server.base_url]), 60))


@pytest.mark.redis
@pytest.mark.postgres
def test_postgres_two_servers_over_redis(postgres_url: str, redis_prefix: str) -> None:
    env = _redis_env(redis_prefix)
    servers = (KirokuServer(database_url=postgres_url, env=env) for _ in range(2))
    with running(*servers) as (one, two):
        asyncio.run(asyncio.wait_for(scenario([one.base_url, two.base_url]), 60))


def _redis_env(prefix: str) -> dict[str, str]:
    return {
        "KIROKU_REDIS_URL": REDIS_URL,
        "KIROKU_REDIS_PREFIX": prefix,
        "KIROKU_STREAM_RECHECK": QUIET_RECHECK,
        "KIROKU_STREAM_HEARTBEAT": "0.5",
    }
