"""Rules the seed states that Kiroku used to contradict: each over HTTP, with manual faces.

Every refusal is a problem+json with its code, and the log is byte-identical after it.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.table import Table

from .script import MOBS, Script
from .test_refusals_http import NS, refused


@pytest.fixture
def script(client: TestClient) -> Script:
    table = Table.create(
        client, seats=["Aki", "Ben"], ruleset="ninja_slayer", options={"dice_policy": "both"}
    )
    script = Script(table)
    script.setup()  # Ben 13, Aki 7, the boss 6, three クローンヤクザ 2
    return script


def begin(script: Script, *participants: str, **body: Any) -> None:
    script.do("gm", "begin_combat", participants=list(participants), **body)


def of_type(events: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == NS + name]


def to_phase(script: Script, character: str, phase: str) -> None:
    """The GM moves play on to `character`'s `phase` (next turns with the mobs' order)."""
    for _ in range(60):
        combat = script.rules()["combat"]
        if combat["actor"] == character and combat["phase"] == phase:
            return
        if combat["phase"] == "turn_end":
            script.do("gm", "next_turn", enemy_tie_order=["m1", "m2", "m3"])
        else:
            script.advance()
    raise AssertionError(f"never reached {character}'s {phase}")


def character(script: Script, cid: str) -> dict[str, Any]:
    found: dict[str, Any] = script.rules()["characters"][cid]
    return found


def test_the_sokuten_penalty_is_only_for_the_attack_right_after_it(script: Script) -> None:
    """「あるいは直前に『連続側転』を行っていれば、難易度が+1され『難易度:HARD』となるだろう」
    (2-6): the attack right after the 連続側転, in its 手番 — not one in a later turn."""
    begin(script, "aki", "ben", "boss")
    to_phase(script, "aki", "movement")
    script.do("seat:1", "move", style="連続側転", faces=[5, 1, 1])
    script.advance(actor="seat:1")
    script.do("seat:1", "other_action", action="ハッキング")  # no attack after the 側転
    script.advance(actor="seat:1")
    to_phase(script, "aki", "attack")  # the next turn, after a normal 手番 start
    (attack,) = of_type(
        script.attack("seat:1", [{"target": "boss", "faces": [4] * 5}]), "AttackRolled"
    )
    assert attack["public"]["detail"]["strikes"][0]["difficulty"] == "N"
    script.evade("gm", "boss", script.damages(), [1])
    # In one 手番 the +1 holds: 側転, then the attack.
    to_phase(script, "aki", "movement")
    script.do("seat:1", "move", style="連続側転", faces=[5, 1, 1])
    script.advance(actor="seat:1")
    (attack,) = of_type(
        script.attack("seat:1", [{"target": "boss", "faces": [5] * 5}]), "AttackRolled"
    )
    assert attack["public"]["detail"]["strikes"][0]["difficulty"] == "H"


def _boss_hits_ben(script: Script) -> int:
    begin(script, "aki", "ben", "boss")
    to_phase(script, "boss", "attack")
    script.attack("gm", [{"target": "ben", "faces": [4, 1, 1, 1, 1, 1, 1]}])  # 1 success
    (damage,) = script.damages()
    return damage


def test_sixth_sense_rerolls_a_failed_evasion_and_undoes_the_damage(script: Script) -> None:
    """「これはあらゆる判定を対象にでき、失敗した判定だけでなく、成功している判定を敢えて
    振り直すこともできる」 (●ニンジャ第六感): an evasion is a 判定 too, and the new roll's outcome
    replaces the one applied — here the damage taken is undone and a counter is earned."""
    damage = _boss_hits_ben(script)
    evaded = script.evade("seat:2", "ben", [damage], [1, 1])
    (evasion,) = of_type(evaded, "EvasionRolled")
    assert of_type(evaded, "DamageTaken") and character(script, "ben")["now"]["tairyoku"] == 1
    refused(
        script,
        "seat:2",
        {"type": "counter_karate", "character": "ben", "target": "boss"},
        409,
        "counter_not_earned",
    )
    rerolled = script.do(
        "seat:2", "sixth_sense", character="ben", check_seq=evasion["seq"], faces=[6, 6]
    )
    assert [e["type"].removeprefix(NS) for e in rerolled] == [
        "SixthSense",
        "EvasionRolled",
        "DamageUndone",
    ]
    assert rerolled[1]["public"]["reroll_of"] == evasion["seq"]
    assert rerolled[1]["public"]["counter_against"] == ["boss"]  # 2 successes > the attack's 1
    ben = character(script, "ben")
    assert ben["now"]["tairyoku"] == 2 and ben["status"] == "active"
    assert ben["now"]["evasion"] == 11  # the dice were paid with the first roll
    refused(
        script,
        "seat:2",
        {"type": "sixth_sense", "character": "ben", "check_seq": evasion["seq"], "faces": [6]},
        409,
        "sixth_sense_used",
    )
    script.do("seat:2", "counter_karate", character="ben", target="boss")


def test_sixth_sense_can_turn_an_evaded_hit_into_a_hit(script: Script) -> None:
    """「成功している判定を敢えて振り直すこともできる」: a successful evasion rolled again and
    failed lets the damage through."""
    damage = _boss_hits_ben(script)
    (evasion,) = of_type(script.evade("seat:2", "ben", [damage], [4, 1]), "EvasionRolled")
    assert script.damages() == [] and character(script, "ben")["now"]["tairyoku"] == 2
    rerolled = script.do(
        "seat:2", "sixth_sense", character="ben", check_seq=evasion["seq"], faces=[1, 1]
    )
    (taken,) = of_type(rerolled, "DamageTaken")
    assert taken["public"]["amount"] == 1
    assert character(script, "ben")["now"]["tairyoku"] == 1


def test_an_evasion_is_rerolled_only_before_play_moves_on(script: Script) -> None:
    """「直ちに振り直すことができる」: once the phase has moved on, the evasion stands."""
    damage = _boss_hits_ben(script)
    (evasion,) = of_type(script.evade("seat:2", "ben", [damage], [1, 1]), "EvasionRolled")
    script.advance()
    body = {"type": "sixth_sense", "character": "ben", "check_seq": evasion["seq"], "faces": [6]}
    refused(script, "seat:2", body, 409, "not_a_check")


def test_renzoku_and_rensha_are_gained_from_the_base_stats(script: Script) -> None:
    """「これらのスキルは、キャラが成長によって前提条件を満たすたびに自動的に獲得されてゆき」
    (2-16): ●連続攻撃2 at 【カラテ】 7, ●連続攻撃3 at 13, ●連射2 at 【ワザマエ】 7, ●連射3 at 13."""
    sheet = {"karate": 13, "neuron": 20, "wazamae": 7, "tairyoku": 5, "seishin": 2}
    script.do("seat:1", "add_character", id="kai", name="Kai", sheet=sheet)
    begin(script, "kai", "boss", "m1", "m2", "m3", enemy_tie_order=["m1", "m2", "m3"])
    to_phase(script, "kai", "attack")
    four = [{"target": "boss", "dice": 4, "faces": [1] * 4}] * 3 + [
        {"target": "boss", "dice": 1, "faces": [1]}
    ]
    refused(script, "seat:1", {"type": "attack", "allocations": four}, 409, "too_many_attacks")
    three = [
        {"target": t, "dice": d, "faces": [1] * d} for t, d in (("boss", 5), ("m1", 4), ("m2", 4))
    ]
    assert of_type(script.attack("seat:1", three), "AttackRolled")
    script.advance(actor="seat:1")
    to_phase(script, "kai", "attack")
    shots = [{"target": t, "dice": d, "faces": [1] * d} for t, d in (("boss", 4), ("m1", 3))]
    assert of_type(script.attack("seat:1", shots, kind="ranged"), "AttackRolled")


def test_a_gun_shoots_its_own_rensha(script: Script) -> None:
    """「キャラの装備している銃器が『連射』値を持つ場合は、自分自身の『●連射』値ではなく、
    銃器本体の『連射』値を使う(『連射1』は要するに単発射撃である)」; スリケン use ●連射."""
    sheet = {
        "karate": 3,
        "neuron": 20,
        "wazamae": 7,  # ●連射2
        "tairyoku": 5,
        "weapons": [{"name": "ライフル", "rensha": 1}],
    }
    script.do("seat:1", "add_character", id="kai", name="Kai", sheet=sheet)
    begin(script, "kai", "boss", weapons={"kai": "ライフル"})
    to_phase(script, "kai", "attack")
    two = [{"target": "boss", "dice": d, "faces": [1] * d} for d in (4, 3)]
    refused(
        script,
        "seat:1",
        {"type": "attack", "kind": "ranged", "allocations": two},
        409,
        "too_many_attacks",
    )
    assert of_type(script.attack("seat:1", two, kind="ranged", shuriken=True), "AttackRolled")


def test_a_new_pc_tie_in_combat_is_the_players_to_settle_once(script: Script) -> None:
    """「戦闘中にイニシアチブ値の変化が起こり、仲間同士でイニシアチブ同値となった場合、最初に
    1回だけ順番を決め、それを戦闘終了まで維持する」: the players' order is used, an order against
    one already kept is refused (never silently replaced), and it is kept to the combat's end."""
    sheet = {"karate": 3, "neuron": 7, "wazamae": 3, "tairyoku": 5}
    script.do("seat:1", "add_character", id="kai", name="Kai", sheet=sheet)
    mob = MOBS[0]  # a combat has an enemy (ruling NS-053)
    body = {"type": "begin_combat", "participants": ["aki", "ben", "kai", mob]}
    refused(script, "gm", body, 409, "pc_tie_order_required")
    begin(script, "aki", "ben", "kai", mob, pc_tie_order=["kai", "aki"])
    assert script.rules()["combat"]["order"] == ["ben", "kai", "aki", mob]
    script.do("gm", "adjust", character="ben", changes={"neuron": -6}, reason="サツバツ!")
    while script.rules()["combat"]["phase"] != "turn_end":
        script.advance()
    refused(script, "gm", {"type": "next_turn"}, 409, "pc_tie_order_required")
    against = {"type": "next_turn", "pc_tie_order": ["aki", "ben", "kai"]}
    refused(script, "gm", against, 409, "pc_tie_order_kept")
    script.do("gm", "next_turn", pc_tie_order=["ben", "kai", "aki"])
    assert script.rules()["combat"]["order"] == ["ben", "kai", "aki", mob]
    while script.rules()["combat"]["phase"] != "turn_end":
        script.advance()
    script.do("gm", "next_turn")  # kept: not asked again
    assert script.rules()["combat"]["order"] == ["ben", "kai", "aki", mob]


def test_only_a_ninja_evades_several_damages_at_once(script: Script) -> None:
    """「ニンジャならば全てまとめて1回の『回避判定』で回避できる」 (2-11): a non-ninja boss
    evades each damage on its own."""
    human = {"karate": 4, "neuron": 3, "wazamae": 4, "tairyoku": 5, "ninja": False, "evasion": True}
    script.do("gm", "add_character", id="cop", name="デッカー", kind="boss", sheet=human)
    begin(script, "ben", "cop")
    to_phase(script, "ben", "attack")
    shots = [{"target": "cop", "dice": 3, "faces": [4, 1, 1]}] * 2
    script.attack("seat:2", shots, kind="ranged")
    both = script.damages()
    body = {"type": "evade", "character": "cop", "damages": both, "evasion_dice": 1, "faces": [1]}
    refused(script, "gm", body, 409, "not_a_ninja")
    script.evade("gm", "cop", both[:1], [1])
    script.evade("gm", "cop", both[1:], [1])


def test_same_kind_mobs_renzoku_is_evaded_one_strike_of_each_at_a_time(script: Script) -> None:
    """「ニンジャは同種のモブ敵複数による『連続攻撃2』や『時間差』つきの『連射2』などを、
    1発ごとにまとめて回避することができる(プレイ例2)」 (2-11)."""
    strong = {"karate": 7, "neuron": 2, "wazamae": 3, "tairyoku": 1, "ninja": False}
    for mob in ("y1", "y2"):
        script.do("gm", "add_character", id=mob, name="ヤクザ", kind="mob", sheet=strong)
    begin(script, "aki", "y1", "y2", enemy_tie_order=["y1", "y2"])
    two = [{"target": "aki", "dice": d, "faces": [4] + [1] * (d - 1)} for d in (4, 3)]
    to_phase(script, "y1", "attack")
    script.attack("gm", two)  # ●連続攻撃2 from 【カラテ】 7
    to_phase(script, "y2", "attack")
    script.attack("gm", two)
    a1, a2, b1, b2 = script.damages()
    body = {"type": "evade", "character": "aki", "evasion_dice": 1, "faces": [1]}
    refused(script, "seat:1", {**body, "damages": [a1, a2]}, 409, "batch_not_allowed")
    script.evade("seat:1", "aki", [a1, b1], [5])
    script.evade("seat:1", "aki", [a2, b2], [5])
    assert script.damages() == []


def test_dkk_stops_at_twelve(script: Script) -> None:
    """「シナリオや余暇で邪悪な行動を取るたびに、君のニンジャの【DKK】値は上昇してゆく(上限12)」."""
    body = {"type": "adjust", "character": "aki", "changes": {"dkk": 10}, "reason": "悪"}
    refused(script, "gm", body, 409, "dkk_limit")
    refused(script, "gm", {**body, "changes": {"dkk": -4}}, 409, "dkk_limit")
    script.do("gm", "adjust", character="aki", changes={"dkk": 9}, reason="悪")
    assert character(script, "aki")["now"]["dkk"] == 12
    (wasshoi,) = script.do("gm", "wasshoi", faces=[6, 6])
    assert wasshoi["public"]["target"] == 12 and wasshoi["public"]["success"]  # 12 ≤ 12


def test_reaction_and_emergency_dice_have_no_upper_limit_of_twenty(script: Script) -> None:
    """「1人のキャラクターが持てる即応ダイスに上限値は存在しない」 and 「1人のキャラクターが持てる
    緊急回避ダイス数に上限値は存在しない」 (2-1): only a technical bound of 999 remains."""
    sheet = {
        "karate": 3,
        "neuron": 20,
        "wazamae": 3,
        "tairyoku": 5,
        "reaction_dice": 30,
        "emergency_dice": 25,
    }
    script.do("seat:1", "add_character", id="kai", name="Kai", sheet=sheet)
    script.do("seat:1", "check", character="kai", stat="カラテ", reaction_dice=24, faces=[1] * 27)
    assert character(script, "kai")["now"]["reaction"] == 6
    refused(
        script,
        "seat:1",
        {
            "type": "add_character",
            "id": "big",
            "name": "Big",
            "sheet": {**sheet, "reaction_dice": 1000},
        },
        422,
        "invalid_request",
    )
    begin(script, "kai", "boss")
    to_phase(script, "boss", "attack")
    script.attack("gm", [{"target": "kai", "faces": [4, 1, 1, 1, 1, 1, 1]}])
    script.evade("seat:1", "kai", script.damages(), [5] * 25, emergency_dice=23)
    assert character(script, "kai")["now"]["emergency"] == 2


def test_an_evasion_whose_counter_was_dealt_stands(script: Script) -> None:
    """「自分が行った判定いずれか1回分を、直ちに振り直すことができる」: a カウンターカラテ once
    dealt cannot be taken back, so the evasion that earned it stands (ruling NS-018)."""
    damage = _boss_hits_ben(script)
    (evasion,) = of_type(script.evade("seat:2", "ben", [damage], [6, 6]), "EvasionRolled")
    script.do("seat:2", "counter_karate", character="ben", target="boss")
    body = {"type": "sixth_sense", "character": "ben", "check_seq": evasion["seq"], "faces": [1]}
    refused(script, "seat:2", body, 409, "counter_declared")
