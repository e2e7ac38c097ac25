"""The creator's recovery code (issue 33, item 6): shown once at creation, apart from the GM's
token; POST /games/{id}/recover with it gets the GM (or host) seat back on any browser, once —
the old token and every other browser of the seat are signed out, a new token and the next
code are shown once, and the log says it happened (never the code)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.model.authentication import hash_token
from tests.table import Table

TITLE = "金曜の卓"


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/games", json={"title": TITLE, "seats": ["Aki", "Ben"], **body})
    assert response.status_code == 201, response.text
    return dict(response.json())


def recover(client: TestClient, game: str, code: str) -> Any:
    return client.post(f"/games/{game}/recover", json={"code": code})


def test_the_gm_recovers_the_seat_once_and_the_old_credentials_die(client: TestClient) -> None:
    created = create(client)
    game, old_token, code = created["game_id"], created["gm_token"], created["recovery_code"]
    assert code and code != old_token
    bearer = {"Authorization": f"Bearer {old_token}"}
    # a browser signed in with the GM link before the loss
    old_browser = TestClient(client.app)
    assert old_browser.post(f"/games/{game}/session", headers=bearer).status_code == 201
    assert old_browser.get(f"/games/{game}/session").json()["actor"] == "gm"
    # the token itself is no recovery code
    refused = recover(client, game, old_token)
    assert refused.status_code == 401 and refused.json()["code"] == "invalid_recovery_code"

    browser = TestClient(client.app)
    recovered = recover(browser, game, code)
    assert recovered.status_code == 201, recovered.text
    out = recovered.json()
    assert out["actor"] == "gm" and out["referee"] is True
    assert out["recovery_code"] not in (code, out["token"]) and "#token=" in out["link"]
    # this browser is signed in as the GM (its cookie), the new token works
    assert browser.get(f"/games/{game}/session").json()["actor"] == "gm"
    fresh = {"Authorization": f"Bearer {out['token']}"}
    started = client.post(f"/games/{game}/commands", json={"type": "start"}, headers=fresh)
    assert started.status_code == 201
    # the old token and the other browser are signed out
    dead = client.get(f"/games/{game}", headers=bearer)
    assert dead.status_code == 401 and dead.json()["code"] == "bad_token"
    signed_out = old_browser.get(f"/games/{game}/session")
    assert signed_out.status_code == 401 and signed_out.json()["code"] == "bad_session"
    # the code worked once; the next one works (and only it)
    again = recover(TestClient(client.app), game, code)
    assert again.status_code == 401 and again.json()["code"] == "invalid_recovery_code"
    assert recover(TestClient(client.app), game, out["recovery_code"]).status_code == 201

    # the log says who and when, never the code nor its hash
    public = client.get(f"/games/{game}/events", params={"after": 0})
    types = [e["type"] for e in public.json()["events"]]
    assert types.count("RecoveryCodeUsed") == 2
    line = next(e for e in public.json()["events"] if e["type"] == "RecoveryCodeUsed")["line"]
    assert line["speaker"] == "GM" and "復旧コード" in line["text"]
    public_text = public.text
    for secret in (code, hash_token(code), out["recovery_code"]):
        assert secret not in public_text


def test_a_wrong_code_appends_nothing_and_a_host_recovers_its_seat(client: TestClient) -> None:
    created = create(client, ruleset="chojin_locke", seats=[f"P{n}" for n in range(1, 6)])
    game = created["game_id"]
    assert created["referee"] == "host" and created["recovery_code"]
    token = created["host_token"]
    table = Table(client, game, token, {}, tokens={"host": token}, creator="host")
    before = table.log_bytes()
    for wrong in ("x", created["host_token"], created["recovery_code"] + "x"):
        response = recover(client, game, wrong)
        assert response.status_code == 401 and response.json()["code"] == "invalid_recovery_code"
    assert table.log_bytes() == before
    recovered = recover(client, game, created["recovery_code"])
    assert recovered.status_code == 201 and recovered.json()["actor"] == "host"
    assert recover(client, "no-such-game", "x").status_code == 404
