"""Fan-out across processes: two `kiroku serve` servers (uvicorn, one worker each) on one
PostgreSQL schema, a stream client on each, commands sent to both.

With KIROKU_REDIS_URL every client gets every event it may see, in order, exactly once and
within a second, although each server only looks at the store by itself once a minute here:
only Redis can have told it. Without Redis the periodic look still delivers everything. Redis
connections cut mid-game are re-established, and a Redis that is not there at all stops
nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from tests.api.test_stream_client import Follower
from tests.conftest import REDIS_URL, require_service
from tests.serverproc import KirokuServer, free_port

pytestmark = pytest.mark.slow

FAST = 1.0  # seconds from a command's acknowledgement to its event on every stream
QUIET_RECHECK = (
    "60"  # longer than any test: a stream learns of other servers' appends only by Redis
)


def _redis_reachable() -> bool:
    try:
        with redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1) as client:
            return bool(client.ping())
    except (redis.RedisError, OSError):
        return False


@pytest.fixture
def redis_prefix() -> str:
    """A channel prefix of this test alone: Redis pub/sub channels span every database."""
    require_service("Redis", _redis_reachable(), REDIS_URL)
    return f"kiroku-test-{uuid.uuid4().hex[:12]}"


@contextlib.contextmanager
def running(*servers: KirokuServer) -> Iterator[list[KirokuServer]]:
    """Start the servers one after the other and stop them all, whatever happens.

    Not side by side: two processes creating the tables of a fresh PostgreSQL schema at the
    same moment can fail (CREATE TYPE races in eventsourcing's table set-up).
    """
    try:
        for server in servers:
            server.start()
        yield list(servers)
    finally:
        for server in servers:
            server.stop()


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def start_game(http: httpx.AsyncClient, seats: int = 2) -> tuple[str, dict[str, Any]]:
    created = await http.post(
        "/games", json={"title": "Two servers", "seats": [f"P{n}" for n in range(seats)]}
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    tokens: dict[str, Any] = {"gm": created.json()["gm_token"], "public": None}
    for seat in created.json()["seats"]:
        joined = await http.post(f"/games/{game_id}/join", json={"invite": seat["invite"]})
        assert joined.status_code == 200, joined.text
        tokens[joined.json()["actor"]] = joined.json()["token"]
    started = await http.post(
        f"/games/{game_id}/commands", json={"type": "start"}, headers=bearer(tokens["gm"])
    )
    assert started.status_code == 201, started.text
    return game_id, tokens


async def command(
    http: httpx.AsyncClient, game_id: str, token: str, body: dict[str, Any]
) -> tuple[int, float]:
    """The seq the command appended, and when its acknowledgement arrived."""
    response = await http.post(f"/games/{game_id}/commands", json=body, headers=bearer(token))
    assert response.status_code == 201, response.text
    return int(response.json()["last_seq"]), time.monotonic()


def redis_env(prefix: str) -> dict[str, str]:
    return {
        "KIROKU_REDIS_URL": REDIS_URL,
        "KIROKU_REDIS_PREFIX": prefix,
        "KIROKU_STREAM_RECHECK": QUIET_RECHECK,
        "KIROKU_STREAM_HEARTBEAT": "0.5",
    }


def assert_latency(
    followers: list[Follower], acked: dict[int, float], limit: float = FAST
) -> float:
    worst = 0.0
    for follower in followers:
        for message in follower.messages:
            if message.seq in acked:
                worst = max(worst, message.received - acked[message.seq])
    assert worst < limit, f"an event took {worst:.3f}s to reach a stream"
    return worst


@pytest.mark.redis
@pytest.mark.postgres
def test_a_client_on_each_server_gets_every_event_once_in_order(
    postgres_url: str, redis_prefix: str
) -> None:
    async def scenario(a: KirokuServer, b: KirokuServer) -> None:
        async with (
            httpx.AsyncClient(base_url=a.base_url, timeout=10) as on_a,
            httpx.AsyncClient(base_url=b.base_url, timeout=10) as on_b,
        ):
            game_id, tokens = await start_game(on_a)
            where = {"A": on_a, "B": on_b}
            # seat:1 follows on both servers, like a player with a phone and a laptop.
            followed = [("A", "seat:1"), ("A", "gm"), ("B", "seat:2"), ("B", "public")]
            followed.append(("B", "seat:1"))
            followers = [
                await Follower(where[s], game_id, bearer(tokens[who])).open() for s, who in followed
            ]
            marks = {seat: f"NOTE-{seat}-{uuid.uuid4().hex}" for seat in ("seat:1", "seat:2")}
            acked: dict[int, float] = {}
            last = 0
            for n in range(12):
                http = (on_a, on_b)[n % 2]  # every other command goes to the other server
                actor = ("seat:1", "seat:2", "gm")[n % 3]
                if actor == "gm":
                    body = {"type": "roll", "expression": "2D6"}
                elif n % 4 < 2:
                    body = {"type": "note", "text": f"{marks[actor]}-{n}"}
                else:
                    body = {"type": "declare", "text": f"{actor} acts ({n})"}
                last, acked[last] = await command(http, game_id, tokens[actor], body)
            await asyncio.gather(*(f.wait_for(last, timeout=5) for f in followers))
            await asyncio.sleep(0.5)  # room for a duplicate to show

            for (server, who), follower in zip(followed, followers, strict=True):
                assert follower.seqs == list(range(1, last + 1)), (server, who)
                listing = await where[server].get(
                    f"/games/{game_id}/events", headers=bearer(tokens[who])
                )
                assert [m.json() for m in follower.messages] == listing.json()["events"]
                for seat, mark in marks.items():
                    assert (mark.encode() in follower.raw) is (who in (seat, "gm")), (who, seat)
            worst = assert_latency(followers, acked)
            print(f"\nslowest event across servers over Redis: {worst * 1000:.1f} ms")

            # Shutdown while every stream is open: the streams end, the servers exit at once.
            began = time.monotonic()
            await asyncio.gather(*(asyncio.to_thread(s.stop) for s in (a, b)))
            stopped = time.monotonic() - began
            await asyncio.gather(
                *(f.wait_until(lambda f: f.ended, 5, "the end") for f in followers)
            )
            assert stopped < 5, f"stopping took {stopped:.1f}s"
            for process in (a, b):
                stopping = process.last_log[process.last_log.index("Shutting down") :]
                assert "Finished server process" in stopping
                assert "Traceback" not in stopping, process.last_log

    env = redis_env(redis_prefix)
    with running(*(KirokuServer(database_url=postgres_url, env=env) for _ in range(2))) as (a, b):
        asyncio.run(asyncio.wait_for(scenario(a, b), 30))


@pytest.mark.postgres
def test_without_redis_streams_catch_up_by_looking_at_the_store(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("KIROKU_REDIS_URL", raising=False)
    env = {"KIROKU_STREAM_RECHECK": "0.3", "KIROKU_STREAM_HEARTBEAT": "0.5"}

    async def scenario(a: KirokuServer, b: KirokuServer) -> None:
        async with (
            httpx.AsyncClient(base_url=a.base_url, timeout=10) as on_a,
            httpx.AsyncClient(base_url=b.base_url, timeout=10) as on_b,
        ):
            game_id, tokens = await start_game(on_a)
            on_b_follower = await Follower(on_b, game_id, bearer(tokens["seat:2"])).open()
            acked: dict[int, float] = {}
            last = 0
            for n in range(6):
                body = {"type": "declare", "text": f"seen from afar {n}"}
                last, acked[last] = await command(on_a, game_id, tokens["seat:1"], body)
                await asyncio.sleep(0.1)
            await on_b_follower.wait_for(last, timeout=5)
            await asyncio.sleep(0.7)  # two more looks at the store: nothing may come twice
            await on_b_follower.close()
            assert on_b_follower.seqs == list(range(1, last + 1))
            assert_latency([on_b_follower], acked, limit=1.0)

    with running(*(KirokuServer(database_url=postgres_url, env=env) for _ in range(2))) as (a, b):
        asyncio.run(asyncio.wait_for(scenario(a, b), 30))


def cut_connections(prefix: str) -> int:
    """Kill this test's servers' Redis connections (named after the prefix), not others'."""
    with redis.Redis.from_url(REDIS_URL) as admin:
        ours = [c for c in admin.client_list() if c.get("name", "").startswith(prefix + ":")]
        for client in ours:
            admin.client_kill_filter(_id=client["id"])
    return len(ours)


async def log_shows(server: KirokuServer, text: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while text not in server.log():
        assert time.monotonic() < deadline, f"{text!r} not in the log:\n{server.log()}"
        await asyncio.sleep(0.05)


@pytest.mark.redis
@pytest.mark.postgres
def test_cut_redis_connections_are_reestablished(postgres_url: str, redis_prefix: str) -> None:
    async def scenario(a: KirokuServer, b: KirokuServer) -> None:
        async with (
            httpx.AsyncClient(base_url=a.base_url, timeout=10) as on_a,
            httpx.AsyncClient(base_url=b.base_url, timeout=10) as on_b,
        ):
            game_id, tokens = await start_game(on_a)
            follower = await Follower(on_b, game_id, bearer(tokens["seat:2"])).open()
            acked: dict[int, float] = {}
            body = {"type": "declare", "text": "before the cut"}
            last, acked[last] = await command(on_a, game_id, tokens["seat:1"], body)
            await follower.wait_for(last, timeout=2)

            assert cut_connections(redis_prefix) >= 2  # at least each server's subscriber
            await log_shows(b, "Redis subscribe failed")
            await log_shows(b, "Redis subscribe works again")
            for n in range(3):
                body = {"type": "declare", "text": f"after the cut {n}"}
                last, acked[last] = await command(on_a, game_id, tokens["seat:1"], body)
            await follower.wait_for(last, timeout=5)
            await asyncio.sleep(0.3)
            await follower.close()
            assert follower.seqs == list(range(1, last + 1))
            assert_latency([follower], acked)

    env = redis_env(redis_prefix)
    with running(*(KirokuServer(database_url=postgres_url, env=env) for _ in range(2))) as (a, b):
        asyncio.run(asyncio.wait_for(scenario(a, b), 30))


def test_unreachable_redis_stops_nothing(tmp_path: Path) -> None:
    nowhere = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    env = {"KIROKU_REDIS_URL": nowhere, "KIROKU_STREAM_HEARTBEAT": "0.5"}

    async def scenario(server: KirokuServer) -> None:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as http:
            game_id, tokens = await start_game(http)
            follower = await Follower(http, game_id, bearer(tokens["seat:2"])).open()
            acked: dict[int, float] = {}
            last = 0
            for n in range(5):
                sent = time.monotonic()
                body = {"type": "declare", "text": f"no redis {n}"}
                last, acked[last] = await command(http, game_id, tokens["seat:1"], body)
                assert acked[last] - sent < 0.5, "a command waited for Redis"
            await follower.wait_for(last, timeout=5)
            await follower.close()
            assert follower.seqs == list(range(1, last + 1))
            assert_latency([follower], acked)  # this worker's own streams need no Redis
            await log_shows(server, "Redis subscribe failed")

    with running(KirokuServer(db=tmp_path / "kiroku.db", env=env)) as (server,):
        asyncio.run(asyncio.wait_for(scenario(server), 30))
    assert "Finished server process" in server.last_log
