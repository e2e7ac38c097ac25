"""Free actions need a unit that may act at all: none while 戦闘不能 (L445), none on its own
turn while 無防備 (L394); over the decider and over HTTP, where a refusal appends nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.table import Table

from .harness import Game, sheet
from .script import Script

HELPLESS = {"conditions": ["無防備"], "duration": "save_ends"}
SHOUT = {"name": "雄叫び", "action": "フリー", "range": "自身", "targets": 0}


def _game() -> Game:
    game = Game()
    game.add("aki", powers=[SHOUT])
    game.add("boss", kind="npc")
    game.begin({"aki": 15, "boss": 5})
    return game


def test_a_knocked_out_unit_takes_no_free_action_on_or_off_its_turn() -> None:
    game = _game()
    game.do("gm", "adjust", unit="aki", hp=-40, reason="撃墜")
    assert game.unit("aki").status == "戦闘不能"
    error = game.refused("seat:1", "act", "cannot_act", unit="aki", action="フリー", what="通信")
    assert "一切の行動" in error.message and "L445" in error.message
    game.do("seat:1", "start_turn")
    game.refused("seat:1", "act", "cannot_act", unit="aki", action="フリー", what="通信")
    game.refused("seat:1", "use_power", "cannot_act", unit="aki", power="雄叫び")


def test_a_helpless_unit_takes_no_free_action_on_its_turn_and_may_outside_it() -> None:
    game = _game()
    game.do("gm", "add_effect", unit="aki", effect=HELPLESS, reason="拘束フィールド")
    game.do("seat:1", "act", unit="aki", action="フリー", what="通信")  # outside its turn
    game.do("seat:1", "start_turn")
    error = game.refused("seat:1", "act", "cannot_act", unit="aki", action="フリー", what="通信")
    assert "無防備" in error.message and "L394" in error.message
    game.refused("seat:1", "use_power", "cannot_act", unit="aki", power="雄叫び")


def test_an_able_unit_still_takes_free_actions() -> None:
    game = _game()
    game.do("seat:1", "start_turn")
    game.do("seat:1", "act", unit="aki", action="フリー", what="通信")
    game.do("seat:1", "use_power", unit="aki", power="雄叫び")


def test_over_http_the_refusal_appends_nothing(client: TestClient) -> None:
    table = Table.create(client, seats=["Aki"], ruleset="mech_d20", options={"dice_policy": "both"})
    script = Script(table)
    table.join(1)
    table.do("gm", {"type": "start"})
    script.do("seat:1", "add_unit", id="aki", name="アキ", sheet=sheet(powers=[SHOUT]))
    script.do("gm", "add_unit", id="boss", name="ボス", kind="npc", sheet=sheet())
    script.do(
        "gm", "begin_encounter", participants=["aki", "boss"], faces={"aki": [15], "boss": [5]}
    )
    script.do("gm", "add_effect", unit="aki", effect=HELPLESS, reason="拘束フィールド")
    script.do("seat:1", "start_turn")
    problem = script.refuse("seat:1", "act", "cannot_act", unit="aki", action="フリー", what="通信")
    assert "無防備状態" in problem["detail"] or "無防備状態" in str(problem)
    script.refuse("seat:1", "use_power", "cannot_act", unit="aki", power="雄叫び")


def test_refusals_read_in_the_readers_language(client: TestClient) -> None:
    """A refusal and a sheet validator's message, Japanese by default and English on request:
    the unit named, the code kept, the refused field named by its form label."""
    table = Table.create(client, seats=["Aki"], ruleset="mech_d20", options={"dice_policy": "both"})
    script = Script(table)
    table.join(1)
    table.do("gm", {"type": "start"})
    script.do("gm", "add_unit", id="boss", name="ボス", kind="npc", sheet=sheet())
    script.do("gm", "begin_encounter", participants=["boss"], faces={"boss": [5]})
    act = {"type": "mech_d20.act", "unit": "boss", "action": "フリー", "what": "通信"}
    ja = table.send("seat:1", act).json()
    en = table.send("seat:1", act, **{"Accept-Language": "en"}).json()
    assert ja["code"] == en["code"] == "not_your_unit"
    assert (ja["detail"], en["detail"]) == (
        "ボスはあなたの機体ではない。",
        "ボス is not your unit.",
    )
    bad: dict[str, Any] = {"type": "mech_d20.add_unit", "id": "aki", "name": "アキ"}
    bad["sheet"] = sheet(abilities={"敏捷力": 3})
    ja = table.send("seat:1", bad).json()
    en = table.send("seat:1", bad, **{"Accept-Language": "en"}).json()
    assert ja["code"] == en["code"] == "invalid_request"
    assert ja["detail"].endswith("：出力が要る（基礎攻撃が使う）"), ja["detail"]
    assert en["detail"].endswith(": abilities need 出力 (the basic attacks use them)")
