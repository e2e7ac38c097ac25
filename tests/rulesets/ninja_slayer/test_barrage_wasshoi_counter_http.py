"""弾幕発生 (L128), Wasshoi! outside a combat (L191–L192) and カウンターカラテ's enhancement
(L131), over HTTP with manual faces. Refusals append nothing."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.table import Table

from .script import Script
from .test_refusals_http import refused
from .test_seed_fixes_http import begin, character, of_type, to_phase

ENTRY = {"entries": [{"low": 1, "high": 6, "text": "窓を破って出現"}]}


@pytest.fixture
def script(client: TestClient) -> Script:
    table = Table.create(
        client,
        seats=["Aki", "Ben"],
        ruleset="ninja_slayer",
        options={"dice_policy": "both"},
        ruleset_options={"tables": {"entry": ENTRY}},
    )
    script = Script(table)
    script.setup()
    return script


def test_a_barrage_converts_mob_shots_before_the_evasion(script: Script) -> None:
    """Two クローンヤクザ shoot Aki; before Aki decides on a 回避判定 the GM declares 弾幕発生
    and the two damages become what the conversion gives (here 1 at HARD)."""
    begin(script, "aki", "m1", "m2", enemy_tie_order=["m1", "m2"])
    to_phase(script, "m1", "attack")
    script.attack("gm", [{"target": "aki", "faces": [4, 1, 1]}], kind="ranged")
    script.advance(2)
    to_phase(script, "m2", "attack")
    script.attack("gm", [{"target": "aki", "faces": [5, 1, 1]}], kind="ranged")
    first, second = script.damages()
    body = {
        "type": "danmaku",
        "damages": [first, second],
        "amount": 1,
        "evasion": "H",
        "text": "弾幕: 1ダメージ(回避:HARD)",
    }
    refused(script, "seat:1", body, 403, "gm_only")
    refused(script, "gm", {**body, "damages": [first]}, 422, "invalid_request")
    refused(script, "gm", {**body, "damages": [first, 99]}, 404, "unknown_damage")
    (declared,) = of_type(
        script.do(
            "gm",
            "danmaku",
            damages=[first, second],
            amount=1,
            evasion="H",
            text="弾幕: 1ダメージ(回避:HARD)",
        ),
        "DanmakuDeclared",
    )
    assert declared["public"]["replaces"] == [first, second]
    (left,) = script.rules()["combat"]["damages"]
    assert (left["amount"], left["difficulty"]) == (1, "H")
    (evasion,) = of_type(script.evade("seat:1", "aki", [left["id"]], [4, 4]), "EvasionRolled")
    assert not evasion["public"]["success"]  # 4s miss at HARD
    assert character(script, "aki")["now"]["tairyoku"] == 4


def test_a_barrage_is_only_mobs_shots(script: Script) -> None:
    begin(script, "aki", "ben", "boss")
    to_phase(script, "boss", "attack")
    script.attack(
        "gm",
        [
            {"target": "aki", "dice": 4, "faces": [4, 1, 1, 1]},
            {"target": "aki", "dice": 3, "faces": [4, 1, 1]},
        ],
    )
    body = {"type": "danmaku", "damages": script.damages(), "amount": 1, "text": "x"}
    refused(script, "gm", body, 409, "not_a_barrage")


def test_wasshoi_outside_a_combat_brings_ninja_slayer(script: Script) -> None:
    """「「ニンジャマスターが適切と考えるあらゆるタイミング」で、ニンジャマスターは『Wasshoi!判定』を
    行ってもよい」: outside a combat a success lets the GM roll the entry table and bring him in."""
    enters = {"type": "ninja_slayer_enters", "id": "ns"}
    refused(script, "gm", enters, 409, "no_wasshoi")
    refused(script, "gm", {"type": "roll_table", "table": "entry", "faces": [3]}, 409, "no_wasshoi")
    (rolled,) = of_type(script.do("gm", "wasshoi", faces=[1, 1]), "WasshoiRolled")
    assert rolled["public"]["success"] and script.rules()["wasshoi_success"]
    (row,) = of_type(script.do("gm", "roll_table", table="entry", faces=[3]), "TableRolled")
    assert row["public"]["text"] == "窓を破って出現"
    arrived = script.do("gm", "ninja_slayer_enters", id="ns")
    assert [e["type"] for e in arrived] == [
        "ninja_slayer.CharacterAdded",
        "ninja_slayer.NinjaSlayerArrived",
    ]
    assert character(script, "ns")["sheet"]["karate"] == 13
    assert not script.rules()["wasshoi_success"]
    refused(script, "gm", enters, 409, "no_wasshoi")
    begin(script, "aki", "ns")
    assert "ns" in script.rules()["combat"]["participants"]


def test_counter_karate_is_enhanced_only_by_counter_abilities(script: Script) -> None:
    """「カウンターカラテは、カウンター強化系の能力によってのみ強化できる」: a declared
    カウンター強化 adds its 痛打; anything else is refused; without one the counter deals 1."""
    begin(script, "aki", "ben", "boss")
    to_phase(script, "boss", "attack")
    script.attack("gm", [{"target": "aki", "faces": [4, 1, 1, 1, 1, 1, 1]}])
    script.evade("seat:1", "aki", script.damages(), [5, 5])
    counter = {"type": "counter_karate", "character": "aki", "target": "boss"}
    melee_boost = {"ability": "◉ツヨイ・カラテ", "kind": "近接強化", "tsuda": 1}
    refused(script, "seat:1", {**counter, "enhancement": melee_boost}, 422, "invalid_request")
    boost = {"ability": "◉カウンター強化", "kind": "カウンター強化", "tsuda": 1}
    (countered,) = of_type(
        script.do("seat:1", "counter_karate", character="aki", target="boss", enhancement=boost),
        "CounterKarate",
    )
    assert countered["public"]["enhancement"] == "◉カウンター強化"
    assert (
        countered["public"]["damage"]["amount"],
        countered["public"]["damage"]["difficulty"],
    ) == (2, "N")
