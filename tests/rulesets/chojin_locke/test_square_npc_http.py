"""6.2 l.1341–1344 over HTTP: 「マスの効果で戦闘に参加するNPCは1つのみです。…マスの効果によるNPCの
発生は最初の1回のみです。」 The referee (a GM, or the host of a game without one) brings NPCs into a
combat on planet 0's spaceport: the first by the square's effect joins; a second by the square's
effect is refused while the first fights (`square_npc_present`), one from elsewhere is not; in
a later combat on the same square none comes by its effect any more (`square_npc_spent`).
Refusals are problem+json and append nothing; the seats themselves cannot bring NPCs in."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import (
    combat,
    combat_catalog,
    three_on_a_square,
    to_combat_phase,
)
from tests.rulesets.chojin_locke.table import LOOP_BOUND, cmd, view
from tests.rulesets.chojin_locke.test_combat_walk_http import refused
from tests.table import Table

POLICE = {"name": "警官隊", "members": [1, 1, 1], "firepower": 3}
ALARM = {"name": "警戒装置", "members": [3], "firepower": 2}
ESPER = {"name": "エスパー", "esp_level": 3, "endurance": 4}


def _fight_out(table: Table) -> None:
    """Every fighter passes (the referee plays the NPCs) until the combat ends: a round with
    no attack ends it (5.1 (7)②)."""
    for _ in range(LOOP_BOUND):
        fight = view(table, table.creator)["combat"]
        if fight is None:
            return
        if fight["step"] in ("joining", "moving", "before"):
            table.do(f"seat:{fight['started_by']}", cmd("combat_next"))
            continue
        if fight["step"] == "round_end":
            for seat in fight["discarding"]:
                table.do(f"seat:{seat}", cmd("discard_down", cards=[]))
            continue
        current = fight["current"]
        actor = table.creator if current > 100 else f"seat:{current}"
        if fight["phase"] == "main" and not fight["main_done"]:
            table.do(actor, cmd("combat_pass"))
        else:
            table.do(actor, cmd("combat_next"))
    raise AssertionError("the combat never ended")


@pytest.mark.parametrize("referee", ["gm", "host"])
def test_a_squares_npc_comes_once(client: TestClient, referee: str) -> None:
    table, fighters = three_on_a_square(client, catalog=combat_catalog(), referee=referee)
    referee_actor = table.creator
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    square = {**cmd("add_obstacle"), **POLICE, "square": True}
    refused(table, starter, square, f"{referee}_only")
    table.do(referee_actor, square)
    joined = [f for f in combat(table, "public")["fighters"] if f["id"] > 100]
    assert [(f["name"], f["from_square"]) for f in joined] == [("警官隊", True)]
    refused(table, referee_actor, square, "square_npc_present")
    esper = {**cmd("add_esper"), **ESPER, "square": True}
    refused(table, referee_actor, esper, "square_npc_present")
    # an NPC a chart or a card text brings is not the square's
    table.do(referee_actor, {**cmd("add_obstacle"), **ALARM})
    _fight_out(table)
    assert view(table, "public")["combat"] is None

    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    refused(table, referee_actor, square, "square_npc_spent")
    refused(table, referee_actor, esper, "square_npc_spent")
    table.do(referee_actor, {**cmd("add_esper"), **ESPER})
