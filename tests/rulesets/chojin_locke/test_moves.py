"""惑星編 movement: one square either way, spaceport hops, teleport one direction only."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    cmd,
    end_turn,
    free_turn,
    new_game,
    to_phase,
    to_planets,
    view,
)


def _position(table, actor: str) -> dict[str, int]:  # type: ignore[no-untyped-def]
    players = view(table, "public")["players"]
    position: dict[str, int] = next(p for p in players if f"seat:{p['seat']}" == actor)["position"]
    return position


def test_spaceport_hop_and_direction_rules(client: TestClient) -> None:
    table = new_game(client, options={"dice_policy": "both"})
    to_planets(table)
    free_turn(table)
    actor = to_phase(table, "main")
    assert table.send(actor, cmd("move", direction="up")).json()["code"] == "bad_move"
    assert table.send(actor, cmd("move", planet=0)).json()["code"] == "not_from_spaceport"
    assert table.send(actor, cmd("move")).json()["code"] == "bad_move"
    teleport = table.send(actor, cmd("teleport", declared=1, faces=[1]))
    assert teleport.json()["code"] in ("direction_required", "declaration_too_high")
    table.do(actor, cmd("move", planet=3))  # spaceport to spaceport takes the main action
    assert _position(table, actor) == {"planet": 3, "square": 0}
    end_turn(table)
    while view(table, "gm")["turn"]["seat"] != int(actor[5:]):
        end_turn(table)
    to_phase(table, "main")
    table.do(actor, cmd("move", direction="right"))
    assert _position(table, actor) == {"planet": 3, "square": 1}
    end_turn(table)
    while view(table, "gm")["turn"]["seat"] != int(actor[5:]):
        end_turn(table)
    to_phase(table, "main")
    refused = table.send(actor, cmd("move", planet=1))
    assert refused.json()["code"] == "not_from_spaceport"  # hops only from a spaceport
