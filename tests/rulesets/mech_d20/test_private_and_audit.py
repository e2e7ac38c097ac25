"""Private PC sheets (a game option), and the audit that shows a GM's covert adjustment."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.table import Table

from .harness import sheet

NS = "mech_d20."


def table(client: TestClient, **ruleset_options: object) -> Table:
    t = Table.create(
        client,
        seats=["Aki", "Ben"],
        ruleset="mech_d20",
        options={"dice_policy": "both"},
        ruleset_options=ruleset_options,
    )
    t.join_all()
    t.do("gm", {"type": "start"})
    return t


def do(t: Table, actor: str, command: str, **body: Any) -> dict[str, Any]:
    return t.do(actor, {"type": NS + command, **body})


def test_private_pc_sheets_are_their_seats_and_the_gms(client: TestClient) -> None:
    t = table(client, private_pc_sheets=True)
    do(t, "seat:1", "add_unit", id="aki", name="アキ", sheet=sheet(max_hp=47))
    do(t, "gm", "add_unit", id="boss", name="ボス", kind="npc", sheet=sheet(max_hp=80))
    do(t, "gm", "begin_encounter", participants=["aki", "boss"], faces={"aki": [15], "boss": [5]})
    do(t, "seat:1", "start_turn")
    do(
        t,
        "seat:1",
        "use_power",
        unit="aki",
        power="近接基礎攻撃",
        targets=["boss"],
        weapon="ビームサーベル",
    )
    do(t, "seat:1", "attack_roll", faces=[9])
    for viewer, sees in (("seat:1", True), ("seat:2", False), ("gm", True)):
        aki = client.get(f"/games/{t.game_id}/view", headers=t.auth(viewer)).json()["rules"][
            "units"
        ]["aki"]
        assert ("hp" in aki) is sees and ("sheet" in aki) is sees, viewer
        events = t.events(viewer)
        rolled = next(e for e in events if e["type"] == NS + "AttackRolled")
        assert rolled["public"]["rolls"][0]["total"] is None  # the bonus would give the sheet away
        own = [e for e in events if e["type"] == NS + "OwnRolls"]
        assert (own[0]["secret"] is not None) is sees, viewer  # the seat's own dice
        assert (
            b'"max_hp":47'
            in t.client.get(f"/games/{t.game_id}/events", headers=t.auth(viewer)).content
        ) is sees


def test_a_covert_adjustment_of_a_sealed_defence_shows_in_the_audit(client: TestClient) -> None:
    t = table(client)
    do(t, "seat:1", "add_unit", id="aki", name="アキ", sheet=sheet())
    do(t, "gm", "add_unit", id="boss", name="ボス", kind="npc", sheet=sheet(max_hp=80))
    do(t, "gm", "begin_encounter", participants=["aki", "boss"], faces={"aki": [15], "boss": [5]})
    adjust = do(t, "gm", "adjust", unit="boss", defences={"AC": 25}, reason="ボスの装甲強化")
    public = next(e for e in t.events("seat:1") if e["seq"] == adjust["last_seq"])
    assert public["public"]["fields"] == ["defences"] and public["secret"] is None
    do(t, "seat:1", "start_turn")
    do(
        t,
        "seat:1",
        "use_power",
        unit="aki",
        power="近接基礎攻撃",
        targets=["boss"],
        weapon="ビームサーベル",
    )
    rolled = do(t, "seat:1", "attack_roll", faces=[10])  # 20: hits the sealed AC 18, not 25
    assert rolled["events"][0]["public"]["rolls"][0]["outcome"] == "miss"
    do(t, "seat:1", "end_turn")
    do(t, "gm", "adjust", unit="boss", hp=-10, reason="罠")
    t.do("gm", {"type": "end"})
    report = client.get(f"/games/{t.game_id}/audit", headers=t.auth("seat:1")).json()
    assert report["verdict"] == "problems"
    (hit,) = [d for d in report["declarations"] if "対AC" in d["what"]]
    boss = next(
        e
        for e in t.events("gm")
        if e["type"] == "mech_d20.UnitAdded" and e["public"]["id"] == "boss"
    )
    name = boss["public"]["name"]
    assert hit["what"].endswith(f"命中ロール → {name} (対AC)") and "boss" not in hit["what"]
    assert (hit["declared"], hit["truth"], hit["verdict"]) == ("ミス", "ヒット", "overstated")
    assert "サーバーは封印されたAC18ではなく25を使った(#" in hit["note"]
    (flag,) = [d for d in report["declarations"] if "半壊/脱落" in d["what"]]
    assert flag["what"] == f"{name}の半壊/脱落 (GMの調整: 罠)"
    assert (flag["declared"], flag["truth"], flag["verdict"]) == ("—", "—", "legal")
    assert "GMの調整はhp-10" in flag["note"]
