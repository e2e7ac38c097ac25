"""The scripted encounter end to end through HTTP: its numbers, its refusals, its audit."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.table import Table

from .script import Script

REFUSALS = [
    "hero_point_full",  # hold at most one (L424)
    "spirit_command_used",  # a second 精神コマンド in the encounter (L10)
    "no_actions_left",  # 幻惑: one action (L383)
    "cannot_act_off_turn",  # 幻惑: no opportunity attack (L203)
    "opportunity_action_used",  # one opportunity action a turn (L183)
    "immediate_action_used",  # one immediate action a round (L194)
    "encounter_power_used",  # 遭遇毎 once
    "turn_over_after_charge",  # 突撃 ends the turn (L85)
    "free_attack_used",  # one free-action attack a turn (L158)
    "no_actions_left",  # 朦朧 without the hero point (L385)
    "dominated",  # 支配: the dominator decides (L388)
    "dominated_no_hero_action",  # L391
    "dominated_limited_power",  # L389
    "no_actions_left",  # 支配: one action (L389)
    "hero_point_spent_today",  # one a day (L424)
]


def new_script(client: TestClient, variant: int = 0, watch: bool = False) -> Script:
    table = Table.create(
        client,
        seats=["Aki", "Ben", "Chika"],
        ruleset="mech_d20",
        title="メカd20: ガルムス戦",
        options={"dice_policy": "both"},
    )
    return Script(table, variant=variant, watch=watch)


def events(script: Script, actor: str = "gm") -> list[dict[str, Any]]:
    return [
        {
            "seq": e["seq"],
            "type": e["type"].removeprefix("mech_d20."),
            **e["public"],
            "secret": e["secret"],
        }
        for e in script.t.events(actor)
    ]


def of(found: list[dict[str, Any]], kind: str, **match: Any) -> list[dict[str, Any]]:
    return [e for e in found if e["type"] == kind and all(e.get(k) == v for k, v in match.items())]


def test_the_encounter_keeps_every_limit_and_refuses_what_they_forbid(client: TestClient) -> None:
    script = new_script(client)
    script.run()
    assert script.refusals == REFUSALS
    log = events(script)
    assert max(e["round"] for e in of(log, "RoundBegan")) == 5  # four rounds played
    assert [e["order"] for e in of(log, "EncounterBegan")] == [
        ["aki", "boss", "ben", "m1", "m2", "chika"]  # m1/m2 tie: the stated order
    ]

    # A natural 20: 2D8 + 戦士の強撃 1D6 counted at their maximum, the weapon's crit die rolled.
    (crit,) = of(log, "DamageRolled", power="斬鉄剣")
    assert crit["expression"] == "2D8+1D6+6" and crit["maximised"] and crit["maximum"] == 28
    assert crit["crit_roll"]["result"]["faces"] == [4] and crit["roll"] is None
    assert crit["dealt"] == [
        {"target": "boss", "amount": 32, "critical": True, "half": False, "negated": False}
    ]

    # Area attacks: one attack roll per target, one damage roll for all; half on a miss.
    (area,) = of(log, "DamageRolled", power="拡散ビーム砲")
    assert area["roll"]["expression"] == "1D10+6" and area["roll"]["result"]["faces"] == [7]
    assert [(d["target"], d["amount"], d["half"]) for d in area["dealt"]] == [
        ("boss", 13, False),
        ("m1", 13, False),
        ("m2", 6, True),
    ]
    (beam,) = of(log, "DamageRolled", power="メガ粒子砲")
    assert [(d["target"], d["amount"]) for d in beam["dealt"]] == [("aki", 12), ("ben", 12)]

    # The voided reaction, and the opportunity attack that stopped its trigger.
    (void,) = of(log, "ReactionResolved")
    assert void["unit"] == "chika" and void["voided"] and void["power"] == "カウンター"
    assert [e["unit"] for e in of(log, "PowerCancelled")] == ["m1"]

    # The interrupt raised ベン's AC before the strike was rolled: 18 + 4.
    strike = of(log, "AttackRolled", unit="m2", power="近接基礎攻撃")[0]
    assert strike["rolls"][0]["outcome"] == "miss"
    assert strike["secret"]["rolls"][0]["defence"]["value"] == 22

    # The delay: ongoing damage at the declaration, not again at the delayed turn's start.
    (delayed,) = of(log, "Delayed")
    assert delayed["value"] == 12 and delayed["order"][-2:] == ["ben", "chika"]
    ben_ongoing = [e["cause"] for e in of(log, "HpChanged", unit="ben") if "継続" in e["cause"]]
    assert ben_ongoing == ["継続的ダメージ (遅延)"]

    # Save ends: the boss's 幻惑 survived one save (6) and ended on the next (12).
    boss_saves = [s for e in of(log, "TurnEnded", unit="boss") for s in e["saves"]]
    assert [(s["natural"], s["success"], s["failed"]) for s in boss_saves] == [
        (6, False, 1),
        (12, True, 1),
    ]

    # Death saves: fail, success (not counted), fail, fail → 修理不能.
    saves = of(log, "DeathSaveRolled", unit="chika")
    assert [(s["natural"], s["outcome"], s["failures"]) for s in saves] == [
        (7, "failure", 1),
        (15, "success", 1),
        (2, "failure", 2),
        (4, "failure", 3),
    ]
    assert saves[-1]["status"] == "修理不能"

    # 半壊 is public the moment it happens; the boss's hp is not.
    public = events(script, "seat:2")
    flips = [e for e in of(public, "HpChanged", unit="boss") if e["bloodied"]]
    assert flips and flips[0]["hp"] is None and flips[0]["secret"] is None

    # 防御専念: +3 untyped until アキ's next turn made a 19 miss her AC 19.
    claw = of(log, "AttackRolled", unit="boss", power="クローラッシュ")[-1]
    (met,) = claw["secret"]["rolls"]
    assert met["total"] == 19 and met["defence"]["value"] == 22
    assert met["defence"]["modifiers"][0]["name"] == "防御専念"

    # The log lines the table reads say as much as the reader may see, no more.
    lines = {e["seq"]: e["line"]["text"] for e in script.t.events("seat:1")}
    gm_lines = {e["seq"]: e["line"]["text"] for e in script.t.events("gm")}
    assert lines[crit["seq"]] == (
        "グレイブ(アキ) 斬鉄剣 ダメージ: ガルムス 32 (クリティカル)"
        " [2D8+1D6+6 の最大値 28; (1D6) ＞ 4]"
    )
    assert lines[flips[0]["seq"]] == "ガルムス -14 (グレイブ(アキ)の近接基礎攻撃) [半壊]"
    assert gm_lines[flips[0]["seq"]] == "ガルムス -14 (グレイブ(アキ)の近接基礎攻撃) hp 60 [半壊]"
    assert lines[void["seq"]].startswith("アイアンウォール(チカ) の カウンター は無効 (消費なし)")

    state = script.rules()
    units = state["units"]
    assert units["chika"]["status"] == "修理不能" and units["chika"]["out"]
    assert "カウンター" not in units["chika"]["used_powers"]  # the void spent nothing (L199)
    assert units["boss"]["bloodied"] and not units["boss"]["out"] and units["boss"]["hp"] == 60
    assert units["m1"]["out"] and units["m2"]["out"]
    assert (units["aki"]["hp"], units["ben"]["hp"]) == (22, 19)
    assert units["aki"]["spirit_used"] and units["aki"]["used_powers"] == ["斬鉄剣"]
    assert units["ben"]["mode"] == "砲撃形態"
    assert state["hero_points"] == {
        "seat:1": {"held": 1, "spent_today": True},
        "seat:2": {"held": 0, "spent_today": False},
    }


def test_the_ended_encounter_audits_clean(client: TestClient) -> None:
    script = new_script(client)
    script.run()
    script.finish()
    report = client.get(f"/games/{script.t.game_id}/verify").json()
    assert report["ok"] is True, report
    audit = client.get(f"/games/{script.t.game_id}/audit", headers=script.t.auth("seat:1")).json()
    assert audit["verdict"] == "clean", audit["summary"]
    checks = audit["declarations"]
    hits = [c for c in checks if "(" in c["what"] and "半壊" not in c["what"]]
    flags = [c for c in checks if "の半壊/脱落 (" in c["what"]]
    assert len(hits) == 18 and len(flags) == 9
    assert {c["verdict"] for c in checks} == {"legal"}


def test_lines_name_units_not_ids(client: TestClient) -> None:
    """Issue 33: a line says a unit by its name (its id only in the data), for every reader."""
    script = new_script(client)
    script.run()
    for reader in ("seat:2", "gm"):
        events = script.t.events(reader)
        lines = {e["seq"]: e["line"]["text"] for e in events}
        added = next(e for e in events if e["type"] == "mech_d20.UnitAdded")
        assert lines[added["seq"]].startswith("グレイブ(アキ) (PC) が戦場に — レベル5 ")
        turn = next(
            e
            for e in events
            if e["type"] == "mech_d20.TurnStarted" and e["public"]["unit"] == "boss"
        )
        assert lines[turn["seq"]].startswith("ガルムス のターン")
        began = next(e for e in events if e["type"] == "mech_d20.EncounterBegan")
        order = lines[began["seq"]].split(": ", 1)[1].split(" → ")
        assert "ガルムス" in order and "グレイブ(アキ)" in order and "boss" not in order
