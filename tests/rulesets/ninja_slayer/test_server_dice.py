"""Server dice: every draw of a multi-attack is numbered in order and verifies after the end."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.table import Table

from .script import NS, Script


def test_server_drawn_attacks_and_evasions_verify(client: TestClient) -> None:
    table = Table.create(
        client, seats=["Aki", "Ben"], ruleset="ninja_slayer", options={"dice_policy": "server"}
    )
    script = Script(table)
    script.setup()
    script.do("gm", "begin_combat", participants=["aki", "boss", "m1"])
    while script.rules()["combat"]["actor"] != "boss" or (
        script.rules()["combat"]["phase"] != "attack"
    ):
        script.advance()
    # Two allocations: two draws in one event, sealed to the GM (the boss is unrevealed).
    script.attack("gm", [{"target": "aki", "dice": 4}, {"target": "aki", "dice": 3}])
    hits = script.damages()  # the dice decide how many strikes hit
    for damage in hits:
        table.do(
            "seat:1",
            {"type": NS + "evade", "character": "aki", "damages": [damage], "evasion_dice": 2},
        )
    while script.rules()["combat"]["phase"] != "turn_end":
        script.advance()
    script.do("gm", "wasshoi")
    attack = next(e for e in table.events("gm") if e["type"] == NS + "AttackRolled")
    assert [s["roll"]["draw"]["roll"] for s in attack["secret"]["strikes"]] == [1, 2]
    table.do("gm", {"type": "end"})
    report = client.get(f"/games/{table.game_id}/verify").json()
    assert report["ok"] is True, report
    assert report["secrets"]["checked_draws"] == 2 + len(hits) + 1
