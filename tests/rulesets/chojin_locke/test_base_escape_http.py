"""A base player who escapes a combat in 惑星編 has no 5.7 phases (ruling CL-103), over HTTP in a
GM game and in a host game: l.754 「惑星編では戦闘終了時に基地プレイヤーのキャラクターのコマは
取り除かれます」 takes its piece off the board when the combat it left ends, which is when
l.1118–1119's phases would begin. A 待ち伏せ starts the combat; its handler leaves by a
[主要][逃避] ability and moves its piece (`escape_to`); when the combat ends its piece is gone,
no `aftermath` waits, and the explorer's turn goes on from its square phase."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    ambushed,
    cmd,
    fight_out,
    new_game,
    setup_to_ambush,
    turn_actor,
    view,
)
from tests.rulesets.chojin_locke.test_escape_ability_http import RUN, _catalog
from tests.table import Table


def _ambushed(client: TestClient, referee: str) -> tuple[Table, str, int]:
    """An explorer turns the 待ち伏せ on planet 0's first square: (table, explorer, handler)."""
    table = new_game(client, players=7, referee=referee, ruleset_options={"catalog": _catalog()})
    setup_to_ambush(table)
    actor, handler = ambushed(table)
    return table, actor, handler


@pytest.mark.parametrize("referee", ["gm", "host"])
def test_a_base_player_escaping_in_the_planet_stage_has_no_phases(
    client: TestClient, referee: str
) -> None:
    table, explorer, handler = _ambushed(client, referee)
    base = f"seat:{handler}"
    for _ in range(3):  # 戦闘参加 → コマ移動 → 戦闘前 → the first combat turn
        table.do(explorer, cmd("combat_next"))
    for _ in range(10):
        fight = view(table, "public")["combat"]
        if fight["current"] == handler:
            break
        current = f"seat:{fight['current']}"
        if fight["phase"] == "main" and not fight["main_done"]:
            table.do(current, cmd("combat_pass"))
        else:
            table.do(current, cmd("combat_next"))
    table.do(base, cmd("combat_next"))
    table.do(base, cmd("combat_next"))
    (used,) = table.do(base, cmd("main_ability", ability=RUN))["events"]
    assert used["public"]["escaped"]
    table.do(base, cmd("escape_to", square=4))
    where = next(p for p in view(table, "public")["players"] if p["seat"] == handler)
    assert where["position"] == {"planet": 0, "square": 4}
    fight_out(table, explorer, start=False)
    public = view(table, "public")
    assert public["combat"] is None and public["aftermath"] is None
    assert next(p for p in public["players"] if p["seat"] == handler)["position"] is None
    assert turn_actor(table) == explorer and public["turn"]["phase"] == "square"
