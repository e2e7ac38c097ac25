"""A refused command's body reads as a sentence a player understands, in the reader's language,
naming the field by the label its form shows (domain/rulesets/*/forms.py); the stable code and
the machine-readable errors stay."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.table import Table

SHEET = {"karate": 3, "neuron": 3, "wazamae": 3, "tairyoku": 6}


def _ninja(client: TestClient) -> Table:
    table = Table.create(client, ruleset="ninja_slayer")
    table.join_all()
    return table


def _add(table: Table, language: str, **sheet: Any) -> Any:
    body = {
        "type": "ninja_slayer.add_character",
        "id": "fujikido",
        "name": "フジキド",
        "sheet": {**SHEET, **sheet},
    }
    return table.send("seat:1", body, **{"Accept-Language": language})


@pytest.mark.parametrize(
    ("language", "detail"),
    [("ja", "体力（最大） は 1 以上にしてください。"), ("en", "Tairyoku (max) must be 1 or more.")],
)
def test_a_number_below_its_minimum_is_named_by_its_label(
    client: TestClient, language: str, detail: str
) -> None:
    refused = _add(_ninja(client), language, tairyoku=0)
    assert refused.status_code == 422
    problem = refused.json()
    assert problem["code"] == "invalid_request" and problem["detail"] == detail
    # The machine-readable list stays: where, pydantic's kind, and the sentence for each.
    (error,) = problem["errors"]
    assert error["loc"][-2:] == ["sheet", "tairyoku"] and error["type"] == "greater_than_equal"
    assert error["detail"] == detail
    assert "Input should" not in problem["detail"]


def test_a_missing_field_and_a_list_item_read_in_words(client: TestClient) -> None:
    table = _ninja(client)
    no_karate = dict(SHEET)
    del no_karate["karate"]
    body = {"type": "ninja_slayer.add_character", "id": "f", "name": "フジキド", "sheet": no_karate}
    refused = table.send("seat:1", body)
    assert refused.json()["detail"] == "カラテ を入力してください。"
    nameless = _add(table, "ja", weapons=[{"name": "", "slots": 1}])
    assert nameless.json()["detail"] == "武器名 を入力してください。"
    too_many = _add(table, "en", kyakuryoku=100)
    assert too_many.json()["detail"] == "Kyakuryoku must be 99 or less."


def test_a_map_key_is_named_after_its_field(client: TestClient) -> None:
    table = Table.create(client, ruleset="mech_d20")
    table.join_all()
    sheet = {
        "level": 0,
        "abilities": {"出力": 3, "敏捷力": 2},
        "proficiency": 2,
        "defences": {"AC": 15, "頑健": 12, "反応": 12, "意志": 12},
        "max_hp": 30,
    }
    body = {"type": "mech_d20.add_unit", "id": "u1", "name": "ガンダム", "sheet": sheet}
    refused = table.send("seat:1", body)
    assert refused.json()["detail"] == "レベル は 1 以上にしてください。"
    wrong_die = {**sheet, "level": 1, "weapons": [{"name": "サーベル", "die": "d8"}]}
    refused = table.send("seat:1", {**body, "sheet": wrong_die}, **{"Accept-Language": "en"})
    assert refused.json()["detail"] == "Weapon die is not written the way it should be."


def test_a_chat_line_too_long_names_its_field_in_words(client: TestClient) -> None:
    """The commands every game has label their fields too: 本文, not `text`."""
    table = _ninja(client)
    refused = table.send("seat:1", {"type": "say", "text": "x" * 50_000})
    problem = refused.json()
    assert refused.status_code == 422 and problem["code"] == "invalid_request", problem
    assert problem["detail"] == "本文 は 2000 文字以内にしてください。", problem["detail"]
    roll = table.send("seat:1", {"type": "roll", "expression": ""}, **{"Accept-Language": "en"})
    assert roll.json()["detail"] == "Fill in Dice command.", roll.json()
    tab = table.send("gm", {"type": "add_tab", "name": "x" * 30})
    assert tab.json()["detail"].startswith("タブ名 は "), tab.json()
