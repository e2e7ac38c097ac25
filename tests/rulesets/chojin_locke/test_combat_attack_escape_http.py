"""Rulings CL-096–CL-097 over HTTP in a real combat (start_combat, the flow's turns): a [支援][攻撃]
ability is an attack action and bars every [逃避] in that combat turn; the next fighter starts
its turn clean, leaves the combat by a [支援][逃避] ability, and is barred from [攻撃] in the
rest of its turn. Every refusal is problem+json and appends nothing."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import (
    combat,
    current_actor,
    hand,
    start,
    three_on_a_square,
)
from tests.rulesets.chojin_locke.table import cmd, marked_catalog, teleporters
from tests.table import Table

STRIKE, BLINK = "念動撃", "瞬間離脱"


def _catalog() -> dict[str, Any]:
    """Every character holds a [戦闘][支援][攻撃] 念動撃 and a [戦闘][支援][逃避] 瞬間離脱; every
    C-card is LV 1, attack, defence or escape."""
    data, _ = marked_catalog()
    for character in data["characters"]:
        character["abilities"] = [
            {"name": STRIKE, "tags": ["戦闘", "支援", "攻撃"]},
            {"name": BLINK, "tags": ["戦闘", "支援", "逃避"]},
        ]
    data["combat_cards"] = [
        {
            "name": f"C-{uuid.uuid4().hex}",
            "lv": 1,
            "kinds": ["攻撃", "防御", "逃避"],
            "firepower": 4,
        }
        for _ in range(60)
    ]
    return teleporters(data, 2)


def _refused(table: Table, actor: str, body: dict[str, Any], code: str) -> None:
    before = table.log_bytes()
    response = table.send(actor, body)
    assert response.status_code == 409, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == code, response.text
    assert table.log_bytes() == before


def test_attack_and_escape_by_support_actions_exclude_each_other(client: TestClient) -> None:
    table, fighters = three_on_a_square(client, catalog=_catalog())
    start(table, fighters)
    first = current_actor(table)
    table.do(first, cmd("combat_next"))  # → 支援フェイズ1
    (used,) = table.do(first, cmd("use_ability", ability=STRIKE))["events"]
    assert used["public"]["ability"] == STRIKE and not used["public"]["escaped"]
    fight = combat(table, "public")
    assert fight["attacked"] and fight["turn_actions"] == ["攻撃"]
    _refused(table, first, cmd("use_ability", ability=BLINK), "attacked_this_turn")
    table.do(first, cmd("combat_next"))  # → 主要
    card = hand(table, int(first[5:]))[0]
    escape = cmd("play_card", card=card, kind="逃避", esp_level=2)
    _refused(table, first, escape, "attacked_this_turn")
    table.do(first, cmd("combat_pass"))
    table.do(first, cmd("combat_next"))  # → 支援フェイズ2
    _refused(table, first, cmd("use_ability", ability=BLINK), "attacked_this_turn")
    table.do(first, cmd("combat_next"))  # the next fighter's combat turn

    second = current_actor(table)
    assert second != first and combat(table, "public")["turn_actions"] == []
    table.do(second, cmd("combat_next"))  # → 支援フェイズ1
    events = table.do(second, cmd("use_ability", ability=BLINK))["events"]
    assert events[0]["public"]["escaped"] and events[0]["line"]["text"].endswith("戦闘から離脱")
    fight = combat(table, "public")
    (me,) = [f for f in fight["fighters"] if f["id"] == int(second[5:])]
    assert me["left"] and fight["turn_actions"] == ["逃避"]
    _refused(table, second, cmd("use_ability", ability=STRIKE), "escaped_this_turn")
    table.do(second, cmd("combat_next"))  # → 主要: out of the combat, パス only
    card = hand(table, int(second[5:]))[0]
    attack = cmd("play_card", card=card, kind="攻撃", target=int(first[5:]), esp_level=2)
    _refused(table, second, attack, "not_fighting")
    table.do(second, cmd("combat_pass"))
    table.do(second, cmd("combat_next"))  # → 支援フェイズ2
    _refused(table, second, cmd("use_ability", ability=STRIKE), "escaped_this_turn")
