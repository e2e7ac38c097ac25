"""The 2002 rulebook's turn (ch. 9) as `rules: 2002`."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    cmd,
    finish_turn,
    info_catalog,
    me,
    new_game,
    to_planets,
    turn_actor,
    view,
)
from tests.rulesets.chojin_locke.test_base import KEYS, _until_turn_of, to_base


def test_2002_phases_in_order(client: TestClient) -> None:
    table = new_game(client, ruleset_options={"rules": "2002"})
    to_planets(table)
    actor = turn_actor(table)
    seen = [view(table, "gm")["turn"]["phase"]]
    assert table.send(actor, cmd("open_sheet")).json()["code"] == "wrong_phase"
    for _ in range(5):
        if seen[-1] == "move":
            assert table.send(actor, cmd("treat", target=1)).json()["code"] == "not_in_2002"
            table.do(actor, cmd("pass"))
        table.do(actor, cmd("next_phase"))
        seen.append(view(table, "gm")["turn"]["phase"])
    assert seen == ["victory", "recovery", "move", "instruction", "combat", "destruction"]
    table.do(actor, cmd("next_phase"))
    assert view(table, "gm")["turn"]["number"] == 2


def test_2002_base_entry_and_destroying_keys(client: TestClient) -> None:
    body = {"options": {"dice_policy": "both"}}
    options = {"rules": "2002", "catalog": info_catalog()}
    table = new_game(client, ruleset_options=options, **body)
    _bases, entrants, outside = to_base(table)
    if outside:
        seat = outside[0]
        actor = _until_turn_of(table, seat)
        table.do(actor, cmd("next_phase"))
        table.do(actor, cmd("next_phase"))  # victory → recovery → move
        level = me(table, actor)["stats"]["esp_level"]
        info = next(p for p in view(table, "public")["players"] if p["seat"] == seat)["information"]
        entered = table.do(actor, cmd("intrude", declared=level, row=5, col=5, faces=[6, 6]))
        expression = entered["events"][0]["public"]["roll"]["expression"]
        assert expression == f"2D6<={level + info}"  # declared + 情報入手 + earlier attempts
        finish_turn(table, actor, None)
    # the entrants start on 0:0, which holds no 重要拠点 (they lie on row 5)
    actor = _until_turn_of(table, *entrants)
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("next_phase"))
    refused = table.send(actor, cmd("destroy_key"))
    assert refused.json()["code"] == "no_key_here"
    assert f"{KEYS[0][0]}:{KEYS[0][1]}" in view(table, "gm")["board"]["keys"]
