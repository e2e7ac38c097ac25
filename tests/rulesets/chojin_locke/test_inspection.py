"""4.5: when 惑星編 ends on 情報入手, the holder looks at base players' sheets, in secret."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    cmd,
    marked_catalog,
    me,
    new_game,
    play_planet_stage,
    seats,
    view,
)


def test_information_holder_sees_base_sheets_and_nobody_else_does(client: TestClient) -> None:
    catalog, _ = marked_catalog()
    catalog["planet_cards"] = [{"name": "情報入手", "kind": "info", "count": 36, "text": ""}]
    table = new_game(client, ruleset_options={"catalog": catalog})
    bases, explorers = play_planet_stage(table)
    holder = next(p for p in view(table, "gm")["players"] if p["information"] >= 3)
    actor = f"seat:{holder['seat']}"
    assert me(table, actor)["inspections_left"] == holder["information"]
    other = next(s for s in explorers if s != holder["seat"])
    refused = table.send(f"seat:{other}", cmd("inspect_sheet", target=bases[0]))
    assert refused.json()["code"] == "no_inspections"
    assert table.send(actor, cmd("inspect_sheet", target=other)).json()["code"] == (
        "not_a_base_player"
    )
    table.do(actor, cmd("inspect_sheet", target=bases[0]))
    base_name = me(table, f"seat:{bases[0]}")["sheet"]["name"]
    assert me(table, actor)["inspected"][str(bases[0])]["name"] == base_name
    for viewer in ("public", *seats(table)):
        headers = table.auth(viewer)
        url = f"/games/{table.game_id}"
        seen = table.client.get(f"{url}/events", params={"after": 1}, headers=headers).content
        seen += table.client.get(url, headers=headers).content
        assert (base_name.encode() in seen) == (viewer in (actor, f"seat:{bases[0]}")), viewer
