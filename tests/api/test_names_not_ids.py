"""Names, never ids: a character or unit added by its name alone gets an id the server derives
from it (the same on every replay, unique in the game), the forms say the id is not asked for,
and a ココフォリア character's labels name the fields of each ruleset's sheet."""

from __future__ import annotations

from fastapi.testclient import TestClient

from domain.model.seat_settings import from_ccfolia
from tests.table import Table

SHEET = {"karate": 3, "neuron": 3, "wazamae": 3, "tairyoku": 6}


def test_an_id_is_derived_from_the_name_when_none_is_given(client: TestClient) -> None:
    table = Table.create(client, ruleset="ninja_slayer", seats=["アキ", "ベン"])
    table.join_all()
    add = {"type": "ninja_slayer.add_character", "sheet": SHEET}
    table.do("seat:1", {**add, "name": "フジキド・ケンジ"})
    table.do("gm", {**add, "name": "ヤクザ", "kind": "mob"})
    table.do("gm", {**add, "name": "ヤクザ", "kind": "mob"})
    table.do("gm", {**add, "name": "!!", "kind": "mob"})
    table.do("seat:2", {**add, "id": "yamoto", "name": "ヤモト・コキ"})  # an id still may be given
    view = client.get(f"/games/{table.game_id}/view", headers=table.auth("gm")).json()
    ids = {c["id"]: c["name"] for c in view["rules"]["characters"].values()}
    assert ids == {
        "フジキドケンジ": "フジキド・ケンジ",
        "ヤクザ": "ヤクザ",
        "ヤクザ-2": "ヤクザ",
        "mob": "!!",
        "yamoto": "ヤモト・コキ",
    }
    blank = table.send("seat:1", {**add, "id": "a b", "name": "x"})
    assert blank.status_code == 422


def test_a_unit_gets_its_id_from_its_name(client: TestClient) -> None:
    table = Table.create(client, ruleset="mech_d20")
    table.join_all()
    sheet = {
        "level": 1,
        "abilities": {"出力": 3, "敏捷力": 2},
        "proficiency": 2,
        "defences": {"AC": 15, "頑健": 12, "反応": 12, "意志": 12},
        "max_hp": 30,
    }
    table.do("seat:1", {"type": "mech_d20.add_unit", "name": "ガンダム Mk-II", "sheet": sheet})
    view = client.get(f"/games/{table.game_id}/view", headers=table.auth("gm")).json()
    assert "ガンダムMk-II" in view["rules"]["units"]


def test_the_sheet_forms_do_not_ask_for_an_id(client: TestClient) -> None:
    rulesets = {r["id"]: r for r in client.get("/rulesets").json()["rulesets"]}
    for ruleset, command in (("ninja_slayer", "add_character"), ("mech_d20", "add_unit")):
        (info,) = [c for c in rulesets[ruleset]["commands"] if c["type"].endswith(command)]
        assert info["form"]["hidden"] == ["id"]
        assert "id" not in info["input_schema"]["required"]
    lifecycle = {c["type"]: c for c in client.get("/rulesets").json()["lifecycle"]}
    assert lifecycle["say"]["form"]["labels"]["text"] == "Message text"


def test_ccfolia_labels_name_each_rulesets_fields() -> None:
    mech = {
        "kind": "character",
        "data": {
            "name": "ガンダム",
            "status": [{"label": "HP", "value": 25, "max": 32}],
            "params": [{"label": "【出力】", "value": "4"}, {"label": "AC", "value": "17"}],
        },
    }
    assert from_ccfolia(mech, "mech_d20").fields == {
        "max_hp": 32,
        "abilities.出力": 4,
        "defences.AC": 17,
    }
    esper = {
        "kind": "character",
        "data": {
            "name": "ミューラー",
            "status": [{"label": "耐久力", "value": 5, "max": 5}],
            "params": [{"label": "ESP能力レベル", "value": "6"}],
        },
    }
    assert from_ccfolia(esper, "chojin_locke").fields == {"esp_level": 6, "endurance": 5}
