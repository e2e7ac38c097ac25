"""4.3/4.4: phases in order, exactly one main action, skipped phases, the next player."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    cmd,
    end_turn,
    free_turn,
    new_game,
    to_phase,
    to_planets,
    turn_actor,
    view,
)
from tests.table import Table


def _playing(client: TestClient, **body: Any) -> Table:
    table = new_game(client, **body)
    to_planets(table)
    return table


def _refused(table: Table, actor: str, body: dict[str, object], code: str) -> None:
    before = table.log_bytes()
    response = table.send(actor, body)
    assert response.status_code in (403, 409), response.text
    assert response.json()["code"] == code
    assert table.log_bytes() == before


def _next_explorer(table: Table, actor: str) -> int:
    """The explorer after `actor` to the right: who plays next in 惑星編."""
    players = view(table, "gm")["players"]
    explorers = sorted(p["seat"] for p in players if p["side"] == "explorer")
    return explorers[(explorers.index(int(actor[5:])) + 1) % len(explorers)]


def test_phases_run_in_order_and_pass_to_the_right(client: TestClient) -> None:
    table = _playing(client)
    actor = turn_actor(table)
    seen = [view(table, "gm")["turn"]["phase"]]
    for _ in range(5):
        if seen[-1] == "main":
            table.do(actor, cmd("pass"))
        table.do(actor, cmd("next_phase"))
        seen.append(view(table, "gm")["turn"]["phase"])
    assert seen == ["check", "support1", "main", "square", "support2", "combat"]
    table.do(actor, cmd("next_phase"))
    gm = view(table, "gm")
    following = _next_explorer(table, actor)
    turn = gm["turn"]
    assert (turn["seat"], turn["number"], turn["phase"], turn["main"]) == (
        following,
        2,
        "check",
        None,
    )


def test_one_main_action_in_the_main_phase_only(client: TestClient) -> None:
    table = _playing(client)
    free_turn(table)
    actor = to_phase(table, "support1")
    _refused(table, actor, cmd("move", direction="right"), "wrong_phase")
    table.do(actor, cmd("next_phase"))
    _refused(table, actor, cmd("next_phase"), "main_action_required")
    _refused(table, actor, cmd("open_sheet"), "wrong_phase")
    table.do(actor, cmd("move", direction="right"))
    _refused(table, actor, cmd("pass"), "main_action_used")
    _refused(table, actor, cmd("recover", stat="endurance"), "main_action_used")
    others = [f"seat:{n}" for n in range(1, 7) if f"seat:{n}" != actor]
    _refused(table, others[0], cmd("next_phase"), "not_your_turn")
    _refused(table, "gm", cmd("pass"), "seat_only")


def test_bound_player_has_only_the_check_phase(client: TestClient) -> None:
    table = _playing(client)
    following = _next_explorer(table, turn_actor(table))
    table.do("gm", cmd("set_condition", seat=following, condition="bound", reason="card effect"))
    end_turn(table)
    assert turn_actor(table) == f"seat:{following}"
    table.do(f"seat:{following}", cmd("next_phase"))  # check is all it has
    assert view(table, "gm")["turn"]["number"] == 3


def test_dead_players_are_skipped(client: TestClient) -> None:
    table = _playing(client)
    following = _next_explorer(table, turn_actor(table))
    table.do("gm", cmd("set_condition", seat=following, condition="dead", reason="combat"))
    end_turn(table)
    assert turn_actor(table) != f"seat:{following}"
    assert view(table, "gm")["turn"]["number"] == 2


def test_arrested_escape_check_with_cumulative_modifier(client: TestClient) -> None:
    table = _playing(client, options={"dice_policy": "both"})
    actor = turn_actor(table)
    seat = int(actor.split(":")[1])
    table.do("gm", cmd("set_condition", seat=seat, condition="arrested", reason="刑務所"))
    table.do(actor, cmd("next_phase"))  # check → main: support phases are skipped
    assert view(table, "gm")["turn"]["phase"] == "main"
    _refused(table, actor, cmd("pass"), "must_escape")
    first = table.do(actor, cmd("escape", faces=[4, 4]))["events"][0]["public"]
    assert (first["modifier"], first["total"], first["escaped"]) == (0, 8, False)
    table.do(actor, cmd("next_phase"))
    while turn_actor(table) != actor:
        end_turn(table)
    table.do(actor, cmd("next_phase"))
    second = table.do(actor, cmd("escape", faces=[4, 4]))["events"][0]["public"]
    assert (second["modifier"], second["total"], second["escaped"]) == (1, 9, False)
    table.do(actor, cmd("next_phase"))
    while turn_actor(table) != actor:
        end_turn(table)
    table.do(actor, cmd("next_phase"))
    third = table.do(actor, cmd("escape", faces=[1, 3]))["events"][0]["public"]
    assert third["escaped"] is True  # 2–5 on the dice always escapes
    players = view(table, "gm")["players"]
    assert next(p for p in players if p["seat"] == seat)["condition"] == "normal"


def test_square_effect_turns_the_planet_card(client: TestClient) -> None:
    table = _playing(client)
    actor = to_phase(table, "square")
    board = view(table, "public")["board"]
    turned = [e for e in table.events("public") if e["type"] == "chojin_locke.SquareTurned"]
    assert len(turned) <= 1
    if turned:
        card = turned[0]["public"]
        assert card["planet"] == 0 and card["square"] == 0
        assert card["kind"] == "info" or "0:0" in board["turned"]
    assert actor == turn_actor(table)


def test_turn_passes_on_when_the_turn_player_dies(client: TestClient) -> None:
    table = _playing(client)
    actor = turn_actor(table)
    table.do("gm", cmd("set_condition", seat=int(actor[5:]), condition="dead", reason="combat"))
    turn = view(table, "gm")["turn"]
    assert f"seat:{turn['seat']}" != actor and turn["number"] == 2
