"""秘密基地編 over HTTP: secret 重要拠点, entry, 侵入チェック's cumulative −1, face-down skips,
teleport routes."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    base_game,
    cmd,
    finish_turn,
    info_catalog,
    me,
    new_game,
    seats,
    teleporters,
    to_base,
    until_turn_of,
    view,
)


def test_keys_are_secret_to_base_players(client: TestClient) -> None:
    table = new_game(client, ruleset_options={"catalog": info_catalog()})
    bases, _entrants, _outside = to_base(table)
    for actor in seats(table):
        keys = view(table, actor)["board"]["keys"]
        assert (keys is not None) == (int(actor[5:]) in bases)
    assert view(table, "public")["board"]["keys"] is None
    placed = [e for e in table.events("public") if e["type"] == "chojin_locke.KeyPlaced"]
    assert len(placed) == 4 and all(e["secret"] is None for e in placed)


def test_intrusion_check_gets_cumulative_minus_one(client: TestClient) -> None:
    table = new_game(
        client, options={"dice_policy": "both"}, ruleset_options={"catalog": info_catalog()}
    )
    _bases, _entrants, outside = to_base(table)
    if not outside:
        return  # every explorer tied on 情報入手 and entered
    seat = outside[0]
    actor = until_turn_of(table, seat)
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("next_phase"))
    assert table.send(actor, cmd("pass")).json()["code"] == "outside_the_base"
    level = me(table, actor)["stats"]["esp_level"]
    first = table.do(actor, cmd("intrude", declared=level, row=5, col=5, faces=[6, 6]))
    assert first["events"][0]["public"]["roll"]["expression"] == f"2D6<={level}"
    finish_turn(table, actor, None)
    actor = until_turn_of(table, seat)
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("next_phase"))
    second = table.do(actor, cmd("intrude", declared=level, row=5, col=5, faces=[6, 6]))
    assert second["events"][0]["public"]["roll"]["expression"] == f"2D6-1<={level}"
    finish_turn(table, actor, None)
    actor = until_turn_of(table, seat)
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("next_phase"))
    third = table.do(actor, cmd("intrude", declared=level, row=5, col=5, faces=[1, 2]))
    assert third["events"][0]["public"]["roll"]["expression"] == f"2D6-2<={level}"
    mine = next(p for p in view(table, "public")["players"] if p["seat"] == seat)
    if level >= 1:  # 1 + 2 − 2 = 1 ≤ the declared level
        assert mine["cell"] == {"row": 5, "col": 5} and not mine["outside"]
    else:
        assert mine["intrusion_failures"] == 3 and mine["outside"]


def test_face_down_card_skips_support_and_main_then_teleport_route(client: TestClient) -> None:
    catalog = teleporters(info_catalog())
    table, (_bases, entrants, _outside) = base_game(
        client, options={"dice_policy": "both"}, ruleset_options={"catalog": catalog}
    )
    actor = until_turn_of(table, *entrants)  # the first entrant to play finds 0:0 face down
    table.do(actor, cmd("next_phase"))
    assert view(table, "gm")["turn"]["phase"] == "square"  # 4.6: on a face-down base card
    assert view(table, "public")["board"]["base_turned"].get("0:0") is not None
    finish_turn(table, actor, None)
    actor = until_turn_of(table, int(actor[5:]))
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("next_phase"))
    table.do(actor, cmd("teleport", declared=2, faces=[2]))
    assert view(table, "gm")["turn"]["teleport"] == 2
    assert table.send(actor, cmd("next_phase")).json()["code"] == "teleport_pending"
    assert table.send(actor, cmd("teleport_to", row=0, col=1)).json()["code"] == "unreachable"
    table.do(actor, cmd("teleport_to", row=1, col=1))
    cell = next(p for p in view(table, "public")["players"] if f"seat:{p['seat']}" == actor)["cell"]
    assert cell == {"row": 1, "col": 1}
