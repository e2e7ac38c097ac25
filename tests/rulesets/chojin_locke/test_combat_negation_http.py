"""6.2 l.1330–1332 over HTTP, in a GM game and in a host game: every C-card is a テレポート, so the
エスパー NPC the referee brings in holds one. A fighter's テレポート escape, played from its own
token, is negated by the エスパー at once (its テレポート revealed and discarded, one card fewer in
its hand): the fighter stays in the combat, its [逃避] action taken (ruling CL-105)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import (
    combat,
    hand,
    three_on_a_square,
    to_combat_phase,
)
from tests.rulesets.chojin_locke.table import LOOP_BOUND, cmd, marked_catalog, me, teleporters

ESPER = 101


def _catalog() -> dict[str, Any]:
    data, _ = marked_catalog()
    data["combat_cards"] = [
        {
            "name": "テレポート",
            "lv": 1,
            "kinds": ["逃避"],
            "count": 60,
            "text": "戦闘から離脱する。",
        }
    ]
    return teleporters(data, 2)


@pytest.mark.parametrize("referee", ["gm", "host"])
def test_an_esper_negates_a_teleport_escape(client: TestClient, referee: str) -> None:
    table, fighters = three_on_a_square(client, catalog=_catalog(), referee=referee)
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    esper = {**cmd("add_esper"), "name": "エスパー", "esp_level": 3, "endurance": 5}
    table.do(table.creator, esper)
    for _ in range(3):
        table.do(starter, cmd("combat_next"))
    for _ in range(LOOP_BOUND):
        if combat(table)["current"] != ESPER:
            break
        for step in ("combat_next", "combat_next", "combat_pass", "combat_next", "combat_next"):
            table.do(table.creator, cmd(step))  # the referee walks the エスパー's turn
    actor = f"seat:{combat(table)['current']}"
    seat = int(actor[5:])
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))
    level = me(table, actor)["stats"]["esp_level"]
    card = hand(table, seat)[0]
    events = table.do(actor, cmd("play_card", card=card, kind="逃避", esp_level=level))["events"]
    kinds = [e["type"].split(".")[-1] for e in events]
    assert kinds == ["CardActivated", "EscapeNegated"], kinds
    negated = events[1]
    assert negated["public"]["esper"] == ESPER and negated["public"]["fighter"] == seat
    assert "逃避効果を打ち消す" in negated["line"]["text"]
    fight = combat(table, "public")
    me_fighting = next(f for f in fight["fighters"] if f["id"] == seat)
    assert not me_fighting["left"] and fight["turn_actions"] == ["逃避"]
    assert next(f for f in fight["fighters"] if f["id"] == ESPER)["hand"] == 6
    assert fight["discard"] == ["テレポート", "テレポート"]
