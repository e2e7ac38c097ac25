"""32 clients on 4 workers share one game; kill -9 mid-load; every client retries what it was
never told about.

`kiroku serve --workers 4` on PostgreSQL (and the same on SQLite); 32 clients append keyed
commands (an Idempotency-Key each) to one game as fast as they can; the server's whole process
group gets SIGKILL mid-load; it restarts on the same store; pairs of clients send one command
with one key at the same moment while more than 256 other keyed commands go in; then each
client retries every command it got no answer for, and a sample of those it did. Afterwards
each command is in the log exactly once, an acknowledged one where and as its answer said (a
client's in the order it sent them), a pair's once with the same answer to both, seq has no
gap, the chain verifies, and — after the end reveals the seed — every fair draw verifies and
the draw numbers run 1..n (no two workers drew the same roll, a retry never rolled again).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.serverproc import KirokuServer, group_members

pytestmark = pytest.mark.slow

WORKERS = 4
CLIENTS = 32
SEATS = 8
KILL_AFTER = 160  # acknowledged commands before the kill: the load is in full swing
OTHERS = 300  # keyed commands after the restart, before the retries (more than 256)
PAIRS = 6  # one command sent by two clients at once, with one key


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def body_for(marker: str, n: int) -> dict[str, Any]:
    if n % 2:
        return {"type": "declare", "text": marker}
    return {"type": "roll", "expression": "2d6", "entropy": marker}


def marker_of(event: dict[str, Any]) -> str | None:
    """The unique tag a client put into its command: a declaration's text or a roll's entropy."""
    public = event["public"]
    if event["type"] == "Declared":
        return str(public["text"])
    if event["type"] == "DiceRolled" and public.get("roll"):
        return str(public["roll"]["draw"]["entropy"])
    return None


@dataclass
class Client:
    number: int
    actor: str
    acked: dict[str, dict[str, Any]] = field(default_factory=dict)  # marker → its event
    unanswered: list[tuple[str, int]] = field(default_factory=list)  # (marker, n)


@dataclass
class Game:
    game_id: str
    tokens: dict[str, str]


def setup_game(base_url: str) -> Game:
    with httpx.Client(base_url=base_url, timeout=30) as http:
        created = http.post(
            "/games", json={"title": "Crash", "seats": [f"P{n}" for n in range(1, SEATS + 1)]}
        )
        assert created.status_code == 201, created.text
        game_id, gm = created.json()["game_id"], created.json()["gm_token"]
        tokens = {"gm": gm}
        for seat in created.json()["seats"]:
            joined = http.post(f"/games/{game_id}/join", json={"invite": seat["invite"]})
            tokens[joined.json()["actor"]] = joined.json()["token"]
        started = http.post(
            f"/games/{game_id}/commands", json={"type": "start"}, headers=bearer(gm)
        )
        assert started.status_code == 201, started.text
    return Game(game_id, tokens)


def send(http: httpx.Client, game: Game, actor: str, marker: str, n: int) -> dict[str, Any] | None:
    """The command's answer, or None when none came (refused connection, cut-off response)."""
    try:
        response = http.post(
            f"/games/{game.game_id}/commands",
            json=body_for(marker, n),
            headers={**bearer(game.tokens[actor]), "Idempotency-Key": marker},
        )
    except httpx.HTTPError:
        return None
    assert response.status_code == 201, response.text
    return response.json()


def load_until_killed(server: KirokuServer, game: Game, clients: list[Client]) -> None:
    acked = Counter[str]()
    lock = threading.Lock()

    def run(client: Client) -> None:
        with httpx.Client(base_url=server.base_url, timeout=30) as http:
            n = 0
            # Until the server is gone: a client that stopped on `stop` instead could have had
            # its last answer just before the kill and lose nothing.
            while True:
                marker = f"c{client.number}-n{n}"
                answer = send(http, game, client.actor, marker, n)
                if answer is None:
                    client.unanswered.append((marker, n))
                    return  # the server is gone; this client waits for it to come back
                (client.acked[marker],) = answer["events"]
                with lock:
                    acked["total"] += 1
                n += 1

    threads = [threading.Thread(target=run, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while acked["total"] < KILL_AFTER and time.monotonic() < deadline:
        time.sleep(0.005)
    assert server.process is not None
    pgid = server.process.pid  # start_new_session: the server leads its own group
    os.killpg(pgid, signal.SIGKILL)  # supervisor and every worker, mid-request
    for thread in threads:
        thread.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a client hung"
    while group_members(pgid):
        time.sleep(0.05)
    server.process.wait(timeout=10)
    server.process = None


def send_in_pairs(base_url: str, game: Game) -> list[list[dict[str, Any] | None]]:
    """PAIRS commands, each sent by two clients with seat:1's token and one key at once."""
    answers: list[list[dict[str, Any] | None]] = [[] for _ in range(PAIRS)]
    together = threading.Barrier(2)

    def run() -> None:
        with httpx.Client(base_url=base_url, timeout=30) as http:
            for k in range(PAIRS):
                together.wait()
                answers[k].append(send(http, game, "seat:1", f"pair-{k}", 1))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


def all_events(http: httpx.Client, game: Game) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        page = http.get(
            f"/games/{game.game_id}/events",
            params={"after": len(events), "limit": 5000},
            headers=bearer(game.tokens["gm"]),
        ).json()
        events += page["events"]
        if len(events) >= page["last_seq"]:
            return events


@pytest.fixture(params=[pytest.param("postgres", marks=pytest.mark.postgres), "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    if request.param == "postgres":
        return {"database_url": request.getfixturevalue("postgres_url")}
    return {"db": tmp_path / "kiroku.db"}


def test_kill_9_mid_load_then_every_retry_appends_once(store: dict[str, Any]) -> None:
    first = KirokuServer(workers=WORKERS, **store).start()
    try:
        game = setup_game(first.base_url)
        actors = ["gm" if i % 8 == 7 else f"seat:{i % SEATS + 1}" for i in range(CLIENTS)]
        clients = [Client(i, actors[i]) for i in range(CLIENTS)]
        load_until_killed(first, game, clients)
    finally:
        first.stop()
    unanswered = [m for c in clients for m in c.unanswered]
    assert len(unanswered) == CLIENTS  # each client lost exactly its in-flight command

    with (
        KirokuServer(workers=WORKERS, **store) as second,
        httpx.Client(base_url=second.base_url, timeout=30) as http,
    ):
        assert second.process is not None
        pgid = second.process.pid
        with ThreadPoolExecutor(1) as beside:
            pairs_sent = beside.submit(send_in_pairs, second.base_url, game)
            # More than 256 other keyed commands, from every seat and the GM, before any retry.
            for k in range(OTHERS):
                actor = "gm" if k % 9 == 8 else f"seat:{k % SEATS + 1}"
                assert send(http, game, actor, f"other-{k}", k) is not None
            pairs = pairs_sent.result(timeout=120)

        replayed = Counter[bool]()
        for client in clients:
            for marker, n in client.unanswered:
                answer = send(http, game, client.actor, marker, n)
                assert answer is not None
                replayed[answer["replayed"]] += 1
            # Retrying something that was answered gives that answer again, appending nothing.
            for marker, event in list(client.acked.items())[:2]:
                n = int(marker.rsplit("-n", 1)[1])
                answer = send(http, game, client.actor, marker, n)
                assert answer is not None and answer["replayed"] is True
                assert answer["events"] == [event]
        print(
            f"\n{sum(len(c.acked) for c in clients)} acknowledged before the kill; of the "
            f"{len(unanswered)} unanswered, {replayed[True]} had been stored (the retry got "
            f"their answer), {replayed[False]} had not (the retry appended them)"
        )

        events = all_events(http, game)
        report = http.get(f"/games/{game.game_id}/verify", headers=bearer(game.tokens["gm"]))
        assert report.json()["ok"] is True, report.text

        # No gap, and every command exactly once.
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        markers = Counter(marker_of(e) for e in events if marker_of(e) is not None)
        expected = {m for c in clients for m in c.acked} | {m for m, _ in unanswered}
        expected |= {f"other-{k}" for k in range(OTHERS)} | {f"pair-{k}" for k in range(PAIRS)}
        assert set(markers) == expected
        assert max(markers.values()) == 1, markers.most_common(3)
        by_seq = {e["seq"]: e for e in events}
        for client in clients:  # where and as its answer said, in the order sent
            seqs = [event["seq"] for event in client.acked.values()]
            assert seqs == sorted(seqs), f"client {client.number}'s commands were reordered"
            for event in client.acked.values():
                assert event["actor"] == client.actor and by_seq[event["seq"]] == event
        for k, pair in enumerate(pairs):  # both got the one event, one of them appended it
            a, b = (answer for answer in pair if answer is not None)
            assert a["events"] == b["events"] == [by_seq[a["last_seq"]]], k
            assert sorted([a["replayed"], b["replayed"]]) == [False, True], k

        # The end reveals the seed: every draw verifies and draw numbers run 1..n.
        ended = http.post(
            f"/games/{game.game_id}/commands",
            json={"type": "end"},
            headers=bearer(game.tokens["gm"]),
        )
        assert ended.status_code == 201, ended.text
        final = http.get(f"/games/{game.game_id}/verify", headers=bearer(game.tokens["gm"])).json()
        assert final["ok"] is True, final["note"]
        assert final["secrets"]["findings"] == []
        rolls = sum(1 for e in events if e["type"] == "DiceRolled")
        assert final["secrets"]["checked_draws"] == rolls
    assert group_members(pgid) == []  # the supervisor and all 4 workers are gone
