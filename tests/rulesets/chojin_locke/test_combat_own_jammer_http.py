"""A character's own ESPジャマーLV:X over HTTP (6.1 l.1252–1259, ruling CL-106), in a GM game and in
a
host game: every character holds ESPジャマーLV:3 [戦闘][対抗(Cカード使用)][EM]; the first fighter's
attack card waits for its answer and the third fighter, from its own token, jams it: the card is
back in the attacker's hand and locked (the attacker's retry is refused to it alone), its main
action open again. A jammer the sheet lacks is refused to its maker alone; a seat outside the
combat jams nothing; nothing refused is appended."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import (
    combat,
    current_actor,
    hand,
    start,
    three_on_a_square,
)
from tests.rulesets.chojin_locke.table import cmd, marked_catalog, me, seats, seen, teleporters
from tests.rulesets.chojin_locke.test_combat_walk_http import refused

JAMMER = "ESPジャマーLV:3"


def _catalog() -> dict[str, Any]:
    data, _ = marked_catalog()
    for character in data["characters"]:
        character["abilities"] = [{"name": JAMMER, "tags": ["戦闘", "対抗(Cカード使用)", "EM"]}]
    data["combat_cards"] = [
        {"name": f"C-{uuid.uuid4().hex}", "lv": 1, "kinds": ["攻撃"], "firepower": 4}
        for _ in range(60)
    ]
    return teleporters(data, 2)


@pytest.mark.parametrize("referee", ["gm", "host"])
def test_a_characters_own_jammer_voids_an_attack_card(client: TestClient, referee: str) -> None:
    table, fighters = three_on_a_square(client, catalog=_catalog(), referee=referee)
    start(table, fighters)
    attacker = current_actor(table)
    one = int(attacker[5:])
    order = combat(table)["order"]
    target, third = (s for s in order if s != one)
    table.do(attacker, cmd("combat_next"))
    table.do(attacker, cmd("combat_next"))
    card = hand(table, one)[0]
    level = me(table, attacker)["stats"]["esp_level"]
    play = cmd("play_card", card=card, kind="攻撃", target=target, esp_level=level)
    table.do(attacker, play)
    assert combat(table, "public")["attack"]["awaiting"] == "response"

    outsider = next(s for s in seats(table) if int(s[5:]) not in fighters)
    refused(table, outsider, cmd("jam", ability=JAMMER), "not_fighting")
    secret = "ESPジャマーLV:9"
    rejection = table.send(f"seat:{third}", cmd("jam", ability=secret))
    assert rejection.json()["code"] == "no_such_ability"
    for viewer in ("public", table.creator, attacker, f"seat:{target}"):
        assert secret.encode() not in seen(table, viewer)

    (used,) = table.do(f"seat:{third}", cmd("jam", ability=JAMMER))["events"]
    assert used["type"] == "chojin_locke.JammerUsed"
    assert (used["public"]["jammer"], used["public"]["ability"]) == (third, JAMMER)
    assert JAMMER in used["line"]["text"]
    fight = combat(table, "public")
    assert fight["attack"] is None and not fight["main_done"] and fight["turn_actions"] == ["攻撃"]
    assert card in hand(table, one)
    refused(table, attacker, play, "card_locked")
    table.do(attacker, cmd("combat_pass"))  # the main action is open again
