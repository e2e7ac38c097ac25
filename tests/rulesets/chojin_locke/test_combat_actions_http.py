"""The combat actions over HTTP in a real combat (start_combat, the flow's turns): an attack
with a 同調, a defence refused below the raised LV, damage on the catalog's table, an escape —
and no unplayed card of a hand in another seat's (or the public's) bytes. Every C-card is a
unique marker usable as attack, defence or escape (LV 1, 同調可), so hands always allow the
script whatever the shuffle."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from domain.application.service import GameService
from domain.rulesets.chojin_locke import CHOJIN_LOCKE
from tests.rulesets.chojin_locke.combat_table import (
    combat,
    current_actor,
    hand,
    start,
    three_on_a_square,
)
from tests.rulesets.chojin_locke.table import (
    cmd,
    marked_catalog,
    me,
    seen,
    teleporters,
    view,
)
from tests.table import Table

VIEWERS = ("public", "gm", *(f"seat:{n}" for n in range(1, 7)))


def _catalog() -> dict[str, Any]:
    data, _ = marked_catalog()
    data["combat_cards"] = [
        {
            "name": f"C-{uuid.uuid4().hex}",
            "lv": 1,
            "kinds": ["攻撃", "防御", "逃避"],
            "firepower": 4,
            "sync": True,
        }
        for _ in range(60)
    ]
    return teleporters(data, 2)  # every ESP level 2 or more, power 20 or more


def _three(client: TestClient) -> tuple[Table, list[int]]:
    return three_on_a_square(client, catalog=_catalog())


def _refused(table: Table, actor: str, body: dict[str, Any], code: str) -> None:
    before = table.log_bytes()
    response = table.send(actor, body)
    assert response.status_code == 409 and response.json()["code"] == code, response.text
    assert table.log_bytes() == before


def test_attack_sync_damage_and_escape_in_a_real_combat(
    client: TestClient, service: GameService
) -> None:
    table, fighters = _three(client)
    start(table, fighters)
    a, b, c = (f"seat:{n}" for n in combat(table)["order"])
    b_seat, c_seat = int(b[5:]), int(c[5:])
    assert current_actor(table) == a
    table.do(a, cmd("combat_next"))
    table.do(a, cmd("combat_next"))  # → 主要フェイズ
    attack_card = hand(table, int(a[5:]))[0]
    table.do(a, cmd("play_card", card=attack_card, kind="攻撃", target=b_seat, esp_level=1))
    pending = combat(table, "public")["attack"]
    assert pending["awaiting"] == "sync" and pending["sync_waiting"] == [c_seat]
    assert "suit" not in pending
    joined = hand(table, c_seat)[0]
    table.do(c, cmd("sync", card=joined, esp_level=1))
    pending = combat(table, "public")["attack"]
    assert (pending["lv"], pending["firepower"], pending["awaiting"]) == (2, 8, "response")
    # LV 1 answers no LV 2 attack (5.4 l.1050–1053): refused, nothing appended
    defence = hand(table, b_seat)[0]
    _refused(table, b, cmd("respond", card=defence, kind="防御", esp_level=1), "below_attack_lv")
    table.do(b, cmd("respond"))
    truth = me(table, b)["sheet"]["endurance"]
    _refused(table, b, cmd("declare_endurance", endurance=truth + 1), "declaration_too_high")
    table.do(b, cmd("declare_endurance", endurance=truth))
    rolled = [e for e in table.events("public") if e["type"] == "chojin_locke.DamageRolled"]
    assert len(rolled) == 1 and rolled[0]["public"]["endurance"] == truth
    assert rolled[0]["secret"] is None  # the layer (suit or not) is the damaged seat's
    gm = view(table, "gm")
    damaged = next(p for p in gm["players"] if p["seat"] == b_seat)
    assert combat(table)["attack"] is None
    if damaged["condition"] == "dead":  # its [死亡時] window first (ruling CL-090): it uses none
        assert combat(table, "public")["dying"] == {str(b_seat): []}
        table.do(b, cmd("death_ability"))
    # the attacker's turn goes on; the target (if it lived) escapes in its own
    table.do(a, cmd("combat_next"))
    table.do(a, cmd("combat_next"))
    alive = damaged["condition"] != "dead"
    if alive:
        assert current_actor(table) == b
        table.do(b, cmd("combat_next"))
        table.do(b, cmd("combat_next"))
        table.do(b, cmd("play_card", card=hand(table, b_seat)[0], kind="逃避", esp_level=1))
        fighter = next(f for f in combat(table, "public")["fighters"] if f["id"] == b_seat)
        assert fighter["left"]
    played = {
        e["public"]["card"]
        for e in table.events("public")
        if e["type"] == "chojin_locke.CardActivated"
    }
    assert attack_card in played and joined in played
    # no unplayed card reaches anyone but its holder (and the GM)
    for viewer in VIEWERS:
        data = seen(table, viewer)
        for seat in fighters:
            for card in set(hand(table, seat)) - played:
                visible = viewer in (f"seat:{seat}", "gm")
                assert (card.encode() in data) == visible, (viewer, seat, card)
    # after the game, the audit lists every combat declaration beside the truth
    levels = {s: me(table, s)["sheet"]["esp_level"] for s in (a, b, c)}
    table.do("gm", {"type": "end"})
    checks = CHOJIN_LOCKE.audit_declarations(list(service.records(table.game_id)))
    combat_rows = [
        (c.actor, c.what, c.declared, c.truth)
        for c in checks
        if any(use in c.what for use in ("使用:", "で対抗:", "で同調:")) or "ダメージ" in c.what
    ]
    expected = [
        (a, f"{attack_card}使用: ESP能力レベル", 1, levels[a]),
        (c, f"{joined}で同調: ESP能力レベル", 1, levels[c]),
        (b, "ダメージ: 耐久力", truth, truth),
    ]
    assert combat_rows[:3] == expected
    assert len(combat_rows) == (4 if alive else 3)
    assert table.client.get(f"/games/{table.game_id}/verify").json()["ok"] is True
