"""Special abilities are used by naming them; the sealed sheet decides whether that is possible."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import cmd, me, new_game, to_phase, to_planets


def test_naming_an_ability_is_checked_against_the_sheet(client: TestClient) -> None:
    table = new_game(client)
    to_planets(table)
    actor = to_phase(table, "support1")
    sheet = me(table, actor)["sheet"]
    before = table.log_bytes()
    claimed = table.send(actor, cmd("use_ability", ability="時間停止"))
    assert claimed.json()["code"] == "no_such_ability"
    assert sheet["name"] not in claimed.text
    assert table.log_bytes() == before
    for ability in sheet["abilities"]:
        response = table.send(actor, cmd("use_ability", ability=ability["name"]))
        tags = ability["tags"]
        if "常動" in tags:
            assert response.json()["code"] == "always_on"
        elif "戦闘" in tags:
            assert response.json()["code"] == "combat_only"
        elif "支援" in tags:
            assert response.status_code == 201
            again = table.send(actor, cmd("use_ability", ability=ability["name"]))
            assert again.json()["code"] == "used_this_turn"
        elif "主要" in tags or "先制" in tags:
            assert response.json()["code"] == "wrong_phase"
