"""カイシャク (L150), 『即死!』, ●即死耐性 and ダメージ軽減 (L162–L163), over HTTP with manual
faces. Refusals append nothing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.table import Table

from .script import Script
from .test_refusals_http import refused
from .test_seed_fixes_http import begin, character, of_type, to_phase

SATSUBATSU = {
    "dice": "1D6",
    "entries": [
        {"low": 1, "high": 5, "text": "痛打+1"},
        {"low": 6, "text": "即死!"},
    ],
}


def _script(client: TestClient, **options: Any) -> Script:
    table = Table.create(
        client,
        seats=["Aki", "Ben"],
        ruleset="ninja_slayer",
        options={"dice_policy": "both"},
        ruleset_options=options,
    )
    script = Script(table)
    script.setup()
    return script


@pytest.fixture
def script(client: TestClient) -> Script:
    return _script(client, tables={"satsubatsu": SATSUBATSU})


def _faint_boss(script: Script) -> None:
    script.do("gm", "adjust", character="boss", changes={"tairyoku": -3}, reason="ruling")
    assert character(script, "boss")["status"] == "気絶"


def test_kaishaku_gives_row_six_and_its_instant_death(script: Script) -> None:
    """Ben (a ninja) カイシャク the 気絶 boss: the GM's row 6 (即死!) is recorded, the action
    is spent, and 即死! kills it whatever its 精神力 (no ●即死耐性)."""
    begin(script, "aki", "ben", "boss")
    to_phase(script, "ben", "attack")
    body = {"type": "kaishaku", "target": "boss"}
    refused(script, "seat:2", body, 409, "not_fainted")
    refused(script, "seat:2", {**body, "target": "aki"}, 409, "not_an_enemy")
    death = {"type": "instant_death", "attacker": "ben", "target": "boss"}
    refused(script, "seat:2", death, 409, "no_critical")
    _faint_boss(script)
    refused(script, "seat:1", body, 403, "not_your_turn")
    (done,) = of_type(script.do("seat:2", "kaishaku", target="boss"), "Kaishaku")
    assert done["public"]["text"] == "即死!"
    (row,) = script.rules()["combat"]["rows"]
    assert (row["attacker"], row["target"], row["critical"]) == ("ben", "boss", "カイシャク")
    refused(script, "seat:2", body, 409, "already_acted")
    refused(
        script,
        "seat:2",
        {"type": "attack", "allocations": [{"target": "boss"}]},
        409,
        "already_acted",
    )
    (dead,) = of_type(
        script.do("seat:2", "instant_death", attacker="ben", target="boss"), "InstantDeath"
    )
    assert (dead["public"]["resisted"], dead["public"]["status"]) == (False, "爆発四散")
    assert character(script, "boss")["status"] == "爆発四散"
    refused(script, "seat:2", death, 409, "no_critical")  # applied once
    assert script.rules()["combat"]["rows"] == []


def test_only_a_ninja_may_kaishaku(client: TestClient) -> None:
    script = _script(client)
    script.do(
        "gm",
        "add_character",
        id="human",
        name="ヤクザ",
        kind="boss",
        sheet={"karate": 3, "neuron": 20, "wazamae": 3, "tairyoku": 3, "ninja": False},
    )
    begin(script, "aki", "ben", "human")
    script.do("gm", "adjust", character="aki", changes={"tairyoku": -5}, reason="ruling")
    to_phase(script, "human", "attack")
    refused(script, "gm", {"type": "kaishaku", "target": "aki"}, 409, "not_a_ninja")
    (done,) = of_type(script.do("gm", "other_action", action="逃げる"), "OtherAction")
    assert done


def test_sokushi_resistance_turns_instant_death_into_tsuda_2d6(script: Script) -> None:
    """A boss with ●即死耐性 and ダメージ軽減1 takes an unevaded サツバツ! (2 damage) then the
    table's 即死!: 痛打+2D6 (3+4) on the hit — final 9, minus 1 — so 7 more after the 1 it
    took (its 体力 9, 精神力 4: 1 then 7 → 体力 1)."""
    script.do(
        "gm",
        "add_character",
        id="oni",
        name="オニ",
        kind="boss",
        sheet={
            "karate": 6,
            "neuron": 5,
            "wazamae": 5,
            "tairyoku": 9,
            "seishin": 4,
            "evasion": True,
            "sokushi_resistance": True,
            "damage_reduction": 1,
        },
    )
    begin(script, "aki", "ben", "oni")
    to_phase(script, "ben", "attack")
    script.attack("seat:2", [{"target": "oni", "faces": [6, 6, 1, 1]}], base_damage=2)
    (taken,) = of_type(script.evade("gm", "oni", script.damages(), [1]), "DamageTaken")
    assert taken["public"]["amount"] == 2 and taken["public"]["unevaded_critical"] == "サツバツ"
    assert taken["public"]["reduced"] == 0  # the sheet is the GM's: not told
    assert character(script, "oni")["now"]["tairyoku"] == 8  # 2 − ダメージ軽減1
    (row,) = of_type(
        script.do("seat:2", "roll_table", table="satsubatsu", faces=[6]), "TableRolled"
    )
    assert row["public"]["text"] == "即死!"
    (resisted,) = of_type(
        script.do("seat:2", "instant_death", attacker="ben", target="oni", faces=[3, 4]),
        "InstantDeath",
    )
    assert resisted["public"]["resisted"] and resisted["public"]["total"] == 7
    oni = character(script, "oni")
    assert (oni["status"], oni["now"]["tairyoku"]) == ("active", 1)


def test_damage_reduction_on_a_revealed_sheet_is_told(script: Script) -> None:
    """A PC with ダメージ軽減1 (a public sheet) hit for 1: nothing gets through, and the event
    says so."""
    script.do(
        "gm",
        "add_character",
        id="cy",
        name="サイ",
        owner="seat:1",
        sheet={"karate": 4, "neuron": 4, "wazamae": 4, "tairyoku": 4, "damage_reduction": 1},
    )
    begin(script, "cy", "boss")
    to_phase(script, "boss", "attack")
    script.attack("gm", [{"target": "cy", "faces": [4, 1, 1, 1, 1, 1, 1]}])
    (taken,) = of_type(script.evade("seat:1", "cy", script.damages(), [1]), "DamageTaken")
    assert (taken["public"]["amount"], taken["public"]["reduced"]) == (1, 1)
    assert character(script, "cy")["now"]["tairyoku"] == 4
