"""Who may replace a seat's credentials (POST /games/{id}/seats/{n}/rotate), and what it
does to the seat's tokens, sessions and invites (issue 34, item 1; the streams: in
test_revocation.py)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.table import Table


def rotate(table: Table, actor: str | None, seat: int) -> tuple[int, dict[str, str]]:
    response = table.client.post(
        f"/games/{table.game_id}/seats/{seat}/rotate", headers=table.auth(actor)
    )
    return response.status_code, response.json()


def test_the_gm_replaces_a_seats_token_sessions_and_invites(client: TestClient) -> None:
    table = Table.create(client, seats=["Aki", "Ben"])
    table.join_all()
    old = table.tokens["seat:1"]
    unused = client.post(f"/games/{table.game_id}/seats/1/invite", headers=table.auth("gm")).json()[
        "invite"
    ]
    status, rotated = rotate(table, "gm", 1)
    assert status == 201, rotated
    assert table.events("seat:2")[-1]["type"] == "CredentialsRotated"
    for dead in (old,):
        got = client.get(f"/games/{table.game_id}", headers={"Authorization": f"Bearer {dead}"})
        assert got.status_code == 401 and got.json()["code"] == "bad_token"
    stale = client.post(f"/games/{table.game_id}/join", json={"invite": unused})
    assert stale.status_code == 403 and stale.json()["code"] == "invalid_invite"
    table.invites[1] = rotated["invite"]
    table.join(1)
    assert table.events("seat:1")[-1]["type"] == "SeatJoined"
    assert client.get(f"/games/{table.game_id}", headers=table.auth("seat:2")).status_code == 200


def test_a_seat_may_replace_its_own_but_not_anothers(client: TestClient) -> None:
    table = Table.create(client, seats=["Aki", "Ben"])
    table.join_all()
    before = table.log_bytes()
    status, problem = rotate(table, "seat:2", 1)
    assert (status, problem["code"]) == (403, "gm_only")
    assert rotate(table, None, 1)[0] == 403
    assert rotate(table, "gm", 3)[0] == 404
    assert table.log_bytes() == before
    assert rotate(table, "seat:2", 2)[0] == 201


def test_a_host_never_gets_a_link_into_a_joined_seat(client: TestClient) -> None:
    table = Table.create(client, seats=["Aki", "Ben"], referee="host")
    table.join(1)
    before = table.log_bytes()
    status, problem = rotate(table, "host", 1)
    assert (status, problem["code"]) == (403, "seat_taken")
    assert table.log_bytes() == before
    assert rotate(table, "host", 2)[0] == 201  # nobody has joined seat 2 yet
