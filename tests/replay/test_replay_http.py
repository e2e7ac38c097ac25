"""The replay page's API: the log as an audience read it at a seq, the marks a replay jumps
between, and each frame's line — with the same permissions as `/replay`."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.table import Table

NOTE = "NOTE_ONLY_AKI_READS_3e1"


def played(client: TestClient) -> tuple[Table, dict[str, int]]:
    table = Table.create(client, options={"spectators": True})
    table.join_all()
    seqs = {"start": table.do("gm", {"type": "start"})["last_seq"]}
    seqs["note"] = table.do("seat:1", {"type": "note", "text": NOTE})["last_seq"]
    seqs["roll"] = table.do("seat:2", {"type": "roll", "expression": "2D6+1>=8 sneak"})["last_seq"]
    seqs["declare"] = table.do("seat:1", {"type": "declare", "text": "I take the key"})["last_seq"]
    ruling = {"type": "ruling", "concerning_seq": seqs["roll"], "text": "+1 stands"}
    seqs["ruling"] = table.do("gm", ruling)["last_seq"]
    amend = {"type": "amend", "concerning_seq": seqs["ruling"], "reason": "no bonus after all"}
    seqs["amend"] = table.do("gm", amend)["last_seq"]
    return table, seqs


def test_a_frame_carries_the_line_the_table_read(client: TestClient) -> None:
    table, seqs = played(client)
    url = f"/games/{table.game_id}/replay"
    frame = client.get(url, params={"at": seqs["roll"]}, headers=table.auth("seat:1")).json()
    assert frame["line"]["kind"] == "roll" and frame["line"]["speaker"] == "Ben"
    assert frame["line"]["text"].startswith("(2D6+1>=8) ＞") and "sneak" in frame["line"]["text"]
    note = client.get(url, params={"at": seqs["note"]}, headers=table.auth("seat:2")).json()
    assert note["line"]["text"] == "秘密のメモ" and note["line"]["hidden"] is True
    assert NOTE not in str(note)


def test_the_log_at_a_seq_is_what_the_audience_read_then(client: TestClient) -> None:
    table, seqs = played(client)
    url = f"/games/{table.game_id}/replay/log"
    log = client.get(url, params={"at": seqs["roll"]}, headers=table.auth("seat:2")).json()
    assert [e["seq"] for e in log["events"]] == list(range(1, seqs["roll"] + 1))
    assert (log["audience"], log["seq"]) == ("seat:2", seqs["roll"])
    assert log["last_seq"] == seqs["amend"]
    note = log["events"][seqs["note"] - 1]
    assert note["line"]["text"] == "秘密のメモ" and NOTE not in client.get(url).text
    window = client.get(url, params={"at": seqs["amend"], "limit": 2}, headers=table.auth("gm"))
    assert [e["seq"] for e in window.json()["events"]] == [seqs["ruling"], seqs["amend"]]
    as_aki = client.get(url, params={"at": seqs["note"], "as": "seat:1"}, headers=table.auth("gm"))
    assert as_aki.json()["events"][-1]["line"]["text"] == NOTE

    # After the end the note is revealed, but the log at its seq still reads as it did then.
    table.do("gm", {"type": "end"})
    then = client.get(
        url, params={"at": seqs["note"], "as": "seat:2"}, headers=table.auth("seat:2")
    )
    assert then.json()["events"][-1]["line"]["hidden"] is True and NOTE not in then.text
    now = client.get(url, params={"as": "seat:2"}, headers=table.auth("seat:2")).json()
    assert now["events"][seqs["note"] - 1]["line"]["text"] == NOTE


def test_the_log_is_refused_as_another_seat_before_the_end(client: TestClient) -> None:
    table, seqs = played(client)
    url = f"/games/{table.game_id}/replay/log"
    refused = client.get(url, params={"as": "seat:1"}, headers=table.auth("seat:2"))
    assert refused.status_code == 403
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert refused.json()["code"] == "replay_as_other" and NOTE not in refused.text
    assert "自分自身" in refused.json()["detail"]  # in the reader's language: Japanese first
    english = client.get(
        url, params={"as": "seat:1"}, headers={**table.auth("seat:2"), "Accept-Language": "en"}
    )
    assert "only as yourself" in english.json()["detail"]
    spectator = client.get(url, params={"as": "gm"})
    assert spectator.status_code == 403 and NOTE not in spectator.text
    assert client.get(url, params={"as": "public"}, headers=table.auth("seat:2")).status_code == 200
    beyond = client.get(url, params={"at": seqs["amend"] + 1}, headers=table.auth("gm"))
    assert beyond.status_code == 422 and beyond.json()["code"] == "seq_out_of_range"
    too_many = client.get(url, params={"limit": 1001}, headers=table.auth("gm"))
    assert too_many.status_code == 422
    unknown = client.get("/games/nope/replay/log", headers=table.auth("gm"))
    assert unknown.status_code in (401, 404)


def test_marks_list_rulings_amendments_and_declarations(client: TestClient) -> None:
    table, seqs = played(client)
    url = f"/games/{table.game_id}/replay/marks"
    marks = client.get(url, headers=table.auth("seat:2")).json()
    assert marks["rulings"] == [seqs["ruling"]] and marks["amendments"] == [seqs["amend"]]
    assert marks["declarations"] == [seqs["declare"]] and marks["last_seq"] == seqs["amend"]
    assert client.get(url).status_code == 200  # a spectator of a game that allows them
    again = table.do("gm", {"type": "ruling", "concerning_seq": 2, "text": "late"})["last_seq"]
    assert client.get(url, headers=table.auth("gm")).json()["rulings"] == [seqs["ruling"], again]

    private = Table.create(client, options={"spectators": False})
    refused = client.get(f"/games/{private.game_id}/replay/marks")
    assert refused.status_code == 401 and refused.json()["code"] == "token_required"


def test_the_openapi_document_describes_the_replay_page_api(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    log = spec["paths"]["/games/{game_id}/replay/log"]["get"]
    assert {"200", "401", "403", "404", "422"} <= set(log["responses"])
    assert "application/problem+json" in log["responses"]["403"]["content"]
    marks = spec["paths"]["/games/{game_id}/replay/marks"]["get"]
    assert marks["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Marks"
    }
    frame = spec["components"]["schemas"]["Frame"]
    assert "line" in frame["required"]


def test_a_seek_can_ask_for_only_the_latest_secrets(client: TestClient) -> None:
    """`secrets=N`: the view holds the latest N secrets, `secrets_total` how many there are;
    what changed is still all there."""
    table, _seqs = played(client)
    notes = [
        table.do("seat:1", {"type": "note", "text": f"n{n}", "to": ["gm"]})["last_seq"]
        for n in range(4)
    ]
    url = f"/games/{table.game_id}/replay"
    whole = client.get(url, headers=table.auth("gm")).json()
    some = client.get(url, params={"secrets": 2}, headers=table.auth("gm")).json()
    assert some["secrets_total"] == whole["secrets_total"] == len(whole["view"]["secrets"]) >= 5
    assert [s["seq"] for s in some["view"]["secrets"]] == notes[-2:]
    assert some["changes"] == whole["changes"]
    at = client.get(url, params={"at": notes[0], "secrets": 1}, headers=table.auth("gm")).json()
    assert [s["seq"] for s in at["view"]["secrets"]] == [notes[0]]
    assert at["changes"][-1]["path"] == f"secrets.#{notes[0]}"
