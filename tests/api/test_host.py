"""Tables without a referee: a game created with `referee: host` gives its creator a host
token that starts, ends, manages seats and makes logged rulings, but is an audience like any
other for secrets (the public's, or the seat's it also sits at). Every power is tried over
HTTP; every refusal appends nothing; an attacker-style search of every byte the host receives
finds no seat's secret.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.application.service import GameService
from tests.api.test_secrecy import read_stream
from tests.table import Table


def host_game(client: TestClient, **body: Any) -> Table:
    table = Table.create(client, seats=["Aki", "Ben", "Chie"], referee="host", **body)
    table.join_all()
    return table


def refused(table: Table, actor: str, body: dict[str, Any], status: int, code: str) -> str:
    """`actor` sends `body`: refused with `code`, and the log is byte for byte unchanged."""
    before = table.log_bytes()
    response = table.send(actor, body)
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["code"] == code, problem
    assert table.log_bytes() == before
    return str(problem["detail"])


# ------------------------------------------------------------------------------ creation


def test_the_creator_of_a_game_without_a_referee_gets_a_host_token(client: TestClient) -> None:
    response = client.post(
        "/games", json={"title": "T", "seats": ["Aki", "Ben"], "referee": "host"}
    )
    assert response.status_code == 201
    created = response.json()
    assert created["referee"] == "host" and created["creator"] == "host"
    assert created["gm_token"] is None and created["gm_link"] is None
    assert created["host_link"].endswith(f"#token={created['host_token']}")
    host = {"Authorization": f"Bearer {created['host_token']}"}
    game = client.get(f"/games/{created['game_id']}", headers=host).json()
    assert (game["audience"], game["referee"], game["host"]) == ("host", "host", "host")
    session = client.get(f"/games/{created['game_id']}/session", headers=host).json()
    assert session["name"] == "Host" and session["referee"] and session["host_game"]
    events = client.get(f"/games/{created['game_id']}/events", headers=host).json()["events"]
    assert events[0]["actor"] == "host" and events[0]["public"]["host"] == "host"


def test_a_gm_game_keeps_its_shape(client: TestClient) -> None:
    created = client.post("/games", json={"title": "T", "seats": ["Aki"]}).json()
    assert created["referee"] == "gm" and created["creator"] == "gm" and created["gm_token"]
    assert created["host_token"] is None
    gm = {"Authorization": f"Bearer {created['gm_token']}"}
    events = client.get(f"/games/{created['game_id']}/events", headers=gm).json()["events"]
    assert "host" not in events[0]["public"]  # GM-run games keep their old public shape
    session = client.get(f"/games/{created['game_id']}/session", headers=gm).json()
    assert session["referee"] and not session["host_game"]


def test_each_ruleset_says_who_runs_it_by_default(client: TestClient) -> None:
    rulesets = {r["id"]: r for r in client.get("/rulesets").json()["rulesets"]}
    assert rulesets["chojin_locke"]["referee"] == "host"
    assert rulesets["ninja_slayer"]["referee"] == "gm"
    assert rulesets["ninja_slayer"]["referees"] == ["gm"]
    assert rulesets["freeform"]["referees"] == ["gm", "host"]
    created = client.post(
        "/games",
        json={"title": "T", "ruleset": "chojin_locke", "seats": [f"P{i}" for i in range(6)]},
    ).json()
    assert created["referee"] == "host" and created["host_token"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"ruleset": "ninja_slayer", "referee": "host"}, "host_not_supported"),
        ({"ruleset": "mech_d20", "referee": "host"}, "host_not_supported"),
        ({"referee": "gm", "host_seat": 1}, "host_seat_needs_host"),
        ({"host_seat": 1}, "host_seat_needs_host"),  # freeform's default is a GM
        ({"referee": "host", "host_seat": 3}, "unknown_seat"),
        ({"referee": "referee"}, "invalid_request"),
    ],
)
def test_a_game_with_an_impossible_referee_is_not_created(
    client: TestClient, service: GameService, body: dict[str, Any], code: str
) -> None:
    response = client.post("/games", json={"title": "T", "seats": ["Aki", "Ben"], **body})
    assert response.status_code == 422, response.text
    assert response.json()["code"] == code
    if code != "invalid_request":
        assert response.json()["detail"]


# ------------------------------------------------------------------------------ host powers


def test_the_host_runs_the_table(client: TestClient) -> None:
    table = host_game(client)
    table.do("host", {"type": "start"})
    table.do("host", {"type": "advance_phase", "phase": "Round 1"})  # a ruleset's referee command
    table.do("host", {"type": "add_tab", "name": "戦闘"})
    said = table.do("seat:1", {"type": "declare", "text": "I open the door"})["last_seq"]
    ruling = table.do("host", {"type": "ruling", "concerning_seq": said, "text": "It is locked"})
    assert ruling["events"][0]["actor"] == "host"
    table.do("host", {"type": "amend", "concerning_seq": said, "reason": "a typo"})
    table.do("host", {"type": "say", "text": "Next round", "tab": "戦闘"})
    assert (
        table.client.post(
            f"/games/{table.game_id}/session", headers=table.auth("seat:2")
        ).status_code
        == 201
    )
    table.do("host", {"type": "revoke_sessions", "audience": "seat:2"})
    ended = table.do("host", {"type": "end", "summary": "Good game"})
    assert ended["events"][0]["type"] == "GameEnded" and ended["events"][0]["actor"] == "host"
    types = [e["type"] for e in table.events("host")]
    for kind in (
        "GameStarted",
        "PhaseAdvanced",
        "TabAdded",
        "RulingMade",
        "Amended",
        "SessionsRevoked",
        "GameEnded",
    ):
        assert kind in types


def test_the_host_issues_links_only_for_seats_nobody_has_taken(client: TestClient) -> None:
    table = Table.create(client, seats=["Aki", "Ben"], referee="host")
    table.join(1)
    url = f"/games/{table.game_id}/seats"
    fresh = client.post(f"{url}/2/invite", headers=table.auth("host"))
    assert fresh.status_code == 201 and fresh.json()["link"].endswith(fresh.json()["invite"])
    before = table.log_bytes()
    taken = client.post(f"{url}/1/invite", headers=table.auth("host"))
    assert taken.status_code == 403 and taken.json()["code"] == "seat_taken"
    assert "秘密" in taken.json()["detail"] and table.log_bytes() == before
    # the seat itself asks for a link to its second device
    own = client.post(f"{url}/1/invite", headers=table.auth("seat:1"))
    assert own.status_code == 201
    other = client.post(f"{url}/2/invite", headers=table.auth("seat:1"))
    assert other.status_code == 403 and other.json()["code"] == "host_only"
    assert table.log_bytes() != before  # the two links were logged (InviteIssued)
    anon = client.post(f"{url}/2/invite")
    assert anon.status_code == 403 and anon.json()["code"] == "token_required"


def test_a_host_signs_in_with_a_cookie(client: TestClient) -> None:
    table = host_game(client)
    opened = client.post(f"/games/{table.game_id}/session", headers=table.auth("host"))
    assert opened.status_code == 201 and opened.json()["actor"] == "host"
    who = client.get(f"/games/{table.game_id}/session")
    assert who.json()["actor"] == "host" and who.json()["referee"]
    started = client.post(
        f"/games/{table.game_id}/commands", json={"type": "start"}, headers={"X-Kiroku": "1"}
    )
    assert started.status_code == 201, started.text
    table.do("host", {"type": "revoke_sessions", "audience": "host"})
    assert client.get(f"/games/{table.game_id}/session").json()["code"] == "bad_session"
    client.cookies.clear()


# ------------------------------------------------------------------------------ refusals


def test_a_seat_cannot_do_what_only_the_host_does(client: TestClient) -> None:
    table = host_game(client)
    detail = refused(table, "seat:1", {"type": "start"}, 403, "host_only")
    assert detail == "ゲームを開始することができるのはホストだけです。"  # Japanese by default
    english = table.send("seat:1", {"type": "start"}, **{"Accept-Language": "en"})
    assert english.json()["detail"] == "Only the host can start the game."
    assert english.json()["code"] == "host_only"
    table.do("host", {"type": "start"})
    for body in (
        {"type": "end"},
        {"type": "ruling", "concerning_seq": 1, "text": "no"},
        {"type": "amend", "concerning_seq": 1, "reason": "no"},
        {"type": "add_tab", "name": "x"},
        {"type": "revoke_sessions", "audience": "seat:2"},
        {"type": "advance_phase", "phase": "night"},
    ):
        refused(table, "seat:1", body, 403, "host_only")


def test_what_would_need_a_gms_eyes_is_refused_in_a_host_game(client: TestClient) -> None:
    table = host_game(client)
    table.do("host", {"type": "start"})
    for actor in ("host", "seat:1"):
        detail = refused(
            table, actor, {"type": "roll", "expression": "2D6", "blind": True}, 409, "no_gm"
        )
        assert "GMはいません" in detail and "シークレットダイス" in detail
        refused(table, actor, {"type": "say", "text": "2D6", "blind": True}, 409, "no_gm")
        refused(table, actor, {"type": "say", "text": "hi", "to": ["gm"]}, 409, "no_gm")
        refused(table, actor, {"type": "note", "text": "hi", "to": ["gm"]}, 409, "no_gm")
    secret = table.do("seat:1", {"type": "note", "text": "mine"})["last_seq"]
    detail = refused(table, "host", {"type": "reveal", "seq": secret}, 403, "not_your_secret")
    assert detail == "公開できるのは秘密を書いた本人だけです。"
    refused(table, "seat:2", {"type": "reveal", "seq": secret}, 403, "not_your_secret")
    replay = client.get(
        f"/games/{table.game_id}/replay", params={"as": "seat:1"}, headers=table.auth("host")
    )
    assert replay.status_code == 403 and replay.json()["code"] == "replay_as_other"
    for path in ("/archive", "/audit"):
        early = client.get(f"/games/{table.game_id}{path}", headers=table.auth("host"))
        assert early.status_code == 409 and early.json()["code"] == "game_not_ended"


def test_a_gm_game_has_no_host_to_whisper_to(client: TestClient) -> None:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    refused(table, "seat:1", {"type": "note", "text": "hi", "to": ["host"]}, 422, "no_host")
    table.do("seat:1", {"type": "note", "text": "hi", "to": ["gm"]})
    table.do("seat:1", {"type": "roll", "expression": "2D6", "blind": True})


def test_a_whisper_to_the_host_reaches_the_host_only(client: TestClient) -> None:
    table = host_game(client)
    table.do("host", {"type": "start"})
    marker = f"MARK-{uuid.uuid4().hex}"
    table.do("seat:1", {"type": "say", "text": marker, "to": ["host"]})
    for actor, sees in (("host", True), ("seat:1", True), ("seat:2", False), ("public", False)):
        found = marker in str(table.events(actor))
        assert found == sees, actor


# ------------------------------------------------------------------------------ a seated host


def test_a_host_who_plays_sees_its_own_seat_and_no_one_elses(client: TestClient) -> None:
    table = Table.create(client, seats=["Aki", "Ben", "Chie"], referee="host", host_seat=2)
    assert table.creator == "seat:2" and sorted(table.invites) == [1, 3]  # no invite for it
    table.join(1)
    table.join(3)
    game = client.get(f"/games/{table.game_id}", headers=table.auth("seat:2")).json()
    assert game["host"] == "seat:2" and all(s["joined"] for s in game["seats"])
    session = client.get(f"/games/{table.game_id}/session", headers=table.auth("seat:2")).json()
    assert (session["actor"], session["name"], session["referee"]) == ("seat:2", "Ben", True)
    table.do("seat:2", {"type": "start"})
    refused(table, "seat:1", {"type": "end"}, 403, "host_only")
    mine, theirs = f"MARK-{uuid.uuid4().hex}", f"MARK-{uuid.uuid4().hex}"
    table.do("seat:2", {"type": "note", "text": mine})
    table.do("seat:1", {"type": "note", "text": theirs})
    to_host = f"MARK-{uuid.uuid4().hex}"
    table.do("seat:3", {"type": "say", "text": to_host, "to": ["host"]})  # the host's seat
    seen = client.get(f"/games/{table.game_id}/events", headers=table.auth("seat:2")).text
    assert mine in seen and to_host in seen and theirs not in seen
    assert (
        to_host
        not in client.get(f"/games/{table.game_id}/events", headers=table.auth("seat:1")).text
    )
    own = client.post(f"/games/{table.game_id}/seats/2/invite", headers=table.auth("seat:2"))
    assert own.status_code == 201  # its own seat: a second device
    taken = client.post(f"/games/{table.game_id}/seats/1/invite", headers=table.auth("seat:2"))
    assert taken.json()["code"] == "seat_taken"
    table.do("seat:2", {"type": "end"})


# ------------------------------------------------------------------------------ the attacker


SEATS = ("seat:1", "seat:2", "seat:3")
step = st.one_of(
    st.tuples(
        st.just("note"),
        st.sampled_from(SEATS),
        st.sampled_from([(), ("seat:1",), ("seat:2", "seat:3")]),
    ),
    st.tuples(st.just("whisper"), st.sampled_from(SEATS), st.sampled_from(SEATS)),
    st.tuples(st.just("secret_roll"), st.sampled_from(SEATS), st.just(())),
    st.tuples(st.just("reveal"), st.sampled_from(SEATS), st.just(())),
)


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(step, min_size=1, max_size=10), seated=st.booleans())
def test_no_seat_secret_ever_reaches_the_host(
    client: TestClient, service: GameService, steps: list[tuple[str, str, Any]], seated: bool
) -> None:
    """Seats seal notes, whispers and secret rolls to one another, and reveal some; the host
    (alone, or also sitting at seat 3) reads everything it can and tries to reveal every
    secret; no body sealed to others, and no salt of one, is in any byte it received."""
    extra = {"host_seat": 3} if seated else {}
    table = Table.create(client, seats=["Aki", "Ben", "Chie"], referee="host", **extra)
    for seat in table.invites:
        table.join(seat)
    host = table.creator
    table.do(host, {"type": "start"})
    received = b""
    markers: dict[int, str] = {}
    secrets: list[int] = []
    for kind, who, arg in steps:
        marker = f"MARK-{uuid.uuid4().hex}"
        if who == host:
            continue  # the host's own seat's secrets are its own; others' are the point
        if kind == "note":
            body: dict[str, Any] = {
                "type": "note",
                "text": marker,
                "to": [a for a in arg if a != who],
            }
        elif kind == "whisper":
            body = {"type": "say", "text": marker, "to": [arg] if arg != who else []}
        elif kind == "secret_roll":
            body = {"type": "roll", "expression": "S2D6", "entropy": marker}
        else:
            if not secrets:
                continue
            table.send(who, {"type": "reveal", "seq": secrets[0]})
            continue
        response = table.send(who, body)
        assert response.status_code == 201, response.text
        seq = response.json()["last_seq"]
        if response.json()["events"][0]["sealed"] is not None:
            secrets.append(seq)
            markers[seq] = marker
    url = f"/games/{table.game_id}"
    headers = table.auth(host)
    last = client.get(url, headers=headers).json()["last_seq"]
    for path in ("", "/view", "/events", "/archive", "/audit", "/verify"):
        received += client.get(url + path, headers=headers).content
    for at in range(1, last + 1):
        received += client.get(f"{url}/replay", params={"at": at}, headers=headers).content
    for seq in secrets:
        received += table.send(host, {"type": "reveal", "seq": seq}).content
    received += read_stream(table, host, until_seq=last)

    state = service.state(table.game_id)
    for recorded in service.records(table.game_id):
        sealed = recorded.envelope.sealed
        if sealed is None or not sealed.audience:
            continue
        revealed = recorded.seq not in state.unrevealed
        if revealed or host in sealed.audience:
            continue
        assert recorded.salt is not None and recorded.salt.encode() not in received
        sealed_marker = markers.get(recorded.seq)
        if sealed_marker is not None and recorded.envelope.type != "DiceRolled":
            assert sealed_marker.encode() not in received, recorded.seq
    # the check can fail: once the game ends, every body reaches the host
    table.do(host, {"type": "end"})
    after = client.get(f"{url}/events", headers=headers).content
    for seq, marker in markers.items():
        if service.state(table.game_id).version >= seq:
            kind = next(r for r in service.records(table.game_id) if r.seq == seq).envelope.type
            if kind != "DiceRolled":
                assert marker.encode() in after
