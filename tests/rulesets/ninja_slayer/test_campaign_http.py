"""A campaign in one game, over HTTP with manual faces (2-2 L35–L37, 2-10 L116, 2-13 L170–L177,
2-1 L24 and L28): the scenario's stages in order, the 万札プール filled and split, the sheet
changed by logged events, ●部位損傷's ×s erased at the scenario's end and its penalty in the
next scenario. Every refusal appends nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.table import Table

from .script import Script
from .test_refusals_http import refused
from .test_seed_fixes_http import begin, character, of_type


def stage(script: Script, name: str) -> list[dict[str, Any]]:
    return script.do("gm", "scenario_stage", stage=name)


def growth(kind: str, reason: str, **change: Any) -> dict[str, Any]:
    return {"kind": kind, "reason": reason, **change}


def test_stages_run_in_the_seeds_order(script: Script) -> None:
    """「ダンゴウ」→「シナリオ本編」→「評価」→「余暇」: a combat and 即応ダイス only in the 本編."""
    assert (script.rules()["scenario"], script.rules()["stage"]) == (1, "本編")
    (changed,) = of_type(stage(script, "ダンゴウ"), "StageChanged")  # the opening's ダンゴウ
    assert changed["public"] == {"scenario": 1, "stage": "ダンゴウ"}
    refused(script, "gm", {"type": "begin_combat", "participants": ["aki"]}, 409, "not_in_honpen")
    check = {"type": "check", "character": "aki", "stat": "ニューロン", "faces": [4] * 7}
    refused(script, "seat:1", {**check, "reaction_dice": 1}, 409, "reaction_dice_not_allowed")
    script.do("seat:1", "check", **{k: v for k, v in check.items() if k != "type"})
    refused(script, "gm", {"type": "scenario_stage", "stage": "評価"}, 409, "wrong_stage")
    refused(script, "seat:1", {"type": "scenario_stage", "stage": "本編"}, 403, "gm_only")
    stage(script, "本編")
    refused(script, "gm", {"type": "scenario_stage", "stage": "ダンゴウ"}, 409, "wrong_stage")
    refused(script, "gm", {"type": "scenario_stage", "stage": "余暇"}, 409, "wrong_stage")
    script.do("gm", "end_scenario")
    assert script.rules()["stage"] == "評価"
    refused(script, "gm", {"type": "end_scenario"}, 409, "not_in_honpen")
    stage(script, "余暇")
    stage(script, "ダンゴウ")
    assert (script.rules()["scenario"], script.rules()["stage"]) == (2, "ダンゴウ")


def test_two_scenarios_of_a_campaign(script: Script) -> None:
    stage(script, "ダンゴウ")
    stage(script, "本編")
    begin(script, "aki", "ben", "boss", "m1")
    # サツバツ! rows: ●部位損傷 (the GM's table). Twice on one part: ×2.
    refused(
        script, "seat:1", {"type": "injure", "character": "aki", "part": "頭部"}, 403, "gm_only"
    )
    script.do("gm", "injure", character="aki", part="頭部")
    script.do("gm", "injure", character="aki", part="頭部")
    script.do("gm", "injure", character="ben", part="腕")
    assert character(script, "aki")["injuries"] == {"頭部": 2}
    # A weapon picked up in the 本編 costs its slots in 即応ダイス at once (L28).
    pickup = growth("装備", "ヤクザから拾った", add_weapons=[{"name": "チャカガン"}])
    refused(
        script,
        "seat:1",
        {"type": "change_sheet", "character": "aki", "change": pickup},
        403,
        "gm_only",
    )
    grow = growth("成長", "カラテを鍛える", changes={"karate": 1})
    refused(
        script,
        "gm",
        {"type": "change_sheet", "character": "aki", "change": grow},
        409,
        "wrong_stage",
    )
    script.do("gm", "change_sheet", character="aki", change=pickup)
    assert character(script, "aki")["now"]["reaction"] == 3
    # Drops go into the 万札プール: a defeated enemy once, loot by amount.
    drop = {"type": "drop", "character": "m1", "amount": 2}
    refused(script, "gm", drop, 409, "not_defeated")
    script.do("gm", "adjust", character="m1", changes={"tairyoku": -1}, reason="スリケン")
    script.do("gm", "drop", character="m1", amount=2)
    refused(script, "gm", drop, 409, "already_dropped")
    refused(script, "gm", {"type": "drop", "character": "aki"}, 409, "not_an_enemy")
    refused(script, "gm", {"type": "drop"}, 422, "amount_required")
    script.do("gm", "drop", amount=5, reason="金庫")
    assert script.rules()["pool"] == 7
    to_end = {"type": "end_scenario"}
    refused(script, "gm", to_end, 409, "combat_in_progress")
    script.do("gm", "adjust", character="aki", changes={"karate": -2}, reason="サツバツ! 頭部")
    script.do("gm", "end_combat")
    script.do("gm", "end_scenario")
    aki = character(script, "aki")
    # The ×s go, the part stays; the stat damage heals (L171, L175).
    assert aki["injuries"] == {"頭部": 1} and aki["now"]["karate"] == 5
    # 評価: the pool is split (7 does not split evenly between two).
    refused(script, "gm", {"type": "drop", "amount": 1}, 409, "not_in_honpen")
    refused(script, "gm", {"type": "scenario_stage", "stage": "余暇"}, 409, "pool_not_split")
    refused(script, "gm", {"type": "split_pool"}, 409, "shares_required")
    refused(
        script, "gm", {"type": "split_pool", "shares": {"aki": 4, "ben": 4}}, 422, "shares_mismatch"
    )
    refused(script, "gm", {"type": "split_pool", "shares": {"aki": 7, "boss": 0}}, 422, "bad_share")
    treat = {"type": "treat", "character": "ben", "part": "腕"}
    refused(script, "gm", treat, 409, "wrong_stage")  # 余暇での治療: in the 余暇
    script.do("gm", "split_pool", shares={"aki": 4, "ben": 3})
    assert script.rules()["pool"] == 0 and character(script, "aki")["sheet"]["manzatsu"] == 4
    stage(script, "余暇")
    # 余暇: the player grows their own PC, paying 【万札】; Ben's arm is treated.
    spend = growth("成長", "カラテ+1", changes={"karate": 1, "manzatsu": -5})
    refused(
        script,
        "seat:1",
        {"type": "change_sheet", "character": "aki", "change": spend},
        409,
        "not_enough_manzatsu",
    )
    refused(
        script,
        "seat:2",
        {"type": "change_sheet", "character": "aki", "change": grow},
        403,
        "not_your_character",
    )
    script.do(
        "seat:1",
        "change_sheet",
        character="aki",
        change=growth("成長", "カラテ+1", changes={"karate": 1, "manzatsu": -3}),
    )
    refused(script, "gm", {**treat, "part": "脚"}, 409, "no_injury")
    script.do("gm", "treat", character="ben", part="腕")
    buy = growth(
        "購入", "ヌンチャク", changes={"manzatsu": -1}, add_weapons=[{"name": "ヌンチャク"}]
    )
    script.do("seat:2", "change_sheet", character="ben", change=buy)
    assert character(script, "ben")["now"]["reaction"] == 5  # counted from the next scenario
    stage(script, "ダンゴウ")
    # シナリオ2: Aki carries ●部位損傷:頭部 in (+1 on every 判定); Ben's was treated.
    assert character(script, "aki")["carried_injuries"] == 1
    (checked,) = of_type(
        script.do("seat:1", "check", character="aki", stat="カラテ", faces=[4] * 6),
        "CheckRolled",
    )
    detail = checked["public"]["detail"]
    assert detail["difficulty"] == "H" and {"name": "部位損傷", "delta": 1} in detail["modifiers"]
    assert not checked["public"]["success"]  # 4s miss at HARD
    (checked,) = of_type(
        script.do("seat:2", "check", character="ben", stat="カラテ", faces=[4] * 4),
        "CheckRolled",
    )
    assert checked["public"]["detail"]["difficulty"] == "N"
    assert character(script, "ben")["now"]["reaction"] == 4  # 5 − the ヌンチャク
    aki = character(script, "aki")
    assert aki["sheet"]["karate"] == 6 and aki["sheet"]["manzatsu"] == 1
    assert [w["name"] for w in aki["sheet"]["weapons"]] == ["カタナ", "チャカガン"]
    assert aki["now"]["reaction"] == 3  # 5 − two weapons, at the scenario's start
    history = [(n["scenario"], n["text"]) for n in aki["history"]]
    assert history == [
        (1, "●部位損傷:頭部 ×1"),
        (1, "●部位損傷:頭部 ×2"),
        (1, "装備: 武器+チャカガン (ヤクザから拾った)"),
        (1, "万札プールの山分け: 【万札】+4"),
        (1, "成長: 【カラテ】+1 【万札】-3 (カラテ+1)"),
    ]
    stage(script, "本編")
    assert (script.rules()["scenario"], script.rules()["stage"]) == (2, "本編")


def test_a_private_sheets_changes_are_sealed(client: TestClient) -> None:
    """With private PC sheets, growth goes to the GM and the seat only; the table sees that the
    sheet changed, not how."""
    table = Table.create(
        client,
        seats=["Aki", "Ben"],
        ruleset="ninja_slayer",
        options={"dice_policy": "both"},
        ruleset_options={"private_pc_sheets": True},
    )
    script = Script(table)
    script.setup()
    script.do("gm", "end_scenario")
    stage(script, "余暇")
    secret = "ヒミツ・カラテ特訓"
    script.do(
        "seat:1",
        "change_sheet",
        character="aki",
        change=growth("成長", secret, changes={"karate": 1}),
    )
    assert secret not in str(table.events("seat:2")) and secret not in str(table.events(None))
    assert secret in str(table.events("seat:1"))
    ben_view = script.rules("seat:2")["characters"]["aki"]
    assert "history" not in ben_view or not ben_view["history"]
    assert script.rules("seat:1")["characters"]["aki"]["history"][0]["text"].endswith(f"({secret})")
