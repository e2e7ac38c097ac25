"""Exactly once everywhere (issue 34, item 2): `POST /games` and `join` honour
`Idempotency-Key` as commands do. The same key and body answer the first result again (the
same game, token, invites; the same seat and token) and append nothing; the same key with
another body is refused with 422 idempotency_key_reused; a key too short to be secret is
refused."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

BODY = {"title": "Once", "seats": ["Aki", "Ben"]}


def key() -> str:
    return str(uuid.uuid4())


def events(client: TestClient, game_id: str, token: str) -> list[dict[str, Any]]:
    got = client.get(f"/games/{game_id}/events", headers={"Authorization": f"Bearer {token}"})
    assert got.status_code == 200, got.text
    return got.json()["events"]


def test_a_retried_creation_answers_the_same_game(client: TestClient) -> None:
    k = key()
    first = client.post("/games", json=BODY, headers={"Idempotency-Key": k})
    again = client.post("/games", json=BODY, headers={"Idempotency-Key": k})
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    created = first.json()
    assert len(events(client, created["game_id"], created["gm_token"])) == 1
    # The invites it answered again are the ones that work.
    joined = client.post(
        f"/games/{created['game_id']}/join", json={"invite": again.json()["seats"][1]["invite"]}
    )
    assert joined.status_code == 200 and joined.json()["seat"] == 2
    # Without a key, or with another, each creation is a new game.
    other = client.post("/games", json=BODY, headers={"Idempotency-Key": key()}).json()
    plain = client.post("/games", json=BODY).json()
    assert len({created["game_id"], other["game_id"], plain["game_id"]}) == 3
    assert other["gm_token"] != created["gm_token"]


def test_a_host_game_with_a_seated_host_is_answered_again_too(client: TestClient) -> None:
    k = key()
    body = {**BODY, "referee": "host", "host_seat": 1}
    first = client.post("/games", json=body, headers={"Idempotency-Key": k})
    again = client.post("/games", json=body, headers={"Idempotency-Key": k})
    assert first.status_code == again.status_code == 201, first.text
    assert again.json() == first.json()


def test_a_key_reused_for_another_creation_is_refused(client: TestClient) -> None:
    k = key()
    assert client.post("/games", json=BODY, headers={"Idempotency-Key": k}).status_code == 201
    for other in (
        {**BODY, "title": "Twice"},
        {**BODY, "seats": ["Aki"]},
        {**BODY, "referee": "gm"},
    ):
        refused = client.post("/games", json=other, headers={"Idempotency-Key": k})
        assert refused.status_code == 422, refused.text
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.json()["code"] == "idempotency_key_reused"


def test_a_guessable_key_is_refused(client: TestClient) -> None:
    for weak in ("1", "retry-1", "x" * 21, "a key with spaces in it, long enough"):
        refused = client.post("/games", json=BODY, headers={"Idempotency-Key": weak})
        assert refused.status_code == 422, weak
        assert refused.json()["code"] == "invalid_request"


def test_a_retried_join_answers_the_same_seat_and_token(client: TestClient) -> None:
    created = client.post("/games", json=BODY).json()
    game_id, gm = created["game_id"], created["gm_token"]
    invite = created["seats"][0]["invite"]
    k = key()
    body = {"invite": invite, "client_seed": "mine"}
    first = client.post(f"/games/{game_id}/join", json=body, headers={"Idempotency-Key": k})
    again = client.post(f"/games/{game_id}/join", json=body, headers={"Idempotency-Key": k})
    assert first.status_code == again.status_code == 200, again.text
    assert again.json() == first.json()
    assert [e["type"] for e in events(client, game_id, gm)] == ["GameCreated", "SeatJoined"]
    seat = {"Authorization": f"Bearer {again.json()['token']}"}
    assert client.get(f"/games/{game_id}", headers=seat).json()["audience"] == "seat:1"
    # Without the key the spent invite is refused, as before.
    spent = client.post(f"/games/{game_id}/join", json=body)
    assert spent.status_code == 403 and spent.json()["code"] == "invalid_invite"
    # The key with another body: refused, nothing appended.
    for other in ({"invite": invite}, {"invite": created["seats"][1]["invite"]}):
        refused = client.post(f"/games/{game_id}/join", json=other, headers={"Idempotency-Key": k})
        assert refused.status_code == 422, refused.text
        assert refused.json()["code"] == "idempotency_key_reused"
    assert len(events(client, game_id, gm)) == 2
