"""The tail is witnessed: answers carry the head (`Kiroku-Head: <seq> <hash>`), and
`/verify?seq=&hash=` says whether a head someone noted is still in the chain — which catches
the one thing the chain alone cannot: events deleted from its end.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from uuid import UUID

import httpx
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService
from tests.api.test_stream_http import ThreadedServer
from tests.table import Table

EN = {"Accept-Language": "en"}  # the problems read in English (Japanese is the default)


def head_of(response: httpx.Response) -> tuple[int, str]:
    seq, digest = response.headers["Kiroku-Head"].split(" ")
    return int(seq), digest


@pytest.fixture
def table(client: TestClient) -> Table:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    for n in range(3):
        table.do("seat:1", {"type": "declare", "text": f"line {n}"})
    return table


def test_answers_that_return_events_carry_the_head(table: Table) -> None:
    sent = table.send("seat:2", {"type": "note", "text": "sealed"})
    last = sent.json()["events"][-1]
    assert head_of(sent) == (last["seq"], last["hash"])

    listing = table.client.get(f"/games/{table.game_id}/events", params={"after": 2, "limit": 1})
    assert [e["seq"] for e in listing.json()["events"]] == [3]
    assert head_of(listing) == (last["seq"], last["hash"])  # the game's head, not the page's

    again = table.send("seat:2", {"type": "declare", "text": "k"}, **{"Idempotency-Key": "k"})
    replay = table.send("seat:2", {"type": "declare", "text": "k"}, **{"Idempotency-Key": "k"})
    assert head_of(replay) == head_of(again)
    summary = table.client.get(f"/games/{table.game_id}")
    assert head_of(summary) == (summary.json()["last_seq"], summary.json()["head"])
    view = table.client.get(f"/games/{table.game_id}/view")
    assert head_of(view) == (view.json()["seq"], view.json()["head"])


def test_the_stream_carries_the_head_at_its_start(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("KIROKU_REDIS_URL", raising=False)
    with ThreadedServer(service) as server, httpx.Client(base_url=server.base_url) as http:
        created = http.post("/games", json={"title": "T", "seats": ["A"]}).json()
        game_id = created["game_id"]
        headers = {"Authorization": f"Bearer {created['gm_token']}"}
        with http.stream("GET", f"/games/{game_id}/stream", headers=headers) as response:
            assert response.status_code == 200
            state = service.state(game_id)
            assert head_of(response) == (state.version, state.head)


def test_a_noted_head_is_confirmed(table: Table) -> None:
    seq, digest = head_of(table.client.get(f"/games/{table.game_id}/events"))
    report = table.client.get(
        f"/games/{table.game_id}/verify", params={"seq": seq, "hash": digest}
    ).json()
    assert report["ok"] is True
    assert report["witness"] == {"seq": seq, "hash": digest, "ok": True, "problem": None}
    earlier = table.events()[2]
    report = table.client.get(
        f"/games/{table.game_id}/verify", params={"seq": 3, "hash": earlier["hash"]}
    ).json()
    assert report["ok"] is True and report["witness"]["ok"] is True


@pytest.fixture
def restarted(sqlite_env: dict[str, str]) -> Iterator[TestClient]:
    service = bootstrap(env=sqlite_env)
    with TestClient(create_app(service)) as client:
        yield client
    service.close()


def test_events_deleted_from_the_end_are_caught_by_a_noted_head(
    table: Table, sqlite_env: dict[str, str], restarted: TestClient
) -> None:
    seq, digest = head_of(table.client.get(f"/games/{table.game_id}/events"))
    with sqlite3.connect(sqlite_env["SQLITE_DBNAME"]) as conn:
        conn.execute(
            "DELETE FROM stored_events WHERE originator_id = ? AND originator_version >= ?",
            (UUID(table.game_id).hex, seq - 1),
        )
    url = f"/games/{table.game_id}/verify"
    alone = restarted.get(url).json()
    assert alone["ok"] is True  # the chain cannot see it by itself …
    assert alone["chain"]["events"] == seq - 2
    witnessed = restarted.get(url, params={"seq": seq, "hash": digest}, headers=EN).json()
    assert witnessed["ok"] is False  # … the noted head can
    assert witnessed["witness"]["ok"] is False
    assert f"ends at event {seq - 2}" in witnessed["witness"]["problem"]
    assert f"event {seq}" in witnessed["note"] and "removed from its end" in witnessed["note"]


def test_a_rewritten_event_fails_its_witness(table: Table) -> None:
    url = f"/games/{table.game_id}/verify"
    report = table.client.get(url, params={"seq": 4, "hash": "0" * 64}, headers=EN).json()
    assert report["ok"] is False
    assert "event 4 now has hash" in report["witness"]["problem"]


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"seq": 3}, "witness_incomplete"),
        ({"hash": "a" * 64}, "witness_incomplete"),
        ({"seq": 3, "hash": "not-a-hash"}, "invalid_request"),
        ({"seq": 2**63, "hash": "a" * 64}, "invalid_request"),
        ({"seq": 0, "hash": "a" * 64}, "invalid_request"),
    ],
)
def test_a_witness_must_be_whole(table: Table, params: dict[str, object], code: str) -> None:
    response = table.client.get(f"/games/{table.game_id}/verify", params=params)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == code
