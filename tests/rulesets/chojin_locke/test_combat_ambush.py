"""4.5 (l.738–745, l.754): a 待ち伏せ turned by an explorer starts a combat with the base player
who handles it (its placer); that piece comes onto the square and leaves 惑星編's board when
the combat is over, and the explorer's turn goes on from its square phase."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import combat_catalog
from tests.rulesets.chojin_locke.table import (
    ambush_squares,
    cmd,
    fight_out,
    free_turn,
    new_game,
    setup_to_ambush,
    turn_actor,
    view,
)


def test_a_turned_ambush_starts_a_combat_with_its_handler(client: TestClient) -> None:
    table = new_game(client, players=7, ruleset_options={"catalog": combat_catalog()})
    setup_to_ambush(table)
    gm = view(table, "gm")
    bases = [p["seat"] for p in gm["players"] if p["side"] == "base"]
    explorers = [p["seat"] for p in gm["players"] if p["side"] == "explorer"]
    assert "0:1" in view(table, "public")["board"]["face_down_squares"]
    handler = bases[-1]
    table.do(f"seat:{handler}", cmd("place_ambush", planet=0, square=1))
    for index, (planet, square) in enumerate(ambush_squares(table, 3)):
        table.do(
            f"seat:{bases[index % len(bases)]}", cmd("place_ambush", planet=planet, square=square)
        )
    for seat in explorers:
        table.do(f"seat:{seat}", cmd("enter", planet=0))
    table.do(table.creator, cmd("begin_planets"))
    actor = free_turn(table)
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("move", direction="right"))
    table.do(actor, cmd("next_phase"))  # the square phase: the 待ち伏せ is turned
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
