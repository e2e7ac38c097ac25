"""3: a new player finds silhouette, card and ability names and the boards' numbering from
the API (`GET /rulesets`), and a refusal that names a wrong value lists the valid ones."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.rulesets.chojin_locke.catalog import sample
from tests.rulesets.chojin_locke.table import cmd, new_game, to_planets, view


def _chojin(client: TestClient) -> dict[str, Any]:
    listed = client.get("/rulesets").json()["rulesets"]
    one = next(r for r in listed if r["id"] == "chojin_locke")
    alone = client.get("/rulesets/chojin_locke")
    assert alone.status_code == 200 and alone.json() == one
    return dict(one)


def test_rulesets_list_commands_options_and_data(client: TestClient) -> None:
    ruleset = _chojin(client)
    types = {c["type"] for c in ruleset["commands"]}
    assert {"chojin_locke.choose_silhouette", "chojin_locke.use_ability"} <= types
    assert "catalog" in ruleset["options_schema"]["properties"]
    data = ruleset["data"]
    catalog = sample()
    assert [s["name"] for s in data["catalog"]["silhouettes"]] == [
        s.name for s in catalog.silhouettes
    ]
    assert {c["name"] for c in data["catalog"]["ability_cards"]} == {
        c.name for c in catalog.ability_cards
    }
    assert {c["name"] for c in data["catalog"]["planet_cards"]} >= {"情報入手", "白紙"}
    abilities = {a["name"]: a for a in data["abilities"]}
    assert abilities["テレパス"]["named"] is True  # [通常][支援]: said aloud
    assert abilities["超人"]["characters"] == ["ロック"]
    planets = data["planets"]["squares"]
    assert len(planets) == 36 and planets[0] == {
        "key": "0:0",
        "planet": 0,
        "square": 0,
        "spaceport": True,
        "left": "0:5",
        "right": "0:1",
    }
    base = {s["key"]: s for s in data["base"]["squares"]}
    assert len(base) == 36 and sum(s["outer"] for s in base.values()) == 20
    assert base["0:0"]["neighbours"] == {"down": "1:0", "right": "0:1"}
    others = [r for r in client.get("/rulesets").json()["rulesets"] if r["id"] == "freeform"]
    assert others and others[0]["data"] is None


def test_the_openapi_types_the_data(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    data = schemas["RulesetInfo"]["properties"]["data"]
    refs = {
        option.get("$ref", "").rsplit("/", 1)[-1]
        for option in data.get("anyOf", [])
        for option in [option, *option.get("anyOf", [])]
    }
    assert "ChojinReference" in refs, data
    reference = schemas["ChojinReference"]["properties"]
    assert {"catalog", "abilities", "planets", "base"} <= set(reference)


ENGLISH = {"Accept-Language": "en"}  # the refusals' English texts (Japanese by default)


def test_refusals_of_a_wrong_value_list_the_valid_ones(client: TestClient) -> None:
    table = new_game(client)
    to_planets(table)
    base = next(p["seat"] for p in view(table, "public")["players"] if p["side"] == "base")
    actor = f"seat:{base}"
    for body, valid in (
        (cmd("place_ambush", planet=9, square=0), "the planets are 0–5"),
        (cmd("place_ambush", planet=0, square=6), "squares are 0–5, 0 the spaceport"),
    ):
        before = table.log_bytes()
        response = table.send(actor, body, **ENGLISH)
        assert response.status_code == 422 and valid in response.json()["detail"]
        assert table.log_bytes() == before
    nobody = table.send("gm", cmd("set_condition", seat=9, condition="dead", reason="x"), **ENGLISH)
    assert "the seats: 1, 2, 3, 4, 5, 6" in nobody.json()["detail"]
