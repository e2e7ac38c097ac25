"""パーティー: proposal as the main action, every partner's consent, moving together, dissolving."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.application.service import GameService
from domain.rulesets.chojin_locke import CHOJIN_LOCKE
from tests.rulesets.chojin_locke.table import (
    cmd,
    end_turn,
    me,
    new_game,
    to_phase,
    to_planets,
    turn_actor,
    twinned_explorers,
    view,
)
from tests.table import Table


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


def _leader_and_partner(table: Table, esp: int = 0) -> tuple[str, int]:
    """The first turn player (ESP level ≥ `esp`) with someone to form a party with, in its
    main phase."""
    for _ in range(8):
        actor = turn_actor(table)
        partner = _partner(view(table, "gm")["players"], int(actor[5:]))
        if partner is not None and me(table, actor)["stats"]["esp_level"] >= esp:
            to_phase(table, "main")
            return actor, partner
        end_turn(table)
    raise AssertionError("no turn player could form a party")


def _planets_without_twins(client: TestClient, **body: Any) -> Table:
    """A game in 惑星編 where no two explorers share a silhouette card: every explorer starts
    on planet 0's spaceport, and twins there would have to fight (3.2 l.396–397, `must_pass`,
    `must_start_combat`), which these tests are not about. The test driver avoids twins where
    the playing cards let it; a deal that forces them is dealt again."""
    for _ in range(20):
        table = new_game(client, **body)
        to_planets(table)
        if not twinned_explorers(table):
            return table
    raise AssertionError("every deal gave two explorers one silhouette")


def test_party_forms_moves_together_and_dissolves(client: TestClient) -> None:
    table = _planets_without_twins(client)  # every explorer starts on planet 0's spaceport
    actor, partner = _leader_and_partner(table)
    leader = int(actor[5:])
    players = view(table, "gm")["players"]
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
    table = _planets_without_twins(client)
    actor, partner = _leader_and_partner(table)
    table.do(actor, cmd("form_party", partners=[partner]))
    table.do(f"seat:{partner}", cmd("answer_party", accepts=False))
    assert view(table, "public")["parties"] == {} and view(table, "public")["proposal"] is None
    assert table.send(actor, cmd("pass")).json()["code"] == "main_action_used"


def test_party_teleport_takes_the_lowest_declaration(
    client: TestClient, service: GameService
) -> None:
    table = _planets_without_twins(client, options={"dice_policy": "both"})
    actor, partner = _leader_and_partner(table, esp=1)
    leader = int(actor[5:])
    table.do(actor, cmd("form_party", partners=[partner]))
    table.do(f"seat:{partner}", cmd("answer_party", accepts=True))
    end_turn(table)
    while turn_actor(table) != actor:
        current = turn_actor(table)
        if view(table, "gm")["turn"]["phase"] == "main":
            table.do(current, cmd("pass"))
        table.do(current, cmd("next_phase"))
    to_phase(table, "main")
    level = me(table, actor)["stats"]["esp_level"]
    table.do(actor, cmd("teleport", declared=level, direction="right", faces=[1]))
    assert table.send(actor, cmd("next_phase")).json()["code"] == "declarations_pending"
    partner_level = me(table, f"seat:{partner}")["stats"]["esp_level"]
    too_high = table.send(f"seat:{partner}", cmd("declare_teleport", declared=partner_level + 1))
    assert too_high.json()["code"] == "declaration_too_high"
    done = table.do(f"seat:{partner}", cmd("declare_teleport", declared=partner_level))
    checked = next(e for e in done["events"] if e["type"] == "chojin_locke.Checked")
    assert checked["public"]["declared"] == min(level, partner_level)
    positions = {p["seat"]: p["position"] for p in view(table, "public")["players"]}
    if checked["public"]["success"]:
        assert positions[leader] == positions[partner] == {"planet": 0, "square": 1}
    table.do("gm", {"type": "end"})
    history = list(service.records(table.game_id))
    audit = CHOJIN_LOCKE.audit_declarations(history)
    party = [c for c in audit if c.what.startswith("パーティでテレポート")]
    assert [(c.declared, c.truth) for c in party] == [
        (level, level),
        (partner_level, partner_level),
    ]
