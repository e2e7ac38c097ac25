"""GET /games/{id}/stream over real HTTP: a real uvicorn serving the app in a thread of this
process (so a test can also look at the worker's feeds), clients reading with httpx.

Each stream gets every event it may see, in seq order, exactly once, redacted for its own
audience (checked on the raw bytes); resuming with Last-Event-ID (or ?after=) gives exactly
the missing events; errors come as problem+json before any stream starts; a client that goes
away releases its subscription; 50 streams of one game cost one store read per notification.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from api.app import create_app
from api.live import Live
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService
from domain.model.records import Recorded
from tests.api.test_stream_client import Follower
from tests.serverproc import free_port

HEARTBEAT = 0.3
# Longer than any test: only notifications (never the periodic look) can wake a stream here.
RECHECK = 60.0


class CountingService(GameService):
    """A real GameService that counts its event-list reads (what a stream costs the store)."""

    def __init__(self, env: dict[str, str]) -> None:
        wired = bootstrap(env=env)
        super().__init__(wired.games, wired.writer, wired.bcdice)
        self.reads = 0
        self._reads_lock = threading.Lock()

    def records(self, game_id: str, after: int = 0, upto: int | None = None) -> Iterator[Recorded]:
        with self._reads_lock:
            self.reads += 1
        return super().records(game_id, after, upto)


class ThreadedServer:
    """uvicorn on a free loopback port, in a daemon thread of the test process."""

    def __init__(self, service: GameService) -> None:
        self.app = create_app(service)
        self.port = free_port()
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def live(self) -> Live:
        return self.app.state.live

    def __enter__(self) -> ThreadedServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert self.thread.is_alive(), "uvicorn exited during startup"
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        # In a thread uvicorn installs no signal handlers: end the streams as SIGTERM would.
        self.live.end_streams()
        self.server.should_exit = True
        self.thread.join(timeout=10)
        assert not self.thread.is_alive(), "uvicorn did not stop"


@pytest.fixture
def counting_service(sqlite_env: dict[str, str]) -> Iterator[CountingService]:
    service = CountingService(sqlite_env)
    yield service
    service.close()


@pytest.fixture
def server(
    counting_service: CountingService, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ThreadedServer]:
    monkeypatch.delenv("KIROKU_REDIS_URL", raising=False)
    monkeypatch.setenv("KIROKU_STREAM_HEARTBEAT", str(HEARTBEAT))
    monkeypatch.setenv("KIROKU_STREAM_RECHECK", str(RECHECK))
    with ThreadedServer(counting_service) as running:
        yield running


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class Game:
    """A started game with every seat joined; `tokens` maps actor → token (public: None)."""

    def __init__(self, http: httpx.AsyncClient, game_id: str, tokens: dict[str, str | None]):
        self.http = http
        self.game_id = game_id
        self.tokens = tokens

    @classmethod
    async def start(cls, http: httpx.AsyncClient, seats: int = 2, **options: Any) -> Game:
        names = [f"P{n}" for n in range(1, seats + 1)]
        body = {"title": "Live table", "seats": names, "options": options}
        created = await http.post("/games", json=body)
        assert created.status_code == 201, created.text
        data = created.json()
        tokens: dict[str, str | None] = {"gm": data["gm_token"], "public": None}
        for seat in data["seats"]:
            joined = await http.post(
                f"/games/{data['game_id']}/join", json={"invite": seat["invite"]}
            )
            assert joined.status_code == 200, joined.text
            tokens[joined.json()["actor"]] = joined.json()["token"]
        game = cls(http, data["game_id"], tokens)
        await game.do("gm", {"type": "start"})
        return game

    def follower(self, actor: str, **headers: str) -> Follower:
        return Follower(self.http, self.game_id, {**bearer(self.tokens[actor]), **headers})

    async def do(self, actor: str, body: dict[str, Any]) -> int:
        response = await self.http.post(
            f"/games/{self.game_id}/commands", json=body, headers=bearer(self.tokens[actor])
        )
        assert response.status_code == 201, response.text
        return int(response.json()["last_seq"])

    async def events(self, actor: str) -> list[dict[str, Any]]:
        response = await self.http.get(
            f"/games/{self.game_id}/events", headers=bearer(self.tokens[actor])
        )
        assert response.status_code == 200, response.text
        return response.json()["events"]


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 30))


def test_streams_get_every_event_once_in_order_redacted_per_audience(
    server: ThreadedServer,
) -> None:
    viewers = ("seat:1", "seat:2", "gm", "public")

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as http:
            game = await Game.start(http)
            followers = {v: await game.follower(v).open() for v in viewers}
            marks = {seat: f"NOTE-{seat}-{uuid.uuid4().hex}" for seat in ("seat:1", "seat:2")}
            last = 0
            for round_ in range(3):
                for seat, mark in marks.items():
                    note = {"type": "note", "text": f"{mark}-{round_}"}
                    last = await game.do(seat, note)
                    last = await game.do(seat, {"type": "declare", "text": f"{seat} {round_}"})
                last = await game.do("gm", {"type": "roll", "expression": "S2D6"})
            for follower in followers.values():
                await follower.wait_for(last)
            await asyncio.sleep(2 * HEARTBEAT)  # room for a duplicate or a stray event to show
            for follower in followers.values():
                await follower.close()

            for viewer, follower in followers.items():
                assert follower.seqs == list(range(1, last + 1)), viewer
                # The same JSON as /events gives this audience, event by event.
                assert [m.json() for m in follower.messages] == await game.events(viewer)
                assert [m.event for m in follower.messages] == [
                    m.json()["type"] for m in follower.messages
                ]
                raw = bytes(follower.raw)
                for seat, mark in marks.items():
                    may_read = viewer in (seat, "gm")
                    assert (mark.encode() in raw) is may_read, (viewer, seat)
                assert b"salt" not in raw
            # The GM reads the secret rolls' faces; a seat sees only their commitments.
            assert b'"secret":{' in bytes(followers["gm"].raw)
            gm_secrets = [m.json()["secret"] for m in followers["gm"].messages]
            seat_secrets = [m.json()["secret"] for m in followers["seat:1"].messages]
            assert sum(s is not None for s in gm_secrets) == 9
            assert sum(s is not None for s in seat_secrets) == 3  # its own notes only

    run(scenario())


def test_resume_with_last_event_id_gives_exactly_the_missing_events(
    server: ThreadedServer,
) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as http:
            game = await Game.start(http)
            first = game.follower("seat:1")
            await first.open()
            for n in range(5):
                await game.do("seat:2", {"type": "declare", "text": f"before {n}"})
            await first.wait_for(4 + 5)
            await first.close()
            seen = first.last_seq
            assert seen == 9

            for n in range(4):  # appended while seat:1 is away
                last = await game.do("seat:2", {"type": "declare", "text": f"away {n}"})

            by_header = await game.follower("seat:1", **{"Last-Event-ID": str(seen)}).open()
            by_query = await game.follower("seat:1").open({"after": seen})
            # The header is what EventSource sends on its own reconnects: it beats the URL.
            both = await game.follower("seat:1", **{"Last-Event-ID": str(seen)}).open({"after": 2})
            resumed = (by_header, by_query, both)
            last = await game.do("seat:1", {"type": "declare", "text": "back"})
            for follower in resumed:
                await follower.wait_for(last)
            await asyncio.sleep(2 * HEARTBEAT)
            for follower in resumed:
                await follower.close()
                assert follower.seqs == list(range(seen + 1, last + 1))
            texts = [m.json()["public"]["text"] for m in by_header.messages]
            assert texts == [f"away {n}" for n in range(4)] + ["back"]
            assert first.seqs + by_header.seqs == list(range(1, last + 1))

    run(scenario())


def test_errors_are_problem_json_before_any_stream(server: ThreadedServer) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as http:
            game = await Game.start(http)
            private = await Game.start(http, spectators=False)
            cases = [
                (game.game_id, bearer("not-a-token"), 401, "bad_token"),
                (private.game_id, {}, 401, "token_required"),
                (str(uuid.uuid4()), bearer(game.tokens["gm"]), 404, "game_not_found"),
                ("not-a-game", {}, 404, "game_not_found"),
                (game.game_id, {**bearer(game.tokens["gm"]), "Last-Event-ID": "x1"}, 422, None),
            ]
            for game_id, headers, status, code in cases:
                follower = await Follower(http, game_id, headers).open()
                await follower.close()
                assert follower.status == status, (game_id, headers, bytes(follower.raw))
                body = httpx.Response(status, content=bytes(follower.raw)).json()
                assert body["status"] == status
                if code is not None:
                    assert body["code"] == code
                assert b"event:" not in follower.raw

            response = await http.get(
                f"/games/{game.game_id}/stream", headers=bearer("not-a-token")
            )
            assert response.headers["content-type"] == "application/problem+json"
            assert response.headers["www-authenticate"] == "Bearer"
            # A spectator may follow a public game; it was refused only where it must be.
            public = await game.follower("public").open()
            await public.wait_for(4)
            await public.close()
            assert public.status == 200

    run(scenario())


def test_idle_stream_gets_heartbeats(server: ThreadedServer) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as http:
            game = await Game.start(http)
            follower = await game.follower("seat:1").open()
            await follower.wait_until(lambda f: len(f.parser.comments) >= 3, timeout=5)
            await follower.close()
            assert follower.seqs == [1, 2, 3, 4]
            assert follower.parser.retry == 1000

    run(scenario())


def test_disconnected_clients_release_their_subscription(server: ThreadedServer) -> None:
    hub = server.live.hub

    async def eventually(condition: Any, what: str) -> None:
        deadline = time.monotonic() + 5
        while not condition():
            assert time.monotonic() < deadline, what
            await asyncio.sleep(0.02)

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as http:
            game = await Game.start(http)
            followers = [await game.follower(a).open() for a in ("seat:1", "seat:2", "gm")]
            await eventually(lambda: hub.subscribers == 3, "3 subscribers")
            feed = hub.feed(game.game_id)
            assert feed is not None

            await followers[0].close()
            await eventually(lambda: hub.subscribers == 2, "one subscriber fewer")
            last = await game.do("seat:1", {"type": "declare", "text": "still here"})
            for follower in followers[1:]:
                await follower.wait_for(last)
            await followers[1].close()
            await followers[2].close()
            await eventually(lambda: hub.feed(game.game_id) is None, "the feed is gone")
            assert hub.subscribers == 0
            assert feed.closed

            # A later client starts a fresh feed and still misses nothing.
            again = await game.follower("seat:2").open()
            await again.wait_for(last)
            await again.close()
            assert again.seqs == list(range(1, last + 1))

    run(scenario())


def test_fifty_streams_cost_one_store_read_per_notification(
    server: ThreadedServer, counting_service: CountingService
) -> None:
    hub = server.live.hub
    clients, commands = 50, 10

    async def scenario() -> None:
        async with httpx.AsyncClient(
            base_url=server.base_url,
            timeout=10,
            limits=httpx.Limits(max_connections=clients + 5),
        ) as http:
            game = await Game.start(http, seats=4)
            audiences = ["gm", "public", "seat:1", "seat:2", "seat:3", "seat:4"]
            followers = await asyncio.gather(
                *(game.follower(audiences[i % len(audiences)]).open() for i in range(clients))
            )
            deadline = time.monotonic() + 5
            while hub.subscribers < clients:
                assert time.monotonic() < deadline, hub.subscribers
                await asyncio.sleep(0.02)
            feed = hub.feed(game.game_id)
            assert feed is not None
            await asyncio.gather(*(f.wait_for(6) for f in followers))
            before, reads_before = feed.fetches, counting_service.reads

            last = 0
            for n in range(commands):
                last = await game.do(f"seat:{n % 4 + 1}", {"type": "declare", "text": f"n{n}"})
            await asyncio.gather(*(f.wait_for(last) for f in followers))
            fetches = feed.fetches - before
            reads = counting_service.reads - reads_before
            for follower in followers:
                await follower.close()

            assert all(f.seqs == list(range(1, last + 1)) for f in followers)
            # Whoever reads (feed or stream), the store was asked at most once per command.
            assert 1 <= reads <= commands, f"{reads} store reads for {commands} notifications"
            # Every read came through the shared feed; a periodic re-check that finds nothing
            # new (a slow machine) is a fetch without a read.
            assert reads <= fetches

    run(scenario())


def test_the_feed_keeps_bytes_for_its_audiences_and_sends_others_to_the_store(
    server: ThreadedServer,
) -> None:
    """The feed's buffer holds each read encoded for the audiences following the game then,
    not the events: another audience's stream is told to read the store (None), and its own
    audience's gets exactly the messages after its cursor."""
    hub = server.live.hub

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as http:
            game = await Game.start(http, seats=2)
            follower = await game.follower("seat:1").open()
            last = 0
            for n in range(4):
                last = await game.do(
                    "seat:2", {"type": "note", "text": f"MARKER-{n}", "to": ["gm"]}
                )
            await follower.wait_for(last)
            feed = hub.feed(game.game_id)
            assert feed is not None and feed.head == last
            kept = feed.messages(last - 3, "seat:1")
            assert kept is not None and [seq for seq, _ in kept] == [last - 2, last - 1, last]
            assert all(b"MARKER-" not in message for _, message in kept), kept
            assert feed.messages(last, "seat:1") == []
            assert feed.messages(last - 3, "seat:2") is None  # never encoded for seat 2
            await follower.close()
            # a seat-2 stream from the same point reads the store: its own notes, each once
            after = await game.follower("seat:2", **{"Last-Event-ID": str(last - 3)}).open()
            await after.wait_for(last)
            assert after.seqs == [last - 2, last - 1, last]
            assert b"MARKER-0" not in after.raw
            assert all(f"MARKER-{n}".encode() in after.raw for n in (1, 2, 3))
            await after.close()

    run(scenario())


def test_openapi_documents_the_stream(client: TestClient) -> None:
    response = client.get("/openapi.json")
    assert response.status_code == 200, response.text
    operation = response.json()["paths"]["/games/{game_id}/stream"]["get"]
    assert "text/event-stream" in operation["responses"]["200"]["content"]
    assert {p["name"] for p in operation["parameters"]} >= {"last-event-id", "after"}
