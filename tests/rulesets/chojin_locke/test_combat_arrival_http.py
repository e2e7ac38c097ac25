"""5.1 (2) l.899–901 over HTTP, in a GM game and in a host game: 「探索プレイヤーのキャラクターが
1ラウンド目のコマ移動フェイズ時に戦闘に参加した場合に限り、マスの効果発動フェイズを即座に行い」.
In 秘密基地編 the best-informed explorer entered on (0,0), face down, and is bound (拘束, the
referee's `set_condition`): its turns skip the square phase, so the card stays face down. A base
player walks there (base players turn no card, 4.6 l.830–832) and starts a combat; an explorer
from around the base joins by 実はそこにいた, and at コマ移動 its piece turns the card at once."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    LOOP_BOUND,
    base_game,
    cmd,
    finish_turn,
    info_catalog,
    quiet_turn,
    turn_actor,
    view,
)


@pytest.mark.parametrize("referee", ["gm", "host"])
def test_an_explorer_joining_in_round_one_turns_the_square(
    client: TestClient, referee: str
) -> None:
    table, (bases, entrants, outside) = base_game(
        client,
        referee=referee,
        options={"dice_policy": "both"},
        ruleset_options={"catalog": info_catalog()},
    )
    if not outside:
        pytest.skip("every explorer entered the base: nobody joins from around it")
    entrant, joiner, walker = entrants[0], outside[0], bases[0]
    for other in entrants[1:]:  # any other entrant on (0,0) would turn it in its own turn
        table.do(table.creator, cmd("set_condition", seat=other, condition="bound", reason="罠"))
    table.do(table.creator, cmd("set_condition", seat=entrant, condition="bound", reason="罠"))
    assert "0:0" in view(table, "public")["board"]["base_face_down_squares"]

    for _ in range(LOOP_BOUND):
        actor = turn_actor(table)
        if int(actor[5:]) != walker:
            quiet_turn(table)
            continue
        cell = next(p for p in view(table, "public")["players"] if p["seat"] == walker)["cell"]
        if (cell["row"], cell["col"]) == (0, 0):
            break
        step = "up" if cell["row"] > 0 else "left"
        finish_turn(table, actor, cmd("move", direction=step))
        cell = next(p for p in view(table, "public")["players"] if p["seat"] == walker)["cell"]
        if (cell["row"], cell["col"]) == (0, 0):
            break
    else:
        raise AssertionError("the base player never reached (0,0)")
    assert "0:0" in view(table, "public")["board"]["base_face_down_squares"]

    # the walker's next turn: it passes, and starts a combat with the bound entrant
    for _ in range(LOOP_BOUND):
        if turn_actor(table) == f"seat:{walker}":
            break
        quiet_turn(table)
    me = f"seat:{walker}"
    for _ in range(8):
        turn = view(table, "public")["turn"]
        if turn["phase"] == "combat":
            break
        if turn["phase"] == "main" and turn["main"] is None:
            table.do(me, cmd("pass"))
        table.do(me, cmd("next_phase"))
    table.do(me, cmd("start_combat"))
    table.do(f"seat:{joiner}", cmd("join_check", check="there", faces=[1, 1]))
    table.do(me, cmd("combat_next"))  # → コマ移動
    events = table.do(me, cmd("combat_next"))["events"]
    kinds = [e["type"].split(".")[-1] for e in events]
    assert kinds == ["ArrivedOnSquare", "BaseCardTurned", "CombatStepEntered"], kinds
    turned = events[1]["public"]
    assert (turned["seat"], turned["row"], turned["col"]) == (joiner, 0, 0)
    public = view(table, "public")
    assert "0:0" not in public["board"]["base_face_down_squares"]
    assert public["combat"]["step"] == "before"
