"""4 uvicorn workers on one PostgreSQL database, 32 clients appending to the same game at once.

Afterwards exactly the acknowledged events exist (each one where its response said, with the
hash it said), seq is contiguous, nothing is duplicated or reordered, the chain and every
fair draw verify, and an Idempotency-Key sent by two clients at the same moment appends once.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from tests.serverproc import KirokuServer, group_members

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

WORKERS = 4
CLIENTS = 32
COMMANDS_EACH = 10
SEATS = 8
IDEMPOTENT_PAIRS = 6


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def marker_of(event: dict[str, Any]) -> str | None:
    """The unique tag a client put into its command: a declaration's text or a roll's entropy."""
    public = event["public"]
    if event["type"] == "Declared":
        return public["text"]
    if event["type"] == "DiceRolled" and public.get("roll"):
        return public["roll"]["draw"]["entropy"]
    return None


def body_for(client: int, n: int) -> dict[str, Any]:
    marker = f"c{client}-n{n}"
    if (client + n) % 2:
        return {"type": "declare", "text": marker}
    return {"type": "roll", "expression": "2d6+1>=8", "entropy": marker}


@pytest.fixture
def server(postgres_url: str) -> Iterator[KirokuServer]:
    with KirokuServer(database_url=postgres_url, workers=WORKERS) as running:
        yield running


def conflicts_retried(postgres_url: str) -> int | None:
    """Rows inserted by aborted appends (one per lost optimistic race), from PostgreSQL's table
    statistics; informational only, so None when the statistics are not flushed in time."""
    import psycopg

    schema = parse_qs(urlparse(postgres_url).query)["schema"][0]
    deadline = time.monotonic() + 3
    with psycopg.connect(postgres_url.split("?")[0], autocommit=True) as conn:
        stored = conn.execute(f'SELECT count(*) FROM "{schema}".kiroku_events').fetchone()
        while time.monotonic() < deadline:
            row = conn.execute(
                "SELECT n_tup_ins FROM pg_stat_user_tables "
                "WHERE schemaname = %s AND relname = 'kiroku_events'",
                (schema,),
            ).fetchone()
            if row and stored and row[0] >= stored[0]:
                return int(row[0] - stored[0])
            time.sleep(0.1)
    return None


def test_32_clients_on_4_workers_share_one_game(server: KirokuServer, postgres_url: str) -> None:
    with httpx.Client(base_url=server.base_url, timeout=30.0) as http:
        created = http.post(
            "/games", json={"title": "Crowd", "seats": [f"P{n}" for n in range(1, SEATS + 1)]}
        )
        assert created.status_code == 201, created.text
        game_id, gm = created.json()["game_id"], created.json()["gm_token"]
        tokens = {"gm": gm}
        for seat in created.json()["seats"]:
            joined = http.post(f"/games/{game_id}/join", json={"invite": seat["invite"]})
            assert joined.status_code == 200, joined.text
            tokens[joined.json()["actor"]] = joined.json()["token"]
        start = http.post(f"/games/{game_id}/commands", json={"type": "start"}, headers=bearer(gm))
        assert start.status_code == 201, start.text
        setup_seqs = start.json()["last_seq"]
        assert setup_seqs == 1 + SEATS + 1

    # Client i acts as seat (i mod 8)+1, except every 8th client, which is the GM.
    actors = ["gm" if i % 8 == 7 else f"seat:{i % SEATS + 1}" for i in range(CLIENTS)]
    acknowledged: dict[int, list[dict[str, Any]]] = {i: [] for i in range(CLIENTS)}
    failures: list[str] = []
    idempotent: list[list[dict[str, Any]]] = [[] for _ in range(IDEMPOTENT_PAIRS)]
    go = threading.Barrier(CLIENTS + 2)
    pair_barrier = threading.Barrier(2)

    def run_client(i: int) -> None:
        with httpx.Client(base_url=server.base_url, timeout=60.0) as client:
            go.wait()
            for n in range(COMMANDS_EACH):
                response = client.post(
                    f"/games/{game_id}/commands",
                    json=body_for(i, n),
                    headers=bearer(tokens[actors[i]]),
                )
                if response.status_code != 201:
                    failures.append(
                        f"client {i} command {n}: {response.status_code} {response.text}"
                    )
                    continue
                acknowledged[i].append(response.json())

    def run_idempotent_twin() -> None:
        # Two clients with seat:1's token send the same command with the same key at once.
        with httpx.Client(base_url=server.base_url, timeout=60.0) as client:
            go.wait()
            for k in range(IDEMPOTENT_PAIRS):
                pair_barrier.wait()
                response = client.post(
                    f"/games/{game_id}/commands",
                    json={"type": "declare", "text": f"idem-{k}"},
                    headers={**bearer(tokens["seat:1"]), "Idempotency-Key": f"twin-{k}"},
                )
                if response.status_code != 201:
                    failures.append(f"twin {k}: {response.status_code} {response.text}")
                    continue
                idempotent[k].append(response.json())

    threads = [threading.Thread(target=run_client, args=(i,)) for i in range(CLIENTS)]
    threads += [threading.Thread(target=run_idempotent_twin) for _ in range(2)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=240)
    elapsed = time.monotonic() - began
    assert not any(thread.is_alive() for thread in threads), "a client hung"
    assert failures == []

    with httpx.Client(base_url=server.base_url, timeout=30.0) as http:
        listing = http.get(f"/games/{game_id}/events", params={"limit": 5000}, headers=bearer(gm))
        assert listing.status_code == 200, listing.text
        stored = listing.json()["events"]
        report = http.get(f"/games/{game_id}/verify", headers=bearer(gm)).json()

    total = setup_seqs + CLIENTS * COMMANDS_EACH + IDEMPOTENT_PAIRS
    print(
        f"\n{CLIENTS * COMMANDS_EACH + 2 * IDEMPOTENT_PAIRS} commands from {CLIENTS + 2} clients "
        f"on {WORKERS} workers in {elapsed:.2f}s "
        f"({CLIENTS * COMMANDS_EACH / elapsed:.0f} appends/s)"
    )

    # seq is contiguous 1..N, and N is exactly what was set up plus what was acknowledged.
    assert [e["seq"] for e in stored] == list(range(1, total + 1))
    assert listing.json()["last_seq"] == total
    by_seq = {e["seq"]: e for e in stored}

    # Every acknowledged event is stored at the seq, with the hash, its response gave.
    acked_seqs: list[int] = []
    for i, responses in acknowledged.items():
        assert len(responses) == COMMANDS_EACH
        own_seqs = []
        for n, response in enumerate(responses):
            (event,) = response["events"]
            assert event["actor"] == actors[i]
            assert marker_of(event) == f"c{i}-n{n}"
            assert by_seq[event["seq"]]["hash"] == event["hash"]
            assert by_seq[event["seq"]] == event
            assert response["replayed"] is False
            own_seqs.append(event["seq"])
        assert own_seqs == sorted(own_seqs), f"client {i}'s commands were reordered"
        acked_seqs += own_seqs

    # The idempotent twins: both got the same single event, exactly one of them appended it.
    for k, pair in enumerate(idempotent):
        assert len(pair) == 2
        first, second = (r["events"] for r in pair)
        assert first == second and len(first) == 1
        assert by_seq[first[0]["seq"]] == first[0]
        assert sorted(r["replayed"] for r in pair) == [False, True], f"twin-{k}"
        acked_seqs.append(first[0]["seq"])

    # Nothing stored that nobody was told about, and nothing twice.
    assert sorted(acked_seqs) == list(range(setup_seqs + 1, total + 1))
    markers = Counter(marker_of(e) for e in stored if e["seq"] > setup_seqs)
    assert max(markers.values()) == 1, markers.most_common(3)
    assert set(markers) == {f"c{i}-n{n}" for i in range(CLIENTS) for n in range(COMMANDS_EACH)} | {
        f"idem-{k}" for k in range(IDEMPOTENT_PAIRS)
    }

    assert report["ok"] is True, report
    assert report["chain"] == {**report["chain"], "ok": True, "events": total}

    # End the game: every concurrent roll must then verify against the revealed seed, and the
    # draw numbers must run 1..n without a gap or repeat (no two workers drew the same roll).
    with httpx.Client(base_url=server.base_url, timeout=30.0) as http:
        ended = http.post(f"/games/{game_id}/commands", json={"type": "end"}, headers=bearer(gm))
        assert ended.status_code == 201, ended.text
        final = http.get(f"/games/{game_id}/verify", headers=bearer(gm)).json()
    rolls = sum(1 for e in stored if e["type"] == "DiceRolled")
    assert final["ok"] is True, final
    assert final["secrets"]["findings"] == []
    assert final["secrets"]["checked_draws"] == rolls

    pgid = server.process.pid if server.process else 0
    server.stop()  # backends flush their statistics as their connections close
    assert group_members(pgid) == []  # the supervisor and all 4 workers are gone
    print(f"conflicting appends retried server-side: {conflicts_retried(postgres_url)}")
