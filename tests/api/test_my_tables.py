""" "My tables": the games this browser holds a live session for, in its language; a cookie
that names no game, or a session since signed out, is left out without a word."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.table import Table


def test_my_tables_lists_the_games_this_browser_is_signed_in_to(client: TestClient) -> None:
    table = Table.create(client, seats=["フジキド", "ヤモト"], ruleset="ninja_slayer")
    table.join_all()
    other = Table.create(client, seats=["Aki"])
    opened = client.post(f"/games/{table.game_id}/session", headers=table.auth("seat:2"))
    session = opened.cookies[f"kiroku_{table.game_id}"]
    client.cookies.clear()
    cookies = f"kiroku_{table.game_id}={session}; kiroku_{other.game_id}=forged; kiroku_x=y"
    listed = client.get("/my/tables", headers={"Cookie": cookies}).json()
    assert [row["game_id"] for row in listed] == [table.game_id]
    row = listed[0]
    assert row["title"] == "Test table" and row["you"] == "ヤモト"
    assert row["system"] == "ニンジャスレイヤーTRPG 第2版" and row["status"] == "開始待ち"
    assert row["last_activity"]
    english = client.get("/my/tables", headers={"Cookie": cookies, "Accept-Language": "en"})
    assert english.json()[0]["status"] == "waiting to start"
    # signed out by the GM: the table is no longer this browser's
    table.do("gm", {"type": "revoke_sessions", "audience": "seat:2"})
    assert client.get("/my/tables", headers={"Cookie": cookies}).json() == []
