"""Rulings CL-094–CL-095 over HTTP in a real combat: a [主要]/[先制] ability as a combat turn's main
action
(`main_ability`: a [先制] that did nothing leaves the main action open), and a maintainable defence
kept up by its `respond` and let go in its keeper's own combat turn (`drop_defence`). Every
refusal appends nothing; an ability never used reaches no other seat. Outcomes do not depend
on the dice: every C-card is LV 1 and every character declares its true ESP能力レベル 6."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import (
    combat,
    current_actor,
    hand,
    play_turn,
    start,
    three_on_a_square,
)
from tests.rulesets.chojin_locke.table import LOOP_BOUND, cmd, marked_catalog, me, seen
from tests.table import Table


def _catalog() -> dict[str, Any]:
    """Marker sheets with ESP能力レベル 6, a [先制] and a [主要] ability each; 40 LV 1 C-cards,
    攻撃 or a maintainable 防御, none [同調可]."""
    data, _ = marked_catalog()
    for character in data["characters"]:
        character.update(esp_level=6, esp_power=60)  # the power never lowers the level
        character["abilities"] = [
            {"name": f"PRE-{uuid.uuid4().hex}", "tags": ["戦闘", "先制"]},
            {"name": f"MAIN-{uuid.uuid4().hex}", "tags": ["戦闘", "主要"]},
        ]
    data["combat_cards"] = [
        {
            "name": f"C-{uuid.uuid4().hex}",
            "lv": 1,
            "kinds": ["攻撃", "防御"],
            "firepower": 4,
            "maintain": True,
        }
        for _ in range(40)
    ]
    return data


def _refused(table: Table, actor: str, body: dict[str, Any], code: str) -> None:
    before = table.log_bytes()
    response = table.send(actor, body)
    assert response.status_code == 409 and response.json()["code"] == code, response.text
    assert table.log_bytes() == before


def _ability(table: Table, actor: str, prefix: str) -> str:
    return next(
        a["name"] for a in me(table, actor)["sheet"]["abilities"] if a["name"].startswith(prefix)
    )


def _defence(table: Table, seat: int) -> Any:
    return next(f for f in combat(table, "public")["fighters"] if f["id"] == seat)["defence"]


def test_main_ability_and_a_kept_defence_in_a_real_combat(client: TestClient) -> None:
    table, fighters = three_on_a_square(client, catalog=_catalog())
    start(table, fighters)
    a = current_actor(table)
    b = next(f"seat:{n}" for n in combat(table)["order"] if n != int(a[5:]))
    sa, sb = int(a[5:]), int(b[5:])
    pre, main = _ability(table, a, "PRE-"), _ability(table, a, "MAIN-")
    _refused(table, a, cmd("main_ability", ability=pre), "wrong_phase")
    table.do(a, cmd("combat_next"))
    table.do(a, cmd("combat_next"))
    assert combat(table)["phase"] == "main"

    # ---- main_ability (ruling CL-095): refusals first, each appending nothing
    _refused(
        table, b, cmd("main_ability", ability=_ability(table, b, "PRE-")), "not_your_combat_turn"
    )
    _refused(table, a, cmd("main_ability", ability="時間停止"), "no_such_ability")
    _refused(table, a, cmd("main_ability", ability=main, no_effect=True), "not_preemptive")
    _refused(table, a, cmd("drop_defence"), "no_defence")
    for viewer in ("public", b):  # refused, never used: still a's alone
        assert main.encode() not in seen(table, viewer)
    # a [先制] that did nothing: named aloud, and another main action at once
    (used,) = table.do(a, cmd("main_ability", ability=pre, no_effect=True, effect="予知なし"))[
        "events"
    ]
    assert used["type"] == "chojin_locke.MainAbilityUsed"
    assert (used["public"]["ability"], used["public"]["no_effect"]) == (pre, True)
    assert combat(table, "public")["main_done"] is False

    # ---- the other main action: a card attack at b, blocked by a defence b keeps up
    card = hand(table, sa)[0]
    table.do(a, cmd("play_card", card=card, kind="攻撃", target=sb, esp_level=6))
    answer = hand(table, sb)[0]
    table.do(b, cmd("respond", card=answer, kind="防御", esp_level=6))
    assert _defence(table, sb) == {"card": answer, "lv": 1}
    assert combat(table)["main_done"] is True
    _refused(table, a, cmd("main_ability", ability=main), "main_action_used")
    _refused(table, b, cmd("drop_defence"), "not_your_combat_turn")  # not in a's turn
    table.do(a, cmd("combat_next"))
    table.do(a, cmd("combat_next"))

    # ---- b's own combat turn: it lets the defence go (ruling CL-094), once
    for _ in range(LOOP_BOUND):
        if current_actor(table) == b:
            break
        play_turn(table)
    else:
        raise AssertionError("b's turn never came")
    (dropped,) = table.do(b, cmd("drop_defence"))["events"]
    assert dropped["type"] == "chojin_locke.DefenceDropped"
    assert dropped["public"]["fighter"] == sb
    assert _defence(table, sb) is None
    _refused(table, b, cmd("drop_defence"), "no_defence")
    # its [主要] ability as its main action: the main action is taken
    table.do(b, cmd("combat_next"))
    table.do(b, cmd("combat_next"))
    own = _ability(table, b, "MAIN-")
    table.do(b, cmd("main_ability", ability=own, effect="場の全員に通知"))
    assert combat(table)["main_done"] is True
    _refused(table, b, cmd("combat_pass"), "main_action_used")
    assert table.client.get(f"/games/{table.game_id}/verify").json()["ok"] is True
