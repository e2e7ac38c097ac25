"""The battle map over HTTP: map, placing and moves are events; every geometry refusal is
problem+json in the game's words and appends nothing; a hidden unit's square reaches no seat."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.table import Table

from .harness import sheet
from .script import Script

GRID = {"width": 10, "height": 8, "blocking": [[4, 0], [4, 1], [4, 2]], "difficult": [[2, 5]]}


def mapped(client: TestClient, **aki: Any) -> Script:
    table = Table.create(
        client, seats=["Aki", "Ben"], ruleset="mech_d20", options={"dice_policy": "both"}
    )
    script = Script(table)
    table.join(1)
    table.join(2)
    table.do("gm", {"type": "start"})
    script.do("seat:1", "add_unit", id="aki", name="アキ", sheet=sheet(**aki))
    script.do("seat:2", "add_unit", id="ben", name="ベン", sheet=sheet())
    script.do("gm", "add_unit", id="boss", name="ガルムス", kind="npc", sheet=sheet())
    script.do("gm", "set_map", grid=GRID)
    script.do("seat:1", "place_unit", unit="aki", x=0, y=0)
    script.do("seat:2", "place_unit", unit="ben", x=0, y=2)
    return script


def test_placing_and_moving_over_http(client: TestClient) -> None:
    script = mapped(client)
    script.refuse("seat:1", "place_unit", "square_occupied", unit="aki", x=0, y=2)
    script.refuse("seat:1", "place_unit", "blocked_square", unit="aki", x=4, y=0)
    placed = script.do("gm", "place_unit", unit="boss", x=3, y=0, hidden=True)
    seq = placed[0]["seq"]
    for seat in ("seat:1", "seat:2", "public"):
        event = next(e for e in script.t.events(seat) if e["seq"] == seq)
        assert event["secret"] is None and event["public"].get("position") is None
        assert "position" not in script.unit("boss", seat)
    assert script.unit("boss")["position"] == {"x": 3, "y": 0, "altitude": 0}
    faces = {"aki": [15], "ben": [10], "boss": [5]}
    script.do("gm", "begin_encounter", participants=["aki", "ben", "boss"], faces=faces)
    script.do("seat:1", "start_turn")
    problem = script.refuse("seat:1", "move", "unreachable", unit="aki", to=[7, 7])
    assert "移動力" in problem["detail"]
    script.refuse(
        "seat:1", "move", "square_occupied", unit="aki", to=[3, 0], path=[[1, 0], [2, 0], [3, 0]]
    )
    script.refuse(
        "seat:1", "move", "too_far", unit="aki", kind="シフト", to=[2, 0], path=[[1, 0], [2, 0]]
    )
    moved = script.do("seat:1", "move", unit="aki", to=[3, 3])
    assert moved[0]["public"]["route"]["to"] == {"x": 3, "y": 3, "altitude": 0}
    # a unit nobody holds: said without the id it was sent (the reader knows names)
    problem = script.refuse("seat:1", "move", "unknown_unit", unit="akii", to=[3, 4])
    assert problem["detail"] == "その機体はこのゲームにいない。"
    assert script.unit("aki", "seat:2")["position"] == {"x": 3, "y": 3, "altitude": 0}


def test_geometry_refusals_over_http_append_nothing(client: TestClient) -> None:
    script = mapped(client, weapons=[{"name": "ビームサーベル", "die": "1d8"}])
    script.do("gm", "place_unit", unit="boss", x=3, y=0)
    faces = {"aki": [15], "ben": [10], "boss": [5]}
    script.do("gm", "begin_encounter", participants=["aki", "ben", "boss"], faces=faces)
    script.do("seat:1", "start_turn")
    problem = script.refuse(
        "seat:1", "use_power", "out_of_range", unit="aki", power="近接基礎攻撃", targets=["boss"]
    )
    assert "間合い" in problem["detail"]
    script.refuse(
        "seat:1",
        "charge",
        "charge_not_closer",
        unit="aki",
        targets=["boss"],
        path=[[0, 1], [1, 1], [2, 1]],
    )
    script.do("seat:1", "move", unit="aki", kind="シフト", to=[1, 0])
    script.do("seat:1", "move", unit="aki", to=[2, 1])
    gm = script.rules("gm")["encounter"]
    assert gm["opportunities"] == []  # nobody was next to アキ where it left
    script.refuse(
        "gm",
        "opportunity_attack",
        "not_adjacent",
        unit="boss",
        trigger=gm["last_action"],
        weapon="ビームサーベル",
    )
