"""The shared game lifecycle through HTTP: the happy path and what it records."""

from __future__ import annotations

import itertools

from fastapi.testclient import TestClient

from tests.table import Table


def test_a_whole_game_is_recorded_and_verifies(client: TestClient) -> None:
    table = Table.create(client, seats=["Aki", "Ben", "Chie"], options={"dice_policy": "both"})
    table.join(1, client_seed="aki-seed")
    table.join(2)
    table.join(3, client_seed="chie-seed")

    assert table.do("gm", {"type": "start"})["last_seq"] == 5
    roll = table.do("seat:1", {"type": "roll", "expression": "2d6+1>=8", "entropy": "lucky"})
    record = roll["events"][0]["public"]["roll"]
    assert record["draw"]["seeds"] == ["aki-seed", "chie-seed"]
    assert record["draw"]["roll"] == 1 and record["draw"]["entropy"] == "lucky"
    assert record["result"]["faces"] == record["draw"]["faces"]
    total = sum(record["draw"]["faces"]) + 1  # BCDice's text: (2D6+1>=8) ＞ 7[3,4]+1 ＞ 8 ＞ …
    assert f"＞ {total} ＞" in record["result"]["explanation"]

    manual = table.do("seat:2", {"type": "roll", "expression": "1d20+5>=15", "faces": [12]})
    assert manual["events"][0]["public"]["roll"]["manual"] is True
    assert "＞ 17 ＞" in manual["events"][0]["public"]["roll"]["result"]["explanation"]

    table.do("seat:3", {"type": "declare", "text": "I search the shrine"})
    note = table.do("seat:1", {"type": "note", "text": "I am the traitor", "to": ["seat:2"]})
    note_seq = note["last_seq"]
    table.do("gm", {"type": "advance_phase", "phase": "Night 1"})
    ruling = table.do("gm", {"type": "ruling", "concerning_seq": 7, "text": "Modifier stands"})
    assert ruling["events"][0]["public"] == {
        "concerning_seq": 7,
        "text": "Modifier stands",
        "effect": {},
    }
    table.do("gm", {"type": "amend", "concerning_seq": 8, "reason": "typo", "correction": {}})
    table.do("seat:1", {"type": "reveal", "seq": note_seq})
    end = table.do("gm", {"type": "end", "summary": "The traitor was found"})
    assert [e["type"] for e in end["events"]][:2] == ["GameEnded", "Revealed"]

    types = [e["type"] for e in table.events("public")]
    assert types[:5] == ["GameCreated", "SeatJoined", "SeatJoined", "SeatJoined", "GameStarted"]
    assert {
        "DiceRolled",
        "Declared",
        "NoteWritten",
        "PhaseAdvanced",
        "RulingMade",
        "Amended",
        "Revealed",
        "GameEnded",
    } <= set(types)

    report = client.get(f"/games/{table.game_id}/verify").json()
    assert report["ok"] is True, report
    assert report["secrets"]["seed_matches"] is True
    assert report["secrets"]["checked_draws"] == 1
    assert report["secrets"]["checked_commitments"] == 2  # the seed and the note


def test_seq_and_hashes_chain_across_the_log(client: TestClient) -> None:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    events = table.events("gm")
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    for previous, event in itertools.pairwise(events):
        assert event["prev_hash"] == previous["hash"]


def test_game_summary_shows_the_public_state(client: TestClient) -> None:
    table = Table.create(client)
    table.join(1)
    summary = client.get(f"/games/{table.game_id}").json()
    assert summary["status"] == "setup"
    assert summary["audience"] == "public"
    assert [s["joined"] for s in summary["seats"]] == [True, False]
    assert len(summary["server_seed_hash"]) == 64


def test_events_after_pages_the_log(client: TestClient) -> None:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    assert [e["seq"] for e in table.events("gm", after=2)] == [3, 4]
    response = client.get(f"/games/{table.game_id}/events", params={"after": 1, "limit": 2})
    assert [e["seq"] for e in response.json()["events"]] == [2, 3]


def test_idempotent_retry_returns_the_first_result_and_appends_nothing(
    client: TestClient,
) -> None:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    body = {"type": "roll", "expression": "3d6"}
    first = table.send("seat:1", body, **{"Idempotency-Key": "roll-1"})
    log = table.log_bytes()
    again = table.send("seat:1", body, **{"Idempotency-Key": "roll-1"})
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["events"] == first.json()["events"]
    assert again.json()["last_seq"] == first.json()["last_seq"]
    assert table.log_bytes() == log

    # The key is the caller's own: another seat using the same key is another command.
    other = table.send("seat:2", body, **{"Idempotency-Key": "roll-1"})
    assert other.json()["replayed"] is False
    assert other.json()["last_seq"] == first.json()["last_seq"] + 1


def test_spectators_read_the_public_log_only_when_allowed(client: TestClient) -> None:
    private = Table.create(client, options={"spectators": False})
    response = client.get(f"/games/{private.game_id}/events")
    assert response.status_code == 401
    assert response.json()["code"] == "token_required"
    private.join(1)
    assert private.events("seat:1")[0]["type"] == "GameCreated"
