"""Rules the seed states about abilities and weapons whose data it does not print, checked from
structured declarations over HTTP with manual faces: mobs' automatic success (L16), the weapon
in hand's 連続攻撃上限/連射上限 (L231, L235), マルチ可 (L241) and 時間差 (L245), other crit
patterns, ヒサツ・ワザ and shots that crit (L92, L167–L168), exact-face patterns such as 【4】
(L12) and ニンジャスレイヤー's per-strike 痛打 (L209). Refusals append nothing."""

from __future__ import annotations

from typing import Any

from domain.rulesets.ninja_slayer.placement import NINJA_SLAYER_SHEET

from .script import Script
from .test_refusals_http import refused
from .test_seed_fixes_http import begin, character, of_type, to_phase

WEAPONS = [
    {"name": "ナギナタ", "renzoku_limit": 1},
    {"name": "アサルトライフル", "rensha": 3, "multi": "なし"},
    {"name": "ガトリング", "rensha": 3, "multi": "マルチ可", "time_lag": "時間差可"},
    {"name": "ヒナワ", "rensha": 2, "time_lag": "時間差"},
]


def _gunner(script: Script, cid: str, neuron: int, seat: str) -> None:
    sheet = {"karate": 7, "neuron": neuron, "wazamae": 6, "tairyoku": 5, "weapons": WEAPONS}
    script.do(seat, "add_character", id=cid, name=cid, sheet=sheet)


def _switch_next_teban(script: Script, who: str, weapon: str) -> None:
    """End this 手番; at `who`'s next one, take `weapon` in hand and go to the 攻撃フェイズ."""
    script.do("seat:1", "advance")
    script.do("seat:1", "advance")
    to_phase(script, who, "teban_start")
    script.do("seat:1", "switch_weapon", weapon=weapon)
    to_phase(script, who, "attack")


def _two_shots(first: str, second: str, **body: Any) -> dict[str, Any]:
    allocations = [{"target": t, "dice": 3, "faces": [1] * 3} for t in (first, second)]
    return {"type": "attack", "kind": "ranged", "allocations": allocations, **body}


def _shoot(script: Script, actor: str, targets: list[str], **body: Any) -> list[Any]:
    allocations = [{"target": t, "dice": 3, "faces": [4, 1, 1]} for t in targets]
    return script.attack(actor, allocations, kind="ranged", **body)


def test_a_mobs_attack_may_succeed_without_dice(script: Script) -> None:
    """「モブ敵からの攻撃や射撃を自動成功にしたり」: the GM's, for mobs only; 1 success, so an
    evasion with 2 earns カウンターカラテ."""
    begin(script, "aki", "boss", "m1", enemy_tie_order=["m1"])
    to_phase(script, "boss", "attack")
    auto = {"type": "attack", "allocations": [{"target": "aki"}], "auto_success": True}
    refused(script, "gm", auto, 409, "auto_success_mobs_only")
    script.advance(2)
    to_phase(script, "m1", "attack")
    with_faces = {**auto, "allocations": [{"target": "aki", "faces": [1, 1, 1]}]}
    refused(script, "gm", with_faces, 422, "auto_success_rolls_nothing")
    (attack,) = of_type(script.attack("gm", [{"target": "aki"}], auto_success=True), "AttackRolled")
    assert attack["public"]["strikes"][0]["hit"] and attack["public"]["detail"] is None
    assert attack["sealed"] is None  # nothing rolled, nothing sealed
    (evasion,) = of_type(script.evade("seat:1", "aki", script.damages(), [5, 5]), "EvasionRolled")
    assert evasion["public"]["counter_against"] == ["m1"]


def test_the_weapon_in_hand_caps_and_splits(script: Script) -> None:
    """ナギナタ's 連続攻撃上限1 caps ●連続攻撃2; a gun without マルチ可 shoots one target even
    with ●マルチターゲット, one with マルチ可 several."""
    _gunner(script, "cy", 7, "seat:1")
    begin(script, "cy", "m1", "m2", weapons={"cy": "ナギナタ"}, enemy_tie_order=["m1", "m2"])
    to_phase(script, "cy", "attack")
    two = [
        {"target": "m1", "dice": 4, "faces": [1] * 4},
        {"target": "m2", "dice": 3, "faces": [1] * 3},
    ]
    body = {"type": "attack", "allocations": two}
    refused(script, "seat:1", body, 409, "too_many_attacks")
    script.attack("seat:1", [{"target": "m1", "faces": [1] * 7}])
    _switch_next_teban(script, "cy", "アサルトライフル")
    refused(script, "seat:1", _two_shots("m1", "m2"), 409, "no_multi_target")
    _switch_next_teban(script, "cy", "ガトリング")
    (attack,) = of_type(_shoot(script, "seat:1", ["m1", "m2"], time_lag=True), "AttackRolled")
    assert len(attack["public"]["strikes"]) == 2


def test_a_weapons_own_time_lag_needs_no_neuron_seven(script: Script) -> None:
    """「ごく稀に『時間差』そのものを持つ銃器や能力もある」: ヒナワ's 時間差 works for ニューロン 5;
    ガトリング's 時間差可 needs ●時間差."""
    _gunner(script, "zo", 5, "seat:1")
    begin(script, "zo", "m1", weapons={"zo": "ガトリング"}, enemy_tie_order=["m1"])
    to_phase(script, "zo", "attack")
    refused(script, "seat:1", _two_shots("m1", "m1", time_lag=True), 409, "no_time_lag")
    _switch_next_teban(script, "zo", "ヒナワ")
    (attack,) = of_type(_shoot(script, "seat:1", ["m1", "m1"], time_lag=True), "AttackRolled")
    assert attack["public"]["terms"]["time_lag"]


def test_declared_crit_patterns_hissatsu_and_shots(script: Script) -> None:
    """【6,5+】 gives サツバツ! (the plain dice would not), three 6s still ナムアミダブツ! (L167);
    a ヒサツ・ワザ replaces it with its own name and difficulty, no +1 (L168); a shot crits
    only with an ability that says so (L92)."""
    begin(script, "aki", "ben", "boss")
    to_phase(script, "ben", "attack")
    shot = [{"target": "boss", "faces": [6, 6, 1, 1, 1, 1]}]
    (plain,) = of_type(script.attack("seat:2", shot, kind="ranged"), "AttackRolled")
    assert plain["public"]["strikes"][0]["critical"] is None
    script.evade("gm", "boss", script.damages(), [4])
    script.advance()
    to_phase(script, "ben", "attack")
    rule = {"ability": "◉ツヨイ・スリケン", "ranged": True}
    (crit,) = of_type(
        script.attack("seat:2", shot, kind="ranged", shuriken=True, critical=rule), "AttackRolled"
    )
    assert crit["public"]["strikes"][0]["critical"] == "サツバツ"
    script.evade("gm", "boss", script.damages(), [4])
    script.advance()
    to_phase(script, "aki", "attack")
    pattern = {"ability": "◉タツジン", "pattern": "6,5+"}
    (hit,) = of_type(
        script.attack("seat:1", [{"target": "boss", "faces": [6, 5, 1, 1, 1]}], critical=pattern),
        "AttackRolled",
    )
    assert hit["public"]["damages"][0]["critical"] == "サツバツ"
    assert hit["public"]["damages"][0]["difficulty"] == "N"
    script.evade("gm", "boss", script.damages(), [5])
    script.advance()
    to_phase(script, "aki", "attack")
    (hit,) = of_type(
        script.attack("seat:1", [{"target": "boss", "faces": [6, 6, 6, 1, 1]}], critical=pattern),
        "AttackRolled",
    )
    assert hit["public"]["damages"][0]["critical"] == "ナムアミダブツ"
    assert hit["public"]["damages"][0]["difficulty"] == "H"
    script.evade("gm", "boss", script.damages(), [5])
    script.advance()
    to_phase(script, "aki", "attack")
    hissatsu = {"ability": "ヒサツ・ワザ", "hissatsu": "ジゴクツキ", "evasion": "UH"}
    (hit,) = of_type(
        script.attack("seat:1", [{"target": "boss", "faces": [6, 6, 6, 1, 1]}], critical=hissatsu),
        "AttackRolled",
    )
    damage = hit["public"]["damages"][0]
    # Its own UH, no ナムアミダブツ +1 — but melee damage in a boss fight's HARD mode +1.
    assert script.rules()["combat"]["atmosphere"] == 1
    assert (damage["critical"], damage["difficulty"]) == ("ジゴクツキ", "UH2")
    script.evade("gm", "boss", script.damages(), [6])
    script.advance()
    to_phase(script, "boss", "attack")
    body = {
        "type": "attack",
        "allocations": [{"target": "aki", "faces": [1] * 7}],
        "critical": {"ability": "x", "pattern": "7"},
    }
    refused(script, "gm", body, 422, "invalid_request")


def test_a_check_looks_for_an_exact_face(script: Script) -> None:
    """「ごく稀に【4】などの特定出目指定もあり…「4の出目」そのものが必要となる」."""
    check = {"character": "aki", "stat": "ワザマエ", "pattern": "4"}
    (met,) = of_type(script.do("seat:1", "check", faces=[4, 1, 1], **check), "CheckRolled")
    assert (met["public"]["pattern"], met["public"]["pattern_met"]) == ("4", True)
    (missed,) = of_type(script.do("seat:1", "check", faces=[5, 6, 6], **check), "CheckRolled")
    assert missed["public"]["success"] and missed["public"]["pattern_met"] is False
    (two,) = of_type(
        script.do("seat:1", "check", faces=[6, 6, 1], **{**check, "pattern": "【6,5+】"}),
        "CheckRolled",
    )
    assert two["public"]["pattern_met"] is True


def test_ninja_slayers_fists_add_tsuda_per_strike(script: Script) -> None:
    """「出目【6】を含んで成功した各『近接攻撃』は、『痛打+1』となる」 (L209): per strike, bare
    hands only, the one 痛打 (L157)."""
    assert NINJA_SLAYER_SHEET.strike_tsuda == 1 and NINJA_SLAYER_SHEET.sokushi_resistance
    sheet = {
        "karate": 9,
        "neuron": 6,
        "wazamae": 5,
        "tairyoku": 9,
        "evasion": True,
        "strike_tsuda": 1,
        "weapons": [{"name": "カタナ"}],
    }
    script.do("gm", "add_character", id="ns", name="ニンジャスレイヤー", kind="boss", sheet=sheet)
    begin(script, "aki", "ns")
    to_phase(script, "ns", "attack")
    (attack,) = of_type(
        script.attack(
            "gm",
            [
                {"target": "aki", "dice": 4, "faces": [6, 1, 1, 1]},
                {"target": "aki", "dice": 5, "faces": [4, 1, 1, 1, 1]},
            ],
            tsuda=[1],
        ),
        "AttackRolled",
    )
    assert [d["amount"] for d in attack["public"]["damages"]] == [2, 2]  # 痛打+1 once
    for damage in script.damages():
        script.evade("seat:1", "aki", [damage], [5])
    script.advance()
    to_phase(script, "ns", "attack")
    (attack,) = of_type(
        script.attack(
            "gm",
            [
                {"target": "aki", "dice": 4, "faces": [6, 1, 1, 1]},
                {"target": "aki", "dice": 5, "faces": [4, 1, 1, 1, 1]},
            ],
        ),
        "AttackRolled",
    )
    assert [d["amount"] for d in attack["public"]["damages"]] == [2, 1]
    assert character(script, "aki")["status"] == "active"
