"""Browser sessions: a token exchanged for an HttpOnly cookie, scoped to one game, revocable,
and never enough on its own to change anything (the page's header against CSRF)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.web import CONTENT_SECURITY_POLICY, WebSettings, session_cookie
from domain.application.service import GameService
from tests.table import Table

PAGE = {"X-Kiroku": "1"}


def _sign_in(client: TestClient, table: Table, actor: str) -> str:
    response = client.post(f"/games/{table.game_id}/session", headers=table.auth(actor))
    assert response.status_code == 201, response.text
    return response.cookies[session_cookie(table.game_id)]


def test_a_token_becomes_an_httponly_strict_cookie_for_its_game(client: TestClient) -> None:
    table = Table.create(client)
    table.join(1)
    response = client.post(f"/games/{table.game_id}/session", headers=table.auth("seat:1"))
    assert response.status_code == 201
    assert response.json() == {
        "game_id": table.game_id,
        "actor": "seat:1",
        "seat": 1,
        "name": "Aki",
        "referee": False,
        "host_game": False,
    }
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{session_cookie(table.game_id)}=")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain http on loopback
    token = table.tokens["seat:1"]
    assert token not in cookie  # the cookie is a session id, not the token

    # The cookie alone says who the browser is.
    assert client.get(f"/games/{table.game_id}/session").json()["actor"] == "seat:1"
    body = client.get(f"/games/{table.game_id}/view").json()
    assert body["audience"] == "seat:1"


def test_a_session_without_a_token_is_refused(client: TestClient) -> None:
    table = Table.create(client)
    response = client.post(f"/games/{table.game_id}/session")
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "token_required"


def test_a_cookie_post_needs_the_page_header_and_appends_nothing_without_it(
    client: TestClient,
) -> None:
    table = Table.create(client)
    table.join_all()
    _sign_in(client, table, "gm")
    before = table.log_bytes()
    refused = client.post(f"/games/{table.game_id}/commands", json={"type": "start"})
    assert refused.status_code == 403
    assert refused.json()["code"] == "csrf_header_missing"
    assert table.log_bytes() == before
    accepted = client.post(f"/games/{table.game_id}/commands", json={"type": "start"}, headers=PAGE)
    assert accepted.status_code == 201
    assert accepted.json()["events"][0]["actor"] == "gm"


def test_a_cookie_of_one_game_is_nothing_at_another(client: TestClient) -> None:
    first = Table.create(client)
    second = Table.create(client, options={"spectators": False})
    session = _sign_in(client, first, "gm")
    # The other game's cookie name is not present: no credentials there.
    refused = client.get(f"/games/{second.game_id}/view")
    assert refused.status_code == 401 and refused.json()["code"] == "token_required"
    # Presenting one game's session under another game's cookie name does not work either.
    client.cookies.set(session_cookie(second.game_id), session)
    refused = client.get(f"/games/{second.game_id}/view")
    assert refused.status_code == 401 and refused.json()["code"] == "bad_session"
    refused = client.post(f"/games/{second.game_id}/commands", json={"type": "start"}, headers=PAGE)
    assert refused.status_code == 401


def test_the_gm_signs_a_seats_browsers_out(client: TestClient) -> None:
    table = Table.create(client)
    table.join_all()
    gm = TestClient(client.app)
    _sign_in(gm, table, "gm")
    _sign_in(client, table, "seat:1")
    assert client.get(f"/games/{table.game_id}/session").json()["actor"] == "seat:1"

    refused = table.send("seat:2", {"type": "revoke_sessions", "audience": "seat:1"})
    assert refused.status_code == 403 and refused.json()["code"] == "gm_only"
    nothing = table.send("gm", {"type": "revoke_sessions", "audience": "seat:2"})
    assert nothing.status_code == 422 and nothing.json()["code"] == "no_sessions"

    revoked = gm.post(
        f"/games/{table.game_id}/commands",
        json={"type": "revoke_sessions", "audience": "seat:1"},
        headers=PAGE,
    )
    assert revoked.status_code == 201
    assert revoked.json()["events"][0]["type"] == "SessionsRevoked"
    after = client.get(f"/games/{table.game_id}/session")
    assert after.status_code == 401 and after.json()["code"] == "bad_session"
    # The GM's own browser session is untouched, and the seat's bearer token still works.
    assert gm.get(f"/games/{table.game_id}/session").json()["actor"] == "gm"
    assert table.events("seat:1")


def test_a_new_invite_seats_a_player_on_another_device(client: TestClient) -> None:
    table = Table.create(client)
    table.join(1)
    refused = client.post(f"/games/{table.game_id}/seats/1/invite", headers=table.auth("seat:1"))
    assert refused.status_code == 403 and refused.json()["code"] == "gm_only"
    unknown = client.post(f"/games/{table.game_id}/seats/9/invite", headers=table.auth("gm"))
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_seat"  # in the path

    issued = client.post(f"/games/{table.game_id}/seats/1/invite", headers=table.auth("gm"))
    assert issued.status_code == 201
    invite = issued.json()["invite"]
    assert issued.json()["link"] == f"http://testserver/g/{table.game_id}/join#invite={invite}"
    public = client.get(f"/games/{table.game_id}/events").content
    assert invite.encode() not in public  # only its hash is stored
    joined = client.post(f"/games/{table.game_id}/join", json={"invite": invite})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    again = client.post(f"/games/{table.game_id}/join", json={"invite": invite})
    assert again.status_code == 403 and again.json()["code"] == "invalid_invite"


def test_links_secure_cookies_and_the_public_url(service: GameService) -> None:
    web = WebSettings(public_url="https://table.example.org")
    with TestClient(create_app(service, web)) as client:
        created = client.post("/games", json={"title": "Remote", "seats": ["Aki"]}).json()
        game = created["game_id"]
        assert created["table_url"] == f"https://table.example.org/g/{game}"
        assert created["gm_link"] == (
            f"https://table.example.org/g/{game}/join#token={created['gm_token']}"
        )
        invite = created["seats"][0]["invite"]
        assert created["seats"][0]["link"].endswith(f"/g/{game}/join#invite={invite}")
        response = client.post(
            f"/games/{game}/session", headers={"Authorization": f"Bearer {created['gm_token']}"}
        )
        assert "Secure" in response.headers["set-cookie"]


@pytest.fixture
def pages(client: TestClient) -> Iterator[TestClient]:
    yield client


@pytest.mark.parametrize("path", ["/", "/g/00000000-0000-0000-0000-000000000000", "/healthz"])
def test_every_page_and_answer_carries_a_strict_content_security_policy(
    pages: TestClient, path: str
) -> None:
    response = pages.get(path)
    assert response.status_code == 200
    policy = response.headers["content-security-policy"]
    assert policy == CONTENT_SECURITY_POLICY
    assert "default-src 'self'" in policy and "'unsafe-inline'" not in policy
    assert response.headers["x-frame-options"] == "DENY"


def test_pages_have_no_inline_script_and_load_only_their_own_files(pages: TestClient) -> None:
    for path in ("/", "/g/x/join", "/g/x"):
        html = pages.get(path).text
        assert "<script>" not in html and "onclick=" not in html
        for src in (part.split('"')[0] for part in html.split('src="')[1:]):
            assert src.startswith("/static/"), src
            assert pages.get(src).status_code == 200


def test_the_join_page_never_asks_the_server_for_the_invite(pages: TestClient) -> None:
    html = pages.get("/g/abc/join").text
    assert "invite=" not in html  # the invite lives only in the fragment, read by the script
    script = pages.get("/static/join.js").text
    assert "location.hash" in script and "history.replaceState" in script
