"""Game→worker affinity on PostgreSQL (api/affinity.py, domain/ownership.py).

A game's commands are run by its owner, whichever worker they reached: exactly once, in one
chain, each caller answered with its own outcome — the same bytes the owner would answer
itself, refusals included — and Idempotency-Keys behave as without owners. When the owner
dies, another worker takes the game.

Two apps in this process (each its own service, ownership session and socket) show where
each command ran; real `kiroku serve` processes show the rest.
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
from fastapi.testclient import TestClient

from api.affinity import AFFINITY_ENV
from api.app import create_app
from domain.config import store_env
from domain.service import GameService
from tests.serverproc import KirokuServer

pytestmark = pytest.mark.postgres


def bearer(token: str, key: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    return headers


def owners(postgres_url: str) -> list[tuple[Any, ...]]:
    import psycopg

    schema = parse_qs(urlparse(postgres_url).query)["schema"][0]
    with psycopg.connect(postgres_url.split("?")[0], autocommit=True) as conn:
        return conn.execute(f'SELECT key, address FROM "{schema}".kiroku_owners').fetchall()


@pytest.fixture
def two_apps(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TestClient, TestClient]]:
    monkeypatch.setenv(AFFINITY_ENV, "on")
    env = store_env(database_url=postgres_url)
    with (
        TestClient(create_app(GameService(env))) as a,
        TestClient(create_app(GameService(env))) as b,
    ):
        yield a, b
        for client in (a, b):
            client.app.state.service.close()  # type: ignore[attr-defined]


def test_commands_sent_to_another_worker_run_at_the_owner(
    two_apps: tuple[TestClient, TestClient], postgres_url: str
) -> None:
    a, b = two_apps
    affinity_a = a.app.state.affinity  # type: ignore[attr-defined]
    affinity_b = b.app.state.affinity  # type: ignore[attr-defined]
    assert affinity_a is not None and affinity_b is not None
    created = a.post("/games", json={"title": "Owned", "seats": ["A"]})
    assert created.status_code == 201, created.text
    game_id, gm = created.json()["game_id"], created.json()["gm_token"]
    url = f"/games/{game_id}/commands"

    started = a.post(url, json={"type": "start"}, headers=bearer(gm))
    assert started.status_code == 201, started.text
    assert affinity_a.ownership.owns(game_id)  # the first worker asked took the game
    assert [address for _key, address in owners(postgres_url)] == [affinity_a.ownership.address]

    # A command sent to b runs at a, the owner; b never takes the game.
    rolled = b.post(url, json={"type": "roll", "expression": "2d6"}, headers=bearer(gm, "k1"))
    assert rolled.status_code == 201, rolled.text
    assert (affinity_b.forwarded, affinity_a.served) == (1, 1)
    assert not affinity_b.ownership.owns(game_id)
    assert rolled.json()["last_seq"] == 3 and rolled.json()["replayed"] is False
    assert rolled.headers["content-type"] == "application/json"
    assert rolled.headers["kiroku-head"].startswith("3 ")
    assert rolled.headers["content-security-policy"]  # b's own middleware, once
    assert len(rolled.headers.get_list("x-frame-options")) == 1

    # The retry, through either worker, is answered from the record.
    for client in (b, a):
        again = client.post(
            url, json={"type": "roll", "expression": "2d6"}, headers=bearer(gm, "k1")
        )
        assert again.status_code == 201, again.text
        assert again.json()["replayed"] is True
        assert again.json()["events"] == rolled.json()["events"]
        assert again.headers["idempotent-replayed"] == "true"
    reused = b.post(url, json={"type": "roll", "expression": "3d6"}, headers=bearer(gm, "k1"))
    assert reused.status_code == 409 and reused.json()["code"] == "idempotency_key_reused"

    # A refusal handed over is the owner's own, byte for byte, and appends nothing.
    refused_b = b.post(url, json={"type": "start"}, headers=bearer(gm))
    refused_a = a.post(url, json={"type": "start"}, headers=bearer(gm))
    assert refused_b.status_code == refused_a.status_code == 409
    assert refused_b.content == refused_a.content
    assert refused_b.headers["content-type"] == "application/problem+json"
    # So is what the declared route answers behind the lane (an unknown token, a bad body).
    for headers, body in (
        (bearer("not-a-token"), {"type": "roll", "expression": "2d6"}),
        (bearer(gm), {"type": "no-such-command"}),
    ):
        from_b, from_a = (c.post(url, json=body, headers=headers) for c in (b, a))
        assert from_b.status_code == from_a.status_code and from_b.status_code >= 400
        assert from_b.content == from_a.content
    listing = b.get(f"/games/{game_id}/events", headers=bearer(gm))
    assert listing.json()["last_seq"] == 3
    assert affinity_b.forwarded >= 6 and not affinity_b.ownership.owns(game_id)

    # Views on the other worker catch up from the store as before.
    view = b.get(f"/games/{game_id}/view", headers=bearer(gm))
    assert view.status_code == 200, view.text
    report = b.get(f"/games/{game_id}/verify", headers=bearer(gm)).json()
    assert report["ok"] is True, report


def test_without_affinity_nothing_is_handed_over(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(AFFINITY_ENV, "off")
    service = GameService(store_env(database_url=postgres_url))
    try:
        with TestClient(create_app(service)) as client:
            assert client.app.state.affinity is None  # type: ignore[attr-defined]
    finally:
        service.close()


# ----------------------------------------------------------------------------- real processes

CLIENTS = 8
COMMANDS_EACH = 12


def test_one_game_through_two_workers_is_applied_once_in_order(postgres_url: str) -> None:
    with KirokuServer(database_url=postgres_url, workers=2, startup_timeout=120) as server:
        with httpx.Client(base_url=server.base_url, timeout=60.0) as http:
            created = http.post("/games", json={"title": "Two", "seats": ["A", "B"]})
            assert created.status_code == 201, created.text
            game_id, gm = created.json()["game_id"], created.json()["gm_token"]
            started = http.post(
                f"/games/{game_id}/commands", json={"type": "start"}, headers=bearer(gm)
            )
            assert started.status_code == 201, started.text
            setup = started.json()["last_seq"]

        answers: dict[int, list[dict[str, Any]]] = {i: [] for i in range(CLIENTS)}
        twins: list[dict[str, Any]] = []
        failures: list[str] = []
        go = threading.Barrier(CLIENTS + 2)

        def client(i: int) -> None:
            go.wait(timeout=60)
            for n in range(COMMANDS_EACH):
                # A new connection each time: the kernel hands them to either worker.
                with httpx.Client(base_url=server.base_url, timeout=60.0) as http:
                    response = http.post(
                        f"/games/{game_id}/commands",
                        json={"type": "declare", "text": f"c{i}-n{n}"},
                        headers=bearer(gm),
                    )
                if response.status_code != 201:
                    failures.append(f"{i}/{n}: {response.status_code} {response.text}")
                else:
                    answers[i].append(response.json())

        def twin() -> None:
            go.wait(timeout=60)
            with httpx.Client(base_url=server.base_url, timeout=60.0) as http:
                response = http.post(
                    f"/games/{game_id}/commands",
                    json={"type": "declare", "text": "twin"},
                    headers=bearer(gm, "twin-key"),
                )
            if response.status_code != 201:
                failures.append(f"twin: {response.status_code} {response.text}")
            else:
                twins.append(response.json())

        threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
        threads += [threading.Thread(target=twin) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        assert not any(thread.is_alive() for thread in threads), "a client hung"
        assert failures == []

        with httpx.Client(base_url=server.base_url, timeout=60.0) as http:
            listing = http.get(
                f"/games/{game_id}/events", params={"limit": 5000}, headers=bearer(gm)
            )
            report = http.get(f"/games/{game_id}/verify", headers=bearer(gm)).json()
        stored = listing.json()["events"]
        total = setup + CLIENTS * COMMANDS_EACH + 1
        assert [e["seq"] for e in stored] == list(range(1, total + 1))
        by_seq = {e["seq"]: e for e in stored}
        for i, own in answers.items():
            assert len(own) == COMMANDS_EACH
            seqs = []
            for n, answer in enumerate(own):
                (event,) = answer["events"]
                assert event["public"]["text"] == f"c{i}-n{n}"  # its own answer
                assert by_seq[event["seq"]] == event
                seqs.append(event["seq"])
            assert seqs == sorted(seqs)
        assert len(twins) == 2 and twins[0]["events"] == twins[1]["events"]
        assert sorted(t["replayed"] for t in twins) == [False, True]
        texts = Counter(e["public"].get("text") for e in stored if e["seq"] > setup)
        assert max(texts.values()) == 1
        assert report["ok"] is True, report
        assert len(owners(postgres_url)) == 1  # one owner for the game


def test_when_the_owner_dies_another_worker_takes_the_game(postgres_url: str) -> None:
    # Two servers of one worker each on one host and store, so each command's way is known.
    on = {AFFINITY_ENV: "on"}
    first = KirokuServer(database_url=postgres_url, env=on, startup_timeout=120).start()
    try:
        with KirokuServer(database_url=postgres_url, env=on, startup_timeout=120) as second:
            a = httpx.Client(base_url=first.base_url, timeout=60.0)
            b = httpx.Client(base_url=second.base_url, timeout=60.0)
            with a, b:
                created = a.post("/games", json={"title": "Heir", "seats": ["A"]})
                game_id, gm = created.json()["game_id"], created.json()["gm_token"]
                url = f"/games/{game_id}/commands"
                assert a.post(url, json={"type": "start"}, headers=bearer(gm)).status_code == 201
                (owner,) = owners(postgres_url)
                rolled = b.post(url, json={"type": "declare", "text": "via b"}, headers=bearer(gm))
                assert rolled.status_code == 201, rolled.text
                assert owners(postgres_url) == [owner]  # b handed it to a

                assert first.process is not None
                first.process.kill()  # SIGKILL: no shutdown, its socket file stays
                first.process.wait(timeout=30)

                for n in range(5):
                    after = b.post(
                        url,
                        json={"type": "declare", "text": f"after {n}"},
                        headers=bearer(gm, f"after-{n}"),
                    )
                    assert after.status_code == 201, after.text
                    assert after.json()["last_seq"] == 4 + n
                # b owns the game once PostgreSQL has closed a's session (bounded wait).
                deadline = time.monotonic() + 60
                while owners(postgres_url) == [owner] and time.monotonic() < deadline:
                    b.post(url, json={"type": "declare", "text": "more"}, headers=bearer(gm))
                    time.sleep(0.2)
                assert owners(postgres_url) != [owner]
                report = b.get(f"/games/{game_id}/verify", headers=bearer(gm)).json()
                assert report["ok"] is True, report
                texts = [
                    e["public"].get("text")
                    for e in b.get(f"/games/{game_id}/events", headers=bearer(gm)).json()["events"]
                ]
                assert [t for t in texts if t and t.startswith("after")] == [
                    f"after {n}" for n in range(5)
                ]
    finally:
        first.stop()
