"""勝利宣言 with its objection window, 改心, and the end with every sheet revealed."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    cmd,
    end_turn,
    me,
    new_game,
    seats,
    to_phase,
    to_planets,
    turn_actor,
    view,
)
from tests.table import Table


def _turn_of_faction(table: Table, factions: set[str]) -> str:
    for _ in range(12):
        actor = turn_actor(table)
        if me(table, actor)["faction"] in factions:
            return actor
        end_turn(table)
    raise AssertionError("no such turn player")


def test_objection_keeps_the_game_going_then_unopposed_victory_ends_it(
    client: TestClient,
) -> None:
    table = new_game(client)
    to_planets(table)
    actor = _turn_of_faction(table, {"G", "E"})
    faction = me(table, actor)["faction"]
    to_phase(table, "support1")
    declared = table.do(actor, cmd("declare_victory"))["events"]
    assert [e["type"] for e in declared][-1] == "chojin_locke.VictoryDeclared"
    waiting = view(table, "public")["victory"]["waiting"]
    assert len(waiting) == 5
    blocked = table.send(actor, cmd("next_phase"))
    assert blocked.json()["code"] == "victory_pending"
    table.do(f"seat:{waiting[0]}", cmd("answer_victory", objects=False))
    table.do(f"seat:{waiting[1]}", cmd("answer_victory", objects=True))
    assert view(table, "public")["victory"] is None
    assert view(table, "public")["stage"] == "planet"
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("pass"))
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("next_phase"))  # square → support2
    table.do(actor, cmd("declare_victory"))
    for seat in view(table, "public")["victory"]["waiting"]:
        table.do(f"seat:{seat}", cmd("answer_victory", objects=False))
    public = view(table, "public")
    assert public["ending"] == {"reason": "victory", "faction": faction, "seat": int(actor[5:])}
    assert set(public["results"]) == {str(n) for n in range(1, 7)}
    assert all(p["sheet"] for p in public["players"])  # every sheet revealed at the end
    events = table.events("public")
    assert all(e["secret"] is not None for e in events if e["sealed"])
    assert table.client.get(f"/games/{table.game_id}/verify").json()["ok"] is True


def test_special_cannot_declare_victory_and_sole_needs_everyone_dead(
    client: TestClient,
) -> None:
    table = new_game(client)
    to_planets(table)
    actor = _turn_of_faction(table, {"S", "G", "E"})
    to_phase(table, "support1")
    if me(table, actor)["faction"] == "S":
        assert table.send(actor, cmd("declare_victory")).json()["code"] == "special_no_victory"
        response = table.send(actor, cmd("declare_victory", sole=True))
        assert response.json()["code"] == "others_alive"
    else:
        response = table.send(actor, cmd("declare_victory", sole=True))
        assert response.json()["code"] == "sole_is_special"


def test_conversion_on_the_same_square_sets_a_flag_once_a_turn(client: TestClient) -> None:
    table = new_game(client, options={"dice_policy": "both"})
    to_planets(table)
    actor = _turn_of_faction(table, {"G", "E"})
    to_phase(table, "support1")
    mine = int(actor[5:])
    target = next(
        p["seat"]
        for p in view(table, "gm")["players"]
        if p["side"] == "explorer" and p["seat"] != mine
    )
    faction = me(table, actor)["faction"]
    table.do(actor, cmd("convert", target=target, declared=0, faces=[6, 6]))
    assert faction in me(table, f"seat:{target}")["conversion_flags"]
    again = table.send(actor, cmd("convert", target=target, declared=0, faces=[6, 6]))
    assert again.json()["code"] == "converted_this_turn"
    public = next(p for p in view(table, "public")["players"] if p["seat"] == mine)
    assert public["sheet_open"] and public["sheet"]["name"] == me(table, actor)["sheet"]["name"]
    other = next(s for s in seats(table) if s not in (actor, f"seat:{target}"))
    assert "conversion_flags" not in str(view(table, other).get("players"))
