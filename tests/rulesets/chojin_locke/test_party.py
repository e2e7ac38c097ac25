"""パーティー: proposal as the main action, every partner's consent, moving together, dissolving."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    cmd,
    end_turn,
    new_game,
    to_phase,
    to_planets,
    turn_actor,
    view,
)


def _partner(players: list[dict[str, Any]], leader: int) -> int | None:
    silhouette = next(p["silhouette"] for p in players if p["seat"] == leader)
    return next(
        (
            p["seat"]
            for p in players
            if p["side"] == "explorer" and p["seat"] != leader and p["silhouette"] != silhouette
        ),
        None,
    )


def test_party_forms_moves_together_and_dissolves(client: TestClient) -> None:
    table = new_game(client)
    to_planets(table)  # every explorer starts on planet 0's spaceport
    actor = to_phase(table, "main")
    leader = int(actor[5:])
    players = view(table, "gm")["players"]
    partner = _partner(players, leader)
    if partner is None:
        return
    table.do(actor, cmd("form_party", partners=[partner]))
    assert table.send(actor, cmd("next_phase")).json()["code"] == "party_pending"
    outsider = next(f"seat:{p['seat']}" for p in players if p["seat"] not in (leader, partner))
    refused = table.send(outsider, cmd("answer_party", accepts=True))
    assert refused.json()["code"] == "no_answer_due"
    table.do(f"seat:{partner}", cmd("answer_party", accepts=True))
    public = view(table, "public")
    assert public["parties"] == {str(leader): [partner]}
    assert next(p for p in public["players"] if p["seat"] == partner)["condition"] == "partner"
    end_turn(table)  # the leader's turn ends; then a partner's turn is its check phase only
    while turn_actor(table) != actor:
        current = turn_actor(table)
        if view(table, "gm")["turn"]["phase"] == "main":
            table.do(current, cmd("pass"))
        table.do(current, cmd("next_phase"))
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("move", direction="right"))
    cells = {p["seat"]: p["position"] for p in view(table, "public")["players"]}
    assert cells[leader] == cells[partner] == {"planet": 0, "square": 1}
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("next_phase"))  # support2
    table.do(actor, cmd("dissolve_party"))
    public = view(table, "public")
    assert public["parties"] == {}
    assert next(p for p in public["players"] if p["seat"] == partner)["condition"] == "normal"


def test_refused_proposal_forms_nothing(client: TestClient) -> None:
    table = new_game(client)
    to_planets(table)
    actor = to_phase(table, "main")
    leader = int(actor[5:])
    players = view(table, "gm")["players"]
    partner = _partner(players, leader)
    if partner is None:
        return
    table.do(actor, cmd("form_party", partners=[partner]))
    table.do(f"seat:{partner}", cmd("answer_party", accepts=False))
    assert view(table, "public")["parties"] == {} and view(table, "public")["proposal"] is None
    assert table.send(actor, cmd("pass")).json()["code"] == "main_action_used"
