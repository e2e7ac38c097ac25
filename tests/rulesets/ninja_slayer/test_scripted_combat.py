"""The scripted combat end to end through the HTTP API, its final state, secrecy and audit."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.table import Table

from .script import SECRET_SKILL, Script

SEATS = ("public", "seat:1", "seat:2")


def new_script(client: TestClient) -> Script:
    table = Table.create(
        client, seats=["Aki", "Ben"], ruleset="ninja_slayer", options={"dice_policy": "both"}
    )
    return Script(table)


def read_all(script: Script, actor: str) -> bytes:
    t = script.t
    paths = (f"/games/{t.game_id}/events", f"/games/{t.game_id}", f"/games/{t.game_id}/view")
    return b"".join(t.client.get(path, headers=t.auth(actor)).content for path in paths)


def test_scripted_combat_final_state_and_audit(client: TestClient) -> None:
    script = new_script(client)
    script.run()
    rules = script.rules("gm")
    chars = rules["characters"]
    assert rules["combat"] is None and rules["combats"] == 1
    assert chars["boss"]["status"] == "爆発四散"
    assert [chars[m]["status"] for m in ("m1", "m2", "m3")] == ["removed"] * 3
    aki, ben = chars["aki"], chars["ben"]
    assert aki["status"] == "active" and aki["now"]["tairyoku"] == 5
    assert aki["now"]["reaction"] == 2  # 4 (カタナ) − 1 check − 1 連続側転
    assert (ben["status"], ben["now"]["tairyoku"], ben["now"]["seishin"]) == ("active", 1, 0)
    assert ben["sixth_sense_used"] is True
    assert ben["now"]["emergency"] == 0

    types = [e["type"].removeprefix("ninja_slayer.") for e in script.t.events("gm")]
    for mechanic in (
        "CharacterAdded",
        "CheckRolled",
        "SixthSense",
        "CombatBegan",
        "TurnStarted",
        "PhaseChanged",
        "Concentrated",
        "Moved",
        "AttackRolled",
        "EvasionRolled",
        "DamageTaken",
        "CounterKarate",
        "AdrenalineBoost",
        "OtherAction",
        "WasshoiRolled",
        "AtmosphereRaised",
        "CharacterAdjusted",
        "CombatEnded",
        "WeaponSwitched",
        "RulingMade",
    ):
        assert mechanic in types, mechanic
    events = script.t.events("gm")
    crits = [
        s["critical"]
        for e in events
        if e["type"] == "ninja_slayer.AttackRolled"
        for s in e["public"]["strikes"]
    ]
    assert "サツバツ" in crits and "ナムアミダブツ" in crits
    ended = next(e for e in events if e["type"] == "ninja_slayer.CombatEnded")
    assert ended["public"]["revived"] == ["ben"]
    counters = [
        e["public"]["counter_against"] for e in events if e["type"] == "ninja_slayer.EvasionRolled"
    ]
    assert ["boss"] in counters and ["m2", "m3"] in counters
    assert max(e["public"]["turn"] for e in events if e["type"] == "ninja_slayer.TurnStarted") == 7
    raised = [e["public"] for e in events if e["type"] == "ninja_slayer.AtmosphereRaised"]
    assert raised == [{"turn": 3, "level": 1}, {"turn": 6, "level": 2}]

    script.t.do("gm", {"type": "end", "summary": "ブラックマンバ 爆発四散"})
    report = client.get(f"/games/{script.t.game_id}/verify").json()
    assert report["ok"] is True, report
    assert report["secrets"]["checked_draws"] >= 1
    audited = client.get(f"/games/{script.t.game_id}/audit", headers=script.t.auth("gm")).json()
    assert audited["verdict"] == "clean", audited


def test_no_seat_sees_the_boss_sheet_before_the_reveal(client: TestClient) -> None:
    script = new_script(client)
    script.setup()
    script.before_combat()
    script.turn_1()
    for actor in SEATS:
        assert SECRET_SKILL.encode() not in read_all(script, actor), actor
        boss = script.rules(actor)["characters"]["boss"]
        assert "sheet" not in boss and "now" not in boss
    assert SECRET_SKILL.encode() in read_all(script, "gm")
    # The boss's rolls show their outcome, not its dice (which would give its stats away).
    attacks = [
        e
        for e in script.t.events("seat:1")
        if e["type"] == "ninja_slayer.AttackRolled" and e["public"]["attacker"] == "boss"
    ]
    assert attacks and all(
        "detail" not in e["public"] or e["public"]["detail"] is None for e in attacks
    )
    assert all(e.get("secret") is None for e in attacks)

    script.t.do("gm", {"type": "reveal", "seq": script.boss_seq})
    for actor in SEATS:
        assert script.rules(actor)["characters"]["boss"]["sheet"]["skills"] == [SECRET_SKILL]
