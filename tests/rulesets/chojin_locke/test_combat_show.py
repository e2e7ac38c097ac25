"""Issue #20's "show it works" over HTTP: a combat started by start_combat with three fighters
over three rounds — an attack joined by 同調, a defence, a failed activation on a willpower
check, a 格闘 exchange with a death, an escape — each seat's view of hands asserted, and the
audit after the game. Outcomes do not depend on the server's dice: every C-card is LV 1 (attack,
defence or escape, 同調可, firepower 4), every character has endurance and willpower 5 and ESP 2+,
the failed activation declares willpower 1 (2D6 ≤ 1 never passes), and the damage table deals
0 below 3:1, 1 at 3:1, 9 at 4:1 and over whatever the roll."""

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
    view,
)
from tests.table import Table

VIEWERS = ("public", "gm", *(f"seat:{n}" for n in range(1, 7)))


def _catalog() -> dict[str, Any]:
    data, _ = marked_catalog()
    for character in data["characters"]:
        character.update(endurance=5, willpower=5)
        character["esp_level"] = max(character["esp_level"], 2)
        character["esp_power"] = max(character["esp_power"], 20)
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
    data["damage_table"] = {
        "columns": ["1:2以下", "1:1", "2:1", "3:1", "4:1以上"],
        "rows": [{"total": n, "damage": [0, 0, 0, 1, 9]} for n in range(2, 13)],
    }
    return data


def _table(client: TestClient) -> tuple[Table, list[int]]:
    return three_on_a_square(client, catalog=_catalog())


def _to_main(table: Table) -> str:
    actor = current_actor(table)
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))
    return actor


def _end_turn(table: Table, actor: str) -> None:
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))


def _next_round(table: Table, starter: str) -> None:
    """The round end: the first asked goes on; those at their limit keep their hands; the
    starter walks コマ移動 and 戦闘前 to the next round's first turn."""
    fight = combat(table)
    assert fight["step"] == "round_end", fight["step"]
    voter = next(
        f["id"]
        for f in fight["fighters"]
        if not f["left"]
        and f["seat"]
        and f["hand"] >= 0
        and view(table, "gm")["players"][f["seat"] - 1]["condition"] != "dead"
    )
    table.do(f"seat:{voter}", cmd("continue_combat", go_on=True))
    for seat in combat(table)["discarding"]:
        table.do(f"seat:{seat}", cmd("discard_down", cards=[]))
    while combat(table)["step"] != "turns":
        table.do(starter, cmd("combat_next"))


def _held(table: Table, fighters: list[int]) -> dict[int, set[str]]:
    """Every C-card each seat drew, read from its own events' sealed bodies."""
    held: dict[int, set[str]] = {}
    for seat in fighters:
        cards: set[str] = set()
        for event in table.events(f"seat:{seat}"):
            drawn = event["type"] == "chojin_locke.CombatCardsDrawn" and event["secret"]
            if drawn and event["public"]["fighter"] == seat:
                cards |= set(event["secret"]["cards"])
        held[seat] = cards
    return held


def _check_only(table: Table) -> None:
    table.do(current_actor(table), cmd("combat_next"))


def test_a_combat_shown_end_to_end(client: TestClient, service: GameService) -> None:
    table, fighters = _table(client)
    starter = start(table, fighters)
    a, b, c = (f"seat:{n}" for n in combat(table)["order"])
    seat_of = {x: int(x[5:]) for x in (a, b, c)}
    for x in (a, b, c):  # each sees its own hand only, the others' counts
        mine = view(table, x)
        assert len(mine["me"]["combat_hand"]) == 7
        assert all(f["hand"] == 7 for f in mine["combat"]["fighters"])
        assert (
            "combat_hand" not in str(view(table, "public").get("me") or {})
            or not view(table, "public")["me"]["combat_hand"]
        )
    played: set[str] = set()

    def play(actor: str, name: str, **fields: Any) -> None:
        if "card" in fields:
            played.add(fields["card"])
        table.do(actor, cmd(name, **fields))

    # round 1 — A attacks B, C joins (LV 2, firepower 8); B takes it: 8:5 is 1:1, no damage
    assert _to_main(table) == a
    play(
        a, "play_card", card=hand(table, seat_of[a])[0], kind="攻撃", target=seat_of[b], esp_level=1
    )
    play(c, "sync", card=hand(table, seat_of[c])[0], esp_level=1)
    refusal = table.send(
        b, cmd("respond", card=hand(table, seat_of[b])[0], kind="防御", esp_level=1)
    )
    assert refusal.json()["code"] == "below_attack_lv"  # LV 1 answers no LV 2 attack
    play(b, "respond")
    play(b, "declare_endurance", endurance=5)
    _end_turn(table, a)
    # B attacks A, who defends
    assert _to_main(table) == b
    play(
        b, "play_card", card=hand(table, seat_of[b])[0], kind="攻撃", target=seat_of[a], esp_level=1
    )
    play(a, "respond", card=hand(table, seat_of[a])[0], kind="防御", esp_level=1)
    assert combat(table)["attack"] is None
    _end_turn(table, b)
    _check_only(table)  # C joined the 同調: its turn is its check phase only
    _next_round(table, starter)

    # round 2 — the first misfires (ESP 0 declared: one 精神力チェック at 1), the second fights
    # the third hand to hand, who declares 1 and dies of the 4:1 column
    x, y, z = (f"seat:{n}" for n in combat(table)["order"])
    assert _to_main(table) == x
    play(
        x,
        "play_card",
        card=hand(table, seat_of[x])[0],
        kind="攻撃",
        target=seat_of[y],
        esp_level=0,
        willpower=1,
    )
    misfire = [e for e in table.events("public") if e["type"] == "chojin_locke.CardActivated"][-1]
    assert not misfire["public"]["success"] and len(misfire["public"]["rolls"]) == 1
    _end_turn(table, x)
    assert _to_main(table) == y
    play(y, "melee", target=seat_of[z], endurance=5)
    play(z, "respond")
    play(z, "counter", endurance=1)
    assert (
        next(p for p in view(table, "gm")["players"] if p["seat"] == seat_of[z])["condition"]
        == "dead"
    )
    assert view(table, z)["me"]["combat_hand"] == []  # its hand lies face down on the discard
    # its [死亡時] window (3.1 l.284–285) holds the combat until it says it uses none
    assert combat(table, "public")["dying"] == {str(seat_of[z]): []}
    play(z, "death_ability")
    _end_turn(table, y)
    _next_round(table, starter)

    # round 3 — the first of the two left escapes; the other passes: no attack this round, the
    # combat is over (5.1 (7)②)
    first = _to_main(table)
    play(first, "play_card", card=hand(table, seat_of[first])[0], kind="逃避", esp_level=1)
    assert next(f for f in combat(table, "public")["fighters"] if f["id"] == seat_of[first])["left"]
    _end_turn(table, first)
    last = _to_main(table)
    table.do(last, cmd("combat_pass"))
    _end_turn(table, last)
    assert view(table, "gm")["combat"] is None
    # no card of a hand that was never played reached another seat or the public
    held = _held(table, fighters)
    for viewer in VIEWERS:
        data = seen(table, viewer)
        for seat in fighters:
            for card in held[seat] - played:
                assert (card.encode() in data) == (viewer in (f"seat:{seat}", "gm")), (viewer, card)
    # after the game, the audit lists every combat declaration beside the truth
    table.do("gm", {"type": "end"})
    checks = CHOJIN_LOCKE.audit_declarations(list(service.records(table.game_id)))
    rows = [
        (_card_use(c.what) or c.what, c.declared, c.truth)
        for c in checks
        if _card_use(c.what) or "ダメージ" in c.what or "格闘" in c.what
    ]
    levels = {x: me(table, x)["sheet"]["esp_level"] for x in (a, b, c)}
    assert rows[:4] == [
        ("使用: ESP能力レベル", 1, levels[a]),
        ("で同調: ESP能力レベル", 1, levels[c]),
        ("ダメージ: 耐久力", 5, 5),
        ("使用: ESP能力レベル", 1, levels[b]),
    ]
    assert ("使用: 精神力", 1, 5) in rows and ("格闘: 耐久力", 1, 5) in rows
    assert table.client.get(f"/games/{table.game_id}/verify").json()["ok"] is True


def _card_use(what: str) -> str | None:
    """A C-card's use in an audit row (「ビームキャノン使用: ESP能力レベル」 → 「使用: …」)."""
    for use in ("使用: ", "で対抗: ", "で同調: ", "で手下が同調: "):
        if use in what:
            return use + what.split(use, 1)[1]
    return None
