"""Every refusal over HTTP: a problem+json with the stable code, and the log exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.table import Table

from .script import Script

NS = "ninja_slayer."


@pytest.fixture
def script(client: TestClient) -> Script:
    table = Table.create(
        client, seats=["Aki", "Ben"], ruleset="ninja_slayer", options={"dice_policy": "both"}
    )
    script = Script(table)
    script.setup()
    script.do(
        "gm",
        "begin_combat",
        participants=["aki", "ben", "boss", "m1", "m2", "m3"],
        enemy_tie_order=["m1", "m2", "m3"],
    )
    return script


def refused(script: Script, actor: str, body: dict[str, Any], status: int, code: str) -> None:
    before = script.t.log_bytes()
    response = script.t.send(actor, {**body, "type": NS + body["type"]})
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == code
    assert script.t.log_bytes() == before, "a refused command must append nothing"


def test_wrong_phase_and_wrong_actor(script: Script) -> None:
    attack = {"type": "attack", "allocations": [{"target": "boss", "faces": [1]}]}
    refused(script, "seat:2", attack, 409, "wrong_phase")  # the turn start phase
    refused(script, "seat:1", {"type": "advance"}, 403, "gm_only")
    script.advance()  # Ben's 手番
    refused(script, "seat:1", {"type": "advance"}, 403, "not_your_turn")
    refused(script, "seat:1", {"type": "concentrate"}, 403, "not_your_turn")
    refused(script, "seat:2", {"type": "move"}, 409, "wrong_phase")
    refused(script, "seat:2", {"type": "next_turn"}, 403, "gm_only")
    refused(
        script,
        "seat:1",
        {"type": "check", "character": "ben", "stat": "カラテ"},
        403,
        "not_your_character",
    )


def test_overspent_resources_and_reaction_dice_on_evasion(script: Script) -> None:
    check = {
        "type": "check",
        "character": "aki",
        "stat": "カラテ",
        "reaction_dice": 5,
        "faces": [1] * 10,
    }
    refused(script, "seat:1", check, 409, "not_enough_reaction_dice")
    script.advance()
    script.advance(3, actor="seat:2")
    script.advance(actor="seat:2")  # Aki
    script.advance(2, actor="seat:1")
    script.advance(2, actor="seat:1")  # the boss
    script.advance(2)
    script.attack("gm", [{"target": "aki", "faces": [4, 1, 1, 1, 1, 1, 1]}])
    (damage,) = script.damages()
    evade = {"type": "evade", "character": "aki", "damages": [damage]}
    refused(
        script,
        "seat:1",
        {**evade, "evasion_dice": 8, "faces": [1] * 8},
        409,
        "not_enough_evasion_dice",
    )
    refused(
        script,
        "seat:1",
        {**evade, "evasion_dice": 1, "emergency_dice": 1, "faces": [1, 1]},
        409,
        "not_enough_emergency_dice",
    )
    refused(
        script,
        "seat:1",
        {**evade, "evasion_dice": 1, "reaction_dice": 1, "faces": [1]},
        409,
        "reaction_dice_not_allowed",
    )
    refused(
        script,
        "seat:1",
        {"type": "counter_karate", "character": "aki", "target": "boss"},
        409,
        "counter_not_earned",
    )
    refused(script, "gm", {"type": "advance"}, 409, "damage_pending")
    script.evade("seat:1", "aki", [damage], [4])  # 1 success = the attack's 1: no counter
    refused(
        script,
        "seat:1",
        {"type": "counter_karate", "character": "aki", "target": "boss"},
        409,
        "counter_not_earned",
    )
    script.do("seat:2", "adrenaline_boost", character="ben")
    refused(
        script, "seat:2", {"type": "adrenaline_boost", "character": "ben"}, 409, "adrenaline_used"
    )


def test_a_refusal_reads_in_the_readers_language(script: Script) -> None:
    """The game's words in both languages: Japanese by default, English on request; the code
    stays. The character is named, never its id."""
    check = {"type": NS + "check", "character": "ben", "stat": "カラテ"}
    ja = script.t.send("seat:1", check)
    en = script.t.send("seat:1", check, **{"Accept-Language": "en"})
    assert ja.json()["code"] == en.json()["code"] == "not_your_character"
    assert ja.json()["detail"] == "Benはあなたのキャラクターではない。"
    assert en.json()["detail"] == "Ben is not your character."
    adrenaline = {"type": NS + "adrenaline_boost", "character": "m1"}
    ja = script.t.send("gm", adrenaline).json()["detail"]
    en = script.t.send("gm", adrenaline, **{"Accept-Language": "en"}).json()["detail"]
    assert ja == "アドレナリン・ブーストを持つのはニンジャだけ。"
    assert en == "Only ninjas have Adrenaline Boost."
    # an id no character holds (a stale pane): said without echoing it
    unknown = {"type": NS + "check", "character": "fujikido_old", "stat": "カラテ"}
    ja_problem = script.t.send("gm", unknown).json()
    en_problem = script.t.send("gm", unknown, **{"Accept-Language": "en"}).json()
    assert ja_problem["code"] == en_problem["code"] == "unknown_character"
    assert ja_problem["detail"] == "そのキャラクターはこのゲームにいない。"
    assert en_problem["detail"] == "That character is not in this game."
