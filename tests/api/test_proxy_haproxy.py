"""Scale-out as shipped: the real HAProxy with deploy/haproxy.cfg in front of two `kiroku serve`
instances on one PostgreSQL schema and Redis (docs/how-to/scale-out.md).

Tables are played through the proxy, each by a seat signed in with a browser's session cookie
and by bearer tokens. Each instance's access log shows that every request of a game reached
one instance; the live streams, read through the proxy, deliver every event once, in order.
Then the instance holding the first game is killed (SIGKILL: no goodbye) and play goes on
through the proxy: the other instance takes its games, every acknowledged event is still
there exactly once, and a command retried with its Idempotency-Key is not stored twice.

HAProxy is Debian's package (`make test` installs it as root when it is missing): outside
CI this skips without it; with CI=true it fails.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from api.web import CSRF_HEADER
from tests.api.test_fanout_redis import bearer, redis_env, redis_prefix, running
from tests.api.test_stream_client import Follower
from tests.conftest import require_service
from tests.serverproc import KirokuServer, haproxy, haproxy_binary

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]
__all__ = ["redis_prefix"]  # the fixture, used here by name

GAMES = 4
ROUNDS = 6  # commands per game and round: cookie, bearer, bearer, …
GAME_PATH = re.compile(r'"[A-Z]+ /games/([0-9a-f-]{36})[/? ]')


def games_seen(server: KirokuServer) -> set[str]:
    """The games whose requests this instance's access log shows."""
    return set(GAME_PATH.findall(server.log() or server.last_log))


@dataclass
class Table:
    """One game played through the proxy: seat:1 by its browser's session cookie (`browser`),
    seat:2 and the GM by bearer tokens."""

    http: httpx.AsyncClient
    game_id: str
    tokens: dict[str, str]
    browser: httpx.AsyncClient
    acked: dict[int, dict[str, Any]] = field(default_factory=dict)  # seq → event as answered

    @classmethod
    async def open(cls, http: httpx.AsyncClient) -> Table:
        created = await http.post(
            "/games", json={"title": "Behind the proxy", "seats": ["Aki", "Ren"]}
        )
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        tokens = {"gm": created.json()["gm_token"]}
        for seat in created.json()["seats"]:
            joined = await http.post(f"/games/{game_id}/join", json={"invite": seat["invite"]})
            assert joined.status_code == 200, joined.text
            tokens[joined.json()["actor"]] = joined.json()["token"]
        signed = await http.post(f"/games/{game_id}/session", headers=bearer(tokens["seat:1"]))
        assert signed.status_code == 201, signed.text
        http.cookies.clear()  # the cookie is the browser's alone
        browser = httpx.AsyncClient(
            base_url=str(http.base_url), cookies=signed.cookies, timeout=http.timeout
        )
        table = cls(http, game_id, tokens, browser)
        await table.send("gm", {"type": "start"})
        return table

    def client(self, who: str) -> httpx.AsyncClient:
        return self.browser if who == "cookie" else self.http

    def headers(self, who: str) -> dict[str, str]:
        return {CSRF_HEADER: "1"} if who == "cookie" else bearer(self.tokens[who])

    async def send(self, who: str, body: dict[str, Any], key: str | None = None) -> int:
        """The command through the proxy, sent again with its key while no instance answers
        (the one holding the game was killed and the proxy has not noticed yet)."""
        headers = self.headers(who)
        if key is not None:
            headers["Idempotency-Key"] = key
        client = self.client(who)
        for _ in range(50):
            try:
                response = await client.post(
                    f"/games/{self.game_id}/commands", json=body, headers=headers
                )
            except httpx.TransportError:
                response = None
            if response is not None and response.status_code not in (502, 503, 504):
                break
            assert key is not None, "only a command with a key may be sent again"
            await asyncio.sleep(0.2)
        assert response is not None and response.status_code == 201, response
        reply = response.json()
        for event in reply["events"]:
            self.acked.setdefault(event["seq"], event)
        return int(reply["last_seq"])

    async def round(self, n: int, key: bool = False) -> int:
        who = ("cookie", "seat:2", "gm")[n % 3]
        body: dict[str, Any] = (
            {"type": "roll", "expression": "2D6"}
            if who == "gm"
            else {"type": "declare", "text": f"{who} declares {n} ({uuid.uuid4().hex[:8]})"}
        )
        return await self.send(who, body, key=f"k-{n}-{uuid.uuid4().hex}" if key else None)

    async def follow(self, who: str) -> Follower:
        headers = {} if who == "cookie" else bearer(self.tokens[who])
        return await Follower(self.client(who), self.game_id, headers).open()

    async def events(self, who: str) -> list[dict[str, Any]]:
        listing = await self.client(who).get(
            f"/games/{self.game_id}/events", headers=self.headers(who)
        )
        assert listing.status_code == 200, listing.text
        events: list[dict[str, Any]] = listing.json()["events"]
        return events


def test_two_instances_behind_haproxy_keep_each_game_on_one_and_lose_nothing(
    postgres_url: str, redis_prefix: str
) -> None:
    require_service("HAProxy", haproxy_binary() is not None, "Debian's haproxy: `make test`")
    servers = [
        KirokuServer(database_url=postgres_url, env=redis_env(redis_prefix), access_log=True)
        for _ in range(2)
    ]
    with running(*servers) as (a, b), haproxy([a.port, b.port]) as url:

        async def scenario() -> None:
            async with httpx.AsyncClient(base_url=url, timeout=15) as http:
                tables = [await Table.open(http) for _ in range(GAMES)]
                followers = {
                    (t.game_id, who): await t.follow(who)
                    for t in tables
                    for who in ("cookie", "gm")
                }
                for n in range(ROUNDS):
                    lasts = await asyncio.gather(*(t.round(n) for t in tables))
                for table, last in zip(tables, lasts, strict=True):
                    for who in ("cookie", "gm"):
                        follower = followers[(table.game_id, who)]
                        await follower.wait_for(last, timeout=10)
                await asyncio.sleep(0.3)  # room for a duplicate to show
                for (game_id, who), follower in followers.items():
                    table = next(t for t in tables if t.game_id == game_id)
                    assert follower.seqs == list(range(1, max(table.acked) + 1)), who
                    assert [m.json() for m in follower.messages] == await table.events(who)
                for follower in followers.values():
                    await follower.close()

                # Each game's requests reached one instance; both instances served some.
                seen = [games_seen(s) for s in (a, b)]
                for table in tables:
                    holders = [s for s in seen if table.game_id in s]
                    assert len(holders) == 1, f"game {table.game_id} reached both instances"

                # The instance holding the first game dies; play goes on through the proxy.
                victim = a if tables[0].game_id in seen[0] else b
                assert victim.process is not None
                os.killpg(victim.process.pid, signal.SIGKILL)
                victim.process.wait(timeout=10)
                for n in range(ROUNDS, ROUNDS + 3):
                    await asyncio.gather(*(t.round(n, key=True) for t in tables))
                # A command retried with its key after its answer was lost: stored once.
                again = {"type": "declare", "text": "once only"}
                first = await tables[0].send("seat:2", again, key="retry-me")
                assert await tables[0].send("seat:2", again, key="retry-me") == first

                for table in tables:
                    for who in ("cookie", "seat:2", "gm"):
                        listing = await table.events(who)
                        assert [e["seq"] for e in listing] == list(range(1, len(listing) + 1))
                    gm = await table.events("gm")
                    assert sum(e.get("public", {}).get("text") == "once only" for e in gm) <= 1
                    by_seq = {e["seq"]: e for e in gm}
                    for seq, event in table.acked.items():  # every acknowledged event, as sent
                        assert by_seq[seq]["hash"] == event["hash"], (table.game_id, seq)
                    verified = await http.get(
                        f"/games/{table.game_id}/verify", headers=bearer(table.tokens["gm"])
                    )
                    assert verified.status_code == 200 and verified.json()["ok"], verified.text
                    # A stream opened now, through the proxy, replays the whole game once.
                    late = await table.follow("gm")
                    await late.wait_for(len(gm), timeout=10)
                    await asyncio.sleep(0.2)
                    assert late.seqs == [e["seq"] for e in gm]
                    await late.close()

                for table in tables:
                    await table.browser.aclose()

        asyncio.run(asyncio.wait_for(scenario(), 120))
