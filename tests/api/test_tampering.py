"""Change one stored byte behind the service's back: /verify names the first broken seq.

(eventsourcing's SQLite recorder keys rows by the game id's 32-digit hex form.)
"""

from __future__ import annotations

import sqlite3
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from domain.application.service import GameService
from tests.table import Table

EN = {"Accept-Language": "en"}  # the problems read in English (Japanese is the default)


def played(client: TestClient) -> Table:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})  # seq 4
    table.do("seat:1", {"type": "declare", "text": "I search the shrine"})  # seq 5
    table.do("seat:2", {"type": "roll", "expression": "2d6"})  # seq 6
    table.do("seat:2", {"type": "note", "text": "the key is mine"})  # seq 7
    return table


def tamper(db: str, game_id: str, seq: int, old: bytes, new: bytes) -> None:
    with sqlite3.connect(db) as conn:
        (state,) = conn.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
            (UUID(game_id).hex, seq),
        ).fetchone()
        assert old in state
        conn.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (state.replace(old, new, 1), UUID(game_id).hex, seq),
        )


@pytest.mark.parametrize(
    ("seq", "old", "new", "problem"),
    [
        (5, b"search", b"seerch", "hash does not match"),  # a public word
        (6, b"seat:2", b"seat:1", "hash does not match"),  # who rolled
        (7, b"commitment", b"commitmenT", "hash does not match"),  # the sealed secret's trace
        (5, b'"record":"{', b'"record":"[', "cannot be read"),  # no longer an object
    ],
)
def test_one_changed_byte_is_found_at_its_seq(
    client: TestClient,
    service: GameService,
    sqlite_env: dict[str, str],
    seq: int,
    old: bytes,
    new: bytes,
    problem: str,
) -> None:
    table = played(client)
    before = client.get(f"/games/{table.game_id}/verify").json()
    assert before["ok"] is True and before["chain"]["events"] == 7

    tamper(sqlite_env["SQLITE_DBNAME"], table.game_id, seq, old, new)

    report = client.get(f"/games/{table.game_id}/verify", headers=EN).json()
    assert report["ok"] is False
    assert report["chain"]["first_bad_seq"] == seq
    assert problem in report["chain"]["problem"]
    assert f"event {seq}" in report["note"]


def test_a_deleted_event_breaks_the_chain_at_the_gap(
    client: TestClient, sqlite_env: dict[str, str]
) -> None:
    table = played(client)
    with sqlite3.connect(sqlite_env["SQLITE_DBNAME"]) as conn:
        conn.execute(
            "DELETE FROM stored_events WHERE originator_id = ? AND originator_version = 6",
            (UUID(table.game_id).hex,),
        )
    report = client.get(f"/games/{table.game_id}/verify", headers=EN).json()
    assert report["chain"]["first_bad_seq"] == 6
    assert "expected seq 6" in report["chain"]["problem"]
