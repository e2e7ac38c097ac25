"""Damage that is not an attack, over HTTP with manual faces (2-11 L121, 2-13 L160, 2-17 L254).

「君のニンジャが何らかの理由でダメージを受けることになった場合、それに対し1回だけ『回避判定』を
試みられる」; 弾き飛ばし: 「敵は激突による1ダメージを直ちに受ける(『回避:NORMAL』)」; 「なお、
モブ敵によるダメージや環境効果によるダメージは、アトモスフィアの影響を受けない」.
"""

from __future__ import annotations

from .script import Script
from .test_refusals_http import refused
from .test_seed_fixes_http import begin, character, of_type, to_phase
from .test_seed_stated_http import to_turn_end


def test_environment_damage_ignores_the_atmosphere(script: Script) -> None:
    """In HARD mode a boss's melee is evaded at HARD, the burning floor still at NORMAL."""
    begin(script, "aki", "ben", "boss")
    to_turn_end(script)
    script.do("gm", "atmosphere", level=1)
    script.do("gm", "next_turn")
    (declared,) = of_type(
        script.do(
            "gm", "hazard", target="aki", amount=2, source="environment", text="燃えるタタミ"
        ),
        "HazardDeclared",
    )
    damage = declared["public"]["damage"]
    assert (damage["difficulty"], damage["kind"], damage["source"]) == (
        "N",
        "hazard",
        "environment",
    )
    refused(script, "seat:1", {"type": "advance"}, 409, "damage_pending")
    evaded = script.evade("seat:1", "aki", [damage["id"]], [4, 1])  # 4 is enough at NORMAL
    (evasion,) = of_type(evaded, "EvasionRolled")
    assert evasion["public"]["success"] and evasion["public"]["counter_against"] == []
    assert script.damages() == [] and character(script, "aki")["now"]["evasion"] == 5
    to_phase(script, "boss", "attack")
    script.attack("gm", [{"target": "aki", "faces": [4, 1, 1, 1, 1, 1, 1]}])
    (hit,) = script.rules()["combat"]["damages"]
    assert hit["difficulty"] == "H"  # PC/boss melee in HARD mode


def test_a_collision_from_knock_back_is_evaded_at_normal(script: Script) -> None:
    """弾き飛ばし into a wall: 1 damage, 『回避:NORMAL』, one 回避判定; failed, it is taken."""
    begin(script, "aki", "ben", "boss")
    to_phase(script, "aki", "attack")
    hit = script.do("gm", "hazard", target="boss", source="collision", text="弾き飛ばしで壁に激突")
    (declared,) = of_type(hit, "HazardDeclared")
    assert declared["public"]["damage"]["amount"] == 1
    assert declared["public"]["damage"]["difficulty"] == "N"
    (taken,) = of_type(script.evade("gm", "boss", script.damages(), [3, 2]), "DamageTaken")
    assert taken["public"]["amount"] == 1 and character(script, "boss")["now"]["tairyoku"] == 2


def test_a_trap_outside_a_combat_is_evaded_with_the_kaihi_value(script: Script) -> None:
    """Outside a combat there are no turns to give 回避ダイス: the pool is 【回避】 (ruling NS-036).
    A HARD trap: Ben (【回避】 13) may not roll 14 dice; he evades with a 5."""
    (declared,) = of_type(
        script.do("gm", "hazard", target="ben", evasion="H", text="落とし穴"), "HazardDeclared"
    )
    damage = declared["public"]["damage"]["id"]
    assert script.rules()["hazards"][0]["difficulty"] == "H"
    evade = {"type": "evade", "character": "ben", "damages": [damage], "evasion_dice": 14}
    refused(script, "seat:2", {**evade, "faces": [5] * 14}, 409, "not_enough_evasion_dice")
    refused(script, "seat:1", {**evade, "evasion_dice": 1, "faces": [5]}, 403, "not_your_character")
    refused(script, "gm", {"type": "begin_combat", "participants": ["aki"]}, 409, "damage_pending")
    refused(script, "gm", {"type": "end_scenario"}, 409, "damage_pending")
    (evasion,) = of_type(script.evade("seat:2", "ben", [damage], [4, 5]), "EvasionRolled")
    assert evasion["public"]["success"] and script.rules()["hazards"] == []
    script.do("gm", "hazard", target="ben", evasion="H", text="毒矢")
    (taken,) = of_type(script.do("seat:2", "take_damage", damages=[2]), "DamageTaken")
    assert taken["public"]["amount"] == 1 and character(script, "ben")["now"]["tairyoku"] == 1
    refused(script, "seat:2", {**evade, "evasion_dice": 1, "faces": [5]}, 409, "no_damage")


def test_only_the_gm_declares_it_and_mobs_take_it_at_once(script: Script) -> None:
    body = {"type": "hazard", "target": "aki", "text": "落石"}
    refused(script, "seat:1", body, 403, "gm_only")
    refused(script, "gm", {**body, "evasion": "X"}, 422, "unknown_difficulty")
    refused(script, "gm", {**body, "target": "nobody"}, 404, "unknown_character")
    (taken,) = of_type(
        script.do("gm", "hazard", target="m1", source="environment", text="落石"),
        "DamageTaken",
    )
    assert taken["public"]["status"] == "removed" and script.rules()["hazards"] == []
