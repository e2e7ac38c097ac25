"""Views per audience: PC sheets public by default, private when the GM says so."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.table import Table

from .script import AKI, BEN, NS

MARKER = "アキの隠し技"


def table(client: TestClient, **options: Any) -> Table:
    t = Table.create(
        client,
        seats=["Aki", "Ben"],
        ruleset="ninja_slayer",
        options={"dice_policy": "both"},
        ruleset_options=options,
    )
    t.join_all()
    t.do("gm", {"type": "start"})
    t.do(
        "seat:1",
        {
            "type": NS + "add_character",
            "id": "aki",
            "name": "Aki",
            "sheet": {**AKI, "skills": [MARKER]},
        },
    )
    t.do("seat:2", {"type": NS + "add_character", "id": "ben", "name": "Ben", "sheet": BEN})
    t.do(
        "seat:1",
        {"type": NS + "check", "character": "aki", "stat": "カラテ", "faces": [1, 2, 3, 4, 5]},
    )
    return t


def everything(t: Table, actor: str) -> bytes:
    paths = (f"/games/{t.game_id}/events", f"/games/{t.game_id}", f"/games/{t.game_id}/view")
    return b"".join(t.client.get(p, headers=t.auth(actor)).content for p in paths)


def rules(t: Table, actor: str) -> dict[str, Any]:
    data: dict[str, Any] = t.client.get(f"/games/{t.game_id}", headers=t.auth(actor)).json()
    return data["rules"]


def test_pc_sheets_are_public_to_the_table_by_default(client: TestClient) -> None:
    t = table(client)
    for actor in ("public", "seat:2", "seat:1", "gm"):
        assert rules(t, actor)["characters"]["aki"]["sheet"]["skills"] == [MARKER]
    checks = [e for e in t.events("seat:2") if e["type"] == NS + "CheckRolled"]
    assert checks[0]["public"]["detail"]["roll"]["result"]["faces"] == [1, 2, 3, 4, 5]


def test_private_pc_sheets_are_for_their_seat_and_the_gm(client: TestClient) -> None:
    t = table(client, private_pc_sheets=True)
    for actor in ("public", "seat:2"):
        assert MARKER.encode() not in everything(t, actor), actor
        aki = rules(t, actor)["characters"]["aki"]
        assert "sheet" not in aki and aki["status"] == "active"
    for actor in ("seat:1", "gm"):
        assert rules(t, actor)["characters"]["aki"]["sheet"]["skills"] == [MARKER]
        assert MARKER.encode() in everything(t, actor)
    (check,) = [e for e in t.events("seat:2") if e["type"] == NS + "CheckRolled"]
    assert check["public"]["successes"] == 2 and check["public"]["detail"] is None
    assert check.get("secret") is None
    (own,) = [e for e in t.events("seat:1") if e["type"] == NS + "CheckRolled"]
    assert own["secret"]["roll"]["result"]["faces"] == [1, 2, 3, 4, 5]
    assert rules(t, "seat:2")["characters"]["ben"]["sheet"]["karate"] == 4  # its own sheet
