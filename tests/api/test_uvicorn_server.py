"""A short freeform game through real HTTP against `kiroku serve` (uvicorn) on a SQLite file,
then a restart on the same file: the game, its events and its verification survive unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.serverproc import KirokuServer, group_members

pytestmark = pytest.mark.slow

SECRET = "The butler did it — tell nobody (seat:2 only)"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def command(http: httpx.Client, game_id: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    response = http.post(f"/games/{game_id}/commands", json=body, headers=bearer(token))
    assert response.status_code == 201, response.text
    return response.json()


def events(http: httpx.Client, game_id: str, token: str | None, after: int = 0) -> dict[str, Any]:
    headers = bearer(token) if token else {}
    response = http.get(f"/games/{game_id}/events", params={"after": after}, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def assert_secret_hidden(http: httpx.Client, game_id: str, seat1: str) -> None:
    """Neither seat:1 nor a spectator reads the note addressed to seat:2."""
    for token in (seat1, None):
        response = http.get(f"/games/{game_id}/events", headers=bearer(token) if token else {})
        assert response.status_code == 200, response.text
        assert SECRET not in response.text
        assert "butler" not in response.text


def test_game_over_real_http_survives_restart(tmp_path: Path) -> None:
    db = tmp_path / "kiroku.db"
    server = KirokuServer(db=db)
    with server, httpx.Client(base_url=server.base_url, timeout=10.0) as http:
        pgid = server.process.pid if server.process else 0
        assert http.get("/healthz").json() == {"status": "ok"}

        # ---- create and join
        created = http.post("/games", json={"title": "Uvicorn night", "seats": ["Aki", "Bo"]})
        assert created.status_code == 201, created.text
        game = created.json()
        game_id, gm = game["game_id"], game["gm_token"]
        assert [(s["seat"], s["name"]) for s in game["seats"]] == [(1, "Aki"), (2, "Bo")]
        invites = {s["seat"]: s["invite"] for s in game["seats"]}

        joined1 = http.post(
            f"/games/{game_id}/join", json={"invite": invites[1], "client_seed": "aki-seed-42"}
        )
        joined2 = http.post(f"/games/{game_id}/join", json={"invite": invites[2]})
        assert joined1.status_code == 200, joined1.text
        assert joined2.status_code == 200, joined2.text
        assert (joined1.json()["seat"], joined1.json()["actor"]) == (1, "seat:1")
        assert (joined2.json()["seat"], joined2.json()["actor"]) == (2, "seat:2")
        seat1, seat2 = joined1.json()["token"], joined2.json()["token"]
        reused = http.post(f"/games/{game_id}/join", json={"invite": invites[1]})
        assert reused.status_code == 403, reused.text  # an invite is single use

        # ---- play
        started = command(http, game_id, gm, {"type": "start"})
        assert [e["type"] for e in started["events"]] == ["GameStarted"]
        assert started["last_seq"] == 4  # GameCreated, 2 × SeatJoined, GameStarted

        rolled = command(http, game_id, seat1, {"type": "roll", "expression": "2d6+1>=8"})
        (roll_event,) = rolled["events"]
        assert (roll_event["type"], roll_event["actor"], roll_event["seq"]) == (
            "DiceRolled",
            "seat:1",
            5,
        )
        roll = roll_event["public"]["roll"]
        faces = roll["result"]["faces"]
        assert len(faces) == 2 and all(1 <= f <= 6 for f in faces)
        assert roll["draw"]["roll"] == 1 and roll["draw"]["faces"] == faces
        assert roll["draw"]["seeds"] == ["aki-seed-42"]  # seat:1's client seed is mixed in
        second = command(http, game_id, seat2, {"type": "roll", "expression": "1d20"})
        assert second["events"][0]["public"]["roll"]["draw"]["roll"] == 2
        declared = command(http, game_id, seat2, {"type": "declare", "text": "I open the door"})
        assert declared["events"][0]["public"] == {"text": "I open the door"}

        noted = command(http, game_id, gm, {"type": "note", "text": SECRET, "to": ["seat:2"]})
        (note_event,) = noted["events"]
        note_seq = note_event["seq"]
        assert note_event["type"] == "NoteWritten"
        assert sorted(note_event["sealed"]["audience"]) == ["gm", "seat:2"]
        assert note_event["secret"] == {"text": SECRET}  # the GM wrote it and may read it

        phase = command(http, game_id, gm, {"type": "advance_phase", "phase": "Night"})
        assert phase["events"][0]["type"] == "PhaseAdvanced"
        assert phase["events"][0]["public"]["phase"] == "Night"
        after_phase = command(http, game_id, seat1, {"type": "declare", "text": "I sleep"})
        assert SECRET not in str(after_phase)

        # ---- who sees the note before the end
        assert_secret_hidden(http, game_id, seat1)
        seat1_view = events(http, game_id, seat1)
        assert seat1_view["audience"] == "seat:1"
        hidden = next(e for e in seat1_view["events"] if e["seq"] == note_seq)
        assert hidden["sealed"]["commitment"]
        assert hidden.get("secret") is None
        assert hidden["revealed"] is False
        seat2_view = events(http, game_id, seat2, after=note_seq - 1)
        assert seat2_view["events"][0]["secret"] == {"text": SECRET}
        assert seat1_view["last_seq"] == seat2_view["last_seq"] == after_phase["last_seq"]

        # ---- end: the seed and every secret are revealed, and everything verifies
        ended = command(http, game_id, gm, {"type": "end", "summary": "Dawn came"})
        types = [e["type"] for e in ended["events"]]
        assert types[0] == "GameEnded" and set(types[1:]) == {"Revealed"}
        revealed_of = {e["public"]["of_seq"] for e in ended["events"][1:]}
        assert revealed_of == {1, note_seq}  # the dice seed (GameCreated) and the note
        late = http.post(
            f"/games/{game_id}/commands",
            json={"type": "roll", "expression": "1d6"},
            headers=bearer(seat1),
        )
        assert late.status_code == 409 and late.json()["code"] == "game_ended", late.text

        report = http.get(f"/games/{game_id}/verify", headers=bearer(seat1)).json()
        assert report["ok"] is True, report
        assert report["ended"] is True
        assert report["chain"]["ok"] is True
        assert report["chain"]["events"] == ended["last_seq"]
        assert report["secrets"]["findings"] == []
        assert report["secrets"]["seed_matches"] is True
        assert report["secrets"]["checked_rolls"] == 2
        assert report["secrets"]["checked_draws"] == 2
        assert report["secrets"]["checked_commitments"] >= 2

        before_restart = events(http, game_id, gm)
        assert [e["seq"] for e in before_restart["events"]] == list(range(1, ended["last_seq"] + 1))
        seat1_before = events(http, game_id, seat1)

    assert server.process is None
    assert group_members(pgid) == []  # no worker outlived the stop

    # ---- restart on the same file: same game, same events, same verification
    with server, httpx.Client(base_url=server.base_url, timeout=10.0) as http:
        assert events(http, game_id, gm) == before_restart
        assert events(http, game_id, seat1) == seat1_before
        again = http.get(f"/games/{game_id}/verify", headers=bearer(seat1)).json()
        assert again == report
        summary = http.get(f"/games/{game_id}", headers=bearer(seat2)).json()
        assert summary["status"] == "ended" and summary["last_seq"] == ended["last_seq"]
        assert summary["rules"]["phase"] == "Night"
        # The tokens above still work after the restart (their hashes are in the log); others don't.
        assert http.get(f"/games/{game_id}/events", headers=bearer("nope")).status_code == 401
