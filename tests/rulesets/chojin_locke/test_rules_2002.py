"""The 2002 rulebook's turn (ch. 9) as `rules: 2002`."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    KEYS,
    cmd,
    finish_turn,
    info_catalog,
    me,
    new_game,
    to_base,
    to_phase,
    to_planets,
    turn_actor,
    until_turn_of,
    view,
)


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
    body: dict[str, Any] = {"options": {"dice_policy": "both"}}
    options = {"rules": "2002", "catalog": info_catalog()}
    table = new_game(client, ruleset_options=options, **body)
    _bases, entrants, outside = to_base(table)
    if outside:
        seat = outside[0]
        actor = until_turn_of(table, seat)
        table.do(actor, cmd("next_phase"))
        table.do(actor, cmd("next_phase"))  # victory → recovery → move
        level = me(table, actor)["stats"]["esp_level"]
        info = next(p for p in view(table, "public")["players"] if p["seat"] == seat)["information"]
        entered = table.do(actor, cmd("intrude", declared=level, row=5, col=5, faces=[6, 6]))
        expression = entered["events"][0]["public"]["roll"]["expression"]
        assert expression == f"2D6<={level + info}"  # declared + 情報入手 + earlier attempts
        finish_turn(table, actor, None)
    # the entrants start on 0:0, which holds no 重要拠点 (they lie on row 5)
    actor = until_turn_of(table, *entrants)
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("next_phase"))
    refused = table.send(actor, cmd("destroy_key"))
    assert refused.json()["code"] == "card_face_down"
    assert f"{KEYS[0][0]}:{KEYS[0][1]}" in view(table, "gm")["board"]["keys"]


def _cafe_catalog() -> dict[str, Any]:
    """Every base card but the 重要拠点 is 喫茶店「ダリア」, where 回復 cannot be declared."""
    data = info_catalog()
    keys = [card for card in data["base_cards"] if card["kind"] == "key"]
    cafe = {"name": "喫茶店「ダリア」", "kind": "blank", "count": 36, "no_recovery": True}
    data["base_cards"] = [*keys, cafe]
    return data


def test_2002_no_recovery_on_a_face_up_cafe(client: TestClient) -> None:
    table = new_game(client, ruleset_options={"rules": "2002", "catalog": _cafe_catalog()})
    _bases, entrants, _outside = to_base(table)
    actor = until_turn_of(table, *entrants)
    to_phase(table, "move")
    table.do(actor, cmd("recover", stat="endurance"))  # still face down: nothing forbids it
    finish_turn(table, actor, None)  # その場の指示に従う turns the card under the piece
    assert view(table, "public")["board"]["base_turned"]["0:0"] == "喫茶店「ダリア」"
    actor = until_turn_of(table, *entrants)  # every entrant stands on 0:0
    to_phase(table, "move")
    before = table.log_bytes()
    refused = table.send(actor, cmd("recover", stat="endurance"))
    assert refused.status_code == 409 and refused.json()["code"] == "no_recovery_here"
    assert "喫茶店「ダリア」" in refused.json()["detail"]
    assert table.log_bytes() == before
    table.do(actor, cmd("pass"))
