"""6.1: every declaration is checked against the sealed sheet; the declared value decides."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from domain.application.service import GameService
from domain.rulesets.chojin_locke import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.catalog import sample
from tests.rulesets.chojin_locke.table import (
    cmd,
    free_turn,
    me,
    new_game,
    seats,
    teleporters,
    to_phase,
    to_planets,
    turn_actor,
)
from tests.table import Table


def _playing(client: TestClient, **body: Any) -> Table:
    table = new_game(client, **body)
    to_planets(table)
    return table


def test_overstated_declaration_refused_privately(client: TestClient) -> None:
    table = _playing(client)
    for actor in seats(table):
        stats = me(table, actor)["stats"]
        for stat in ("esp_level", "endurance", "willpower", "esp_power"):
            declared = stats[stat] + 1
            before = table.log_bytes()
            response = table.send(actor, cmd("check", stat=stat, declared=declared))
            assert response.status_code == 409
            body = response.json()
            assert body["code"] == "declaration_too_high"
            assert re.findall(r"\d+", body["detail"]) == [str(declared)]
            assert f"{stats[stat]}" not in response.text.replace(str(declared), "").replace(
                "409", ""
            ), response.text
            assert table.log_bytes() == before


def test_understated_declaration_accepted_and_decides_the_roll(client: TestClient) -> None:
    table = _playing(client, options={"dice_policy": "both"})
    actor = seats(table)[0]
    truth = me(table, actor)["stats"]["willpower"]
    declared = max(truth - 1, 1)
    faces = [declared, 1] if declared + 1 <= 6 else [6, declared - 5]
    # the faces total declared + 1: within the truth, yet the check fails on the declaration
    result = table.do(actor, cmd("check", stat="willpower", declared=declared, faces=faces))
    event = result["events"][0]
    assert event["type"] == "chojin_locke.Checked"
    assert event["public"]["declared"] == declared
    assert event["public"]["roll"]["expression"] == f"2D6<={declared}"
    assert event["public"]["success"] is (sum(faces) <= declared)
    if truth > 1:
        assert event["public"]["success"] is False


def test_endurance_and_willpower_are_declared_one_or_more(client: TestClient) -> None:
    table = _playing(client)
    actor = seats(table)[0]
    for stat in ("endurance", "willpower"):
        response = table.send(actor, cmd("check", stat=stat, declared=0))
        assert response.json()["code"] == "declaration_too_low"


def test_teleport_declares_esp_level(client: TestClient) -> None:
    catalog = teleporters(sample().model_dump(mode="json"), level=1)
    table = _playing(client, options={"dice_policy": "both"}, ruleset_options={"catalog": catalog})
    free_turn(table)
    actor = to_phase(table, "main")
    level = me(table, actor)["stats"]["esp_level"]
    too_high = table.send(actor, cmd("teleport", declared=level + 1, direction="right"))
    assert too_high.json()["code"] == "declaration_too_high"
    too_low = table.send(actor, cmd("teleport", declared=0, direction="right"))
    assert too_low.json()["code"] == "declaration_too_low"
    table.do(actor, cmd("teleport", declared=1, direction="left", faces=[1]))
    players = table.client.get(f"/games/{table.game_id}").json()["rules"]["players"]
    mine = next(p for p in players if f"seat:{p['seat']}" == actor)
    assert mine["position"]["square"] == 5  # one square left of the spaceport: the torus wraps


def test_audit_lists_every_declaration_beside_the_truth(
    client: TestClient, service: GameService
) -> None:
    table = _playing(client)
    actor = turn_actor(table)
    stats = me(table, actor)["stats"]
    table.do(actor, cmd("check", stat="endurance", declared=stats["endurance"]))
    table.do(actor, cmd("check", stat="endurance", declared=1))
    table.do("gm", {"type": "end"})
    history = list(service.records(table.game_id))
    checks = CHOJIN_LOCKE.audit_declarations(history)
    assert [(c.declared, c.truth) for c in checks] == [
        (stats["endurance"], stats["endurance"]),
        (1, stats["endurance"]),
    ]
    assert checks[0].verdict == "legal"
    assert checks[1].verdict == ("understated" if stats["endurance"] > 1 else "legal")
    assert table.client.get(f"/games/{table.game_id}/verify").json()["ok"] is True
