"""An escape by a [逃避] ability as a main or a support action, over HTTP (3.1 l.298–300
「逃避とは戦闘からの離脱を行うことです。この行動を主要・支援行動で行った場合…」, 5.2 l.968 and
l.975; rulings CL-095–CL-097). In a GM game and in a host game, from each seat's own token: a
[戦闘][主要][逃避] ability as the main action takes its user out of the combat (then `escape_to`
moves its piece), a [戦闘][支援][逃避] one in a support phase does the same; a seat whose sheet
lacks the ability is refused, to itself alone, and nothing is appended."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import combat, current_actor, start, three_on_a_square
from tests.rulesets.chojin_locke.table import cmd, marked_catalog, seen, teleporters, view
from tests.rulesets.chojin_locke.test_combat_walk_http import refused
from tests.table import Table

RUN, BLINK = "緊急離脱", "瞬間離脱"


def _catalog() -> dict[str, Any]:
    data, _ = marked_catalog()
    for character in data["characters"]:
        character["abilities"] = [
            {"name": RUN, "tags": ["戦闘", "主要", "逃避"]},
            {"name": BLINK, "tags": ["戦闘", "支援", "逃避"]},
        ]
    data["combat_cards"] = [
        {"name": f"C-{uuid.uuid4().hex}", "lv": 1, "kinds": ["攻撃"], "firepower": 4}
        for _ in range(60)
    ]
    return teleporters(data, 2)


def _fighter(table: Table, seat: int) -> dict[str, Any]:
    return next(f for f in combat(table, "public")["fighters"] if f["id"] == seat)


@pytest.mark.parametrize("referee", ["gm", "host"])
def test_escape_abilities_as_main_and_support_actions(client: TestClient, referee: str) -> None:
    table, fighters = three_on_a_square(client, catalog=_catalog(), referee=referee)
    start(table, fighters)
    first = current_actor(table)
    one = int(first[5:])
    table.do(first, cmd("combat_next"))  # → 支援フェイズ1
    table.do(first, cmd("combat_next"))  # → 主要フェイズ
    other = next(f"seat:{s}" for s in fighters if s != one)
    refused(table, other, cmd("main_ability", ability=RUN), "not_your_combat_turn")
    secret = "時間停止"
    rejection = table.send(first, cmd("main_ability", ability=secret))
    assert rejection.json()["code"] == "no_such_ability"
    for viewer in ("public", table.creator, other):  # told to the maker alone
        assert secret.encode() not in seen(table, viewer)

    (used,) = table.do(first, cmd("main_ability", ability=RUN, effect="煙幕"))["events"]
    assert used["type"] == "chojin_locke.MainAbilityUsed" and used["public"]["escaped"]
    assert _fighter(table, one)["left"] and combat(table, "public")["turn_actions"] == ["逃避"]
    refused(table, first, cmd("escape_to", square=0), "same_square")
    table.do(first, cmd("escape_to", square=3))
    where = next(p for p in view(table, "public")["players"] if p["seat"] == one)["position"]
    assert where == {"planet": 0, "square": 3} and _fighter(table, one)["moved"]
    table.do(first, cmd("combat_next"))  # → 支援フェイズ2
    table.do(first, cmd("combat_next"))  # the next fighter's combat turn

    second = current_actor(table)
    two = int(second[5:])
    assert two != one
    table.do(second, cmd("combat_next"))  # → 支援フェイズ1
    (blink,) = table.do(second, cmd("use_ability", ability=BLINK))["events"]
    assert blink["public"]["escaped"]
    assert _fighter(table, two)["left"]
    refused(table, second, cmd("use_ability", ability=BLINK), "used_this_turn")
