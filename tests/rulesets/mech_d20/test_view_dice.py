"""The dice a power and a waiting attack will roll, in the view (the table's pane shows them on
its buttons): exactly what `attack_roll` and `damage_roll` then roll, and only for whoever reads
the attacker's numbers (its seat and the GM for a private PC; the GM for an NPC)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.table import Table

from .harness import sheet
from .test_private_and_audit import do, table

NS = "mech_d20."


def rules(t: Table, viewer: str) -> dict[str, Any]:
    response = t.client.get(f"/games/{t.game_id}/view", headers=t.auth(viewer))
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()["rules"]
    return found


def last(t: Table, kind: str) -> dict[str, Any]:
    return next(e for e in reversed(t.events("gm")) if e["type"] == NS + kind)


def test_a_waiting_attacks_dice_are_what_it_rolls_and_only_its_readers_see_them(
    client: TestClient,
) -> None:
    t = table(client, private_pc_sheets=True)
    do(t, "seat:1", "add_unit", id="aki", name="アキ", sheet=sheet())
    do(t, "gm", "add_unit", id="boss", name="ボス", kind="npc", sheet=sheet(max_hp=80))
    faces = {"aki": [15], "boss": [5]}
    do(t, "gm", "begin_encounter", participants=["aki", "boss"], faces=faces)
    do(t, "seat:1", "start_turn")

    # Before declaring: each power's dice with each weapon it may use.
    powers = {p["name"]: p for p in rules(t, "seat:1")["units"]["aki"]["powers"]}
    basic = {d["weapon"]: d for d in powers["近接基礎攻撃"]["dice"]}
    # 【出力】4 + 習熟 2 + 命中補正 + 強化 1; damage 1W + 【出力】 + 強化.
    assert basic["ビームサーベル"] == {
        "weapon": "ビームサーベル",
        "attack": "1D20+10",
        "defence": "AC",
        "damage": "1D8+5",
    }
    assert basic["ビームライフル"]["attack"] == "1D20+9"

    do(t, "seat:1", "move", unit="aki", kind="通常移動")  # the standard action stays for the attack
    do(
        t,
        "seat:1",
        "use_power",
        unit="aki",
        power="近接基礎攻撃",
        targets=["boss"],
        weapon="ビームサーベル",
        modifiers=[{"name": "支援", "value": 1, "applies": "attack"}],
    )
    for viewer, sees in (("seat:1", True), ("seat:2", False), ("gm", True), ("public", False)):
        pending = rules(t, viewer)["encounter"]["pending"][0]
        assert ("rolls" in pending) is sees and ("damage" in pending) is sees, viewer
        assert pending["attack"] is True
    shown = rules(t, "seat:1")["encounter"]["pending"][0]
    assert shown["rolls"] == [{"target": "boss", "dice": "1D20+11", "defence": "AC"}]
    assert shown["damage"] == "1D8+5"
    do(t, "seat:1", "attack_roll", faces=[20])
    rolled = last(t, "AttackRolled")["secret"]["rolls"][0]["roll"]["expression"]
    assert rolled == "1D20+11"
    do(t, "seat:1", "damage_roll")
    do(t, "seat:1", "end_turn")

    # An NPC's attack: its dice are the GM's alone; a 幻惑 target adds 戦術的優位 (+2, L342).
    do(t, "gm", "add_effect", unit="aki", effect={"conditions": ["幻惑"]}, reason="a power's text")
    base = rules(t, "gm")["units"]["boss"]["powers"]
    base_dice = next(p for p in base if p["name"] == "近接基礎攻撃")["dice"][0]["attack"]
    do(t, "gm", "start_turn")
    do(
        t,
        "gm",
        "use_power",
        unit="boss",
        power="近接基礎攻撃",
        targets=["aki"],
        weapon="ビームサーベル",
    )
    for viewer in ("seat:1", "seat:2", "public"):
        assert "rolls" not in rules(t, viewer)["encounter"]["pending"][0], viewer
        assert "powers" not in rules(t, viewer)["units"]["boss"], viewer
    gm_dice = rules(t, "gm")["encounter"]["pending"][0]["rolls"][0]["dice"]
    assert base_dice == "1D20+10" and gm_dice == "1D20+12"
    do(t, "gm", "attack_roll", faces=[3])
    assert last(t, "AttackRolled")["secret"]["rolls"][0]["roll"]["expression"] == gm_dice
