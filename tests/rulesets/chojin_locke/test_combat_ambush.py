"""4.5 (l.738–745, l.754): a 待ち伏せ turned by an explorer starts a combat with the base player
who handles it (its placer); that piece comes onto the square and leaves 惑星編's board when
the combat is over, and the explorer's turn goes on from its square phase."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import combat_catalog
from tests.rulesets.chojin_locke.table import (
    ambushed,
    cmd,
    fight_out,
    new_game,
    setup_to_ambush,
    turn_actor,
    view,
)


def test_a_turned_ambush_starts_a_combat_with_its_handler(client: TestClient) -> None:
    table = new_game(client, players=7, ruleset_options={"catalog": combat_catalog()})
    setup_to_ambush(table)
    actor, handler = ambushed(table)
    fight = view(table, "public")["combat"]
    assert fight is not None and fight["square"] == "0:1"
    assert [f["id"] for f in fight["fighters"]] == sorted([int(actor[5:]), handler])
    started = [e for e in table.events("public") if e["type"] == "chojin_locke.CombatStarted"]
    assert started[-1]["public"]["ambush"] == handler
    placed = next(p for p in view(table, "public")["players"] if p["seat"] == handler)
    assert placed["position"] == {"planet": 0, "square": 1}
    fight_out(table, actor, start=False)
    state = view(table, "public")
    assert state["combat"] is None
    assert next(p for p in state["players"] if p["seat"] == handler)["position"] is None
    assert turn_actor(table) == actor and state["turn"]["phase"] == "square"
    table.do(actor, cmd("next_phase"))
    assert view(table, "public")["turn"]["phase"] == "support2"
