"""Regressions found by playing a combat over HTTP as an outside referee would (the seed's
chapter 5 beside docs/rulesets/chojin-locke/index.md), each checked through the real API."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import (
    combat,
    combat_catalog,
    hand,
    play_turn,
    start,
    three_on_a_square,
    to_combat_phase,
)
from tests.rulesets.chojin_locke.table import cmd, view
from tests.table import Table


def refused(table: Table, actor: str, body: dict[str, Any], code: str) -> None:
    """A refusal with `code`, as problem+json, that appends nothing."""
    before = table.log_bytes()
    response = table.send(actor, body)
    assert response.status_code in (403, 409), response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == code, response.text
    assert table.log_bytes() == before


def test_a_fighter_dead_in_round_one_draws_nothing_at_its_end(client: TestClient) -> None:
    """5.1 (7)④ (seed L940–941) draws for 「手札の枚数が手札上限枚数より少ないキャラクター」 in the
    combat; a character that died has left it (L726–728) and its hand went to the discard pile
    face down: it must not be dealt a new hand at the round end."""
    table, fighters = three_on_a_square(client)
    start(table, fighters)
    order = combat(table)["order"]
    first, second, dead = order
    actor = f"seat:{first}"
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))
    # an attack that misfires still counts as one (L1044): every 精神力チェック at 1 fails
    card = hand(table, first)[0]
    table.do(
        actor,
        cmd("play_card", card=card, kind="攻撃", target=second, esp_level=0, willpower=1),
    )
    table.do("gm", cmd("set_condition", seat=dead, condition="dead", reason="card text"))
    assert hand(table, dead) == []
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))
    play_turn(table)  # the second fighter passes; the dead one has no turn
    fight = combat(table)
    assert fight["step"] == "round_end"
    table.do(actor, cmd("continue_combat", go_on=True))
    if second in combat(table)["discarding"]:
        table.do(f"seat:{second}", cmd("discard_down", cards=[]))
    fight = combat(table)
    assert fight["round"] == 2
    counts = {f["id"]: f["hand"] for f in fight["fighters"]}
    assert counts == {first: 7, second: 7, dead: 0}
    assert hand(table, dead) == []
    drawn = [
        e["public"]["fighter"]
        for e in table.events("gm")
        if e["type"] == "chojin_locke.CombatCardsDrawn"
    ]
    assert drawn.count(dead) == 1  # its first hand only
    # the turn's phases read by the seed's names (L540–547), as the combat's and 5.7's do
    lines = {
        e["public"]["phase"]: e["line"]["text"]
        for e in table.events("public")
        if e["type"] == "chojin_locke.PhaseEntered"
    }
    assert lines["main"].endswith("主要フェイズ")
    assert lines["square"].endswith("マスの効果発動フェイズ")
    assert view(table, "public")["combat"]["fighters"]


def _escape_catalog() -> dict[str, Any]:
    """Every C-card 攻撃 or 逃避 (LV 1), every character of ESP level 1 or more."""
    data = combat_catalog()
    for card in data["combat_cards"]:
        card.update(kinds=["攻撃", "逃避"], lv=1)
    for character in data["characters"]:
        character["esp_level"] = max(character["esp_level"], 1)
        character["esp_power"] = max(character["esp_power"], 1)
    return data


def test_an_escape_by_a_respond_without_kind_then_the_leavers_phases(client: TestClient) -> None:
    """The docs' `respond {card?, kind?, …}` leaves `kind` out; a card that answers only as
    逃避 (5.3 l.1001–1002) was refused as 「… not 防御」. Now its one answering kind is used."""
    table, fighters = three_on_a_square(client, catalog=_escape_catalog())
    start(table, fighters)
    first, second, third = combat(table)["order"]
    actor = f"seat:{first}"
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))
    card = hand(table, first)[0]
    table.do(actor, cmd("play_card", card=card, kind="攻撃", target=second, esp_level=1))
    answer = hand(table, second)[0]
    events = table.do(f"seat:{second}", cmd("respond", card=answer, esp_level=1))["events"]
    used = next(e for e in events if e["type"] == "chojin_locke.CardActivated")
    assert used["public"]["kind"] == "逃避" and used["public"]["success"]
    landed = next(e for e in events if e["type"] == "chojin_locke.AttackLanded")
    assert landed["public"]["outcome"] == "evaded"
    fighter = next(f for f in combat(table)["fighters"] if f["id"] == second)
    assert fighter["left"]
    # it moves away (escape_to) and, the combat over, plays its 5.7 phases: in its 支援フェイズ
    # (a combat's, l.1132–1133) 勝利宣言 and パーティーの解散 are refused with that reason
    leaver = f"seat:{second}"
    planet = view(table, "gm")["players"][second - 1]["position"]["planet"]
    table.do(leaver, cmd("escape_to", square=3))
    assert view(table, "public")["players"][second - 1]["position"] == {
        "planet": planet,
        "square": 3,
    }
    refused(table, actor, cmd("declare_victory"), "combat_running")
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))
    play_turn(table)  # the third passes
    for seat in (first, third):
        table.do(f"seat:{seat}", cmd("continue_combat", go_on=False))
    assert view(table, "public")["combat"] is None
    assert view(table, "public")["aftermath"]["queue"] == [second]
    for _ in range(3):  # マスの効果発動 (a 待ち伏せ there could start a combat) → 支援
        if view(table, "public")["aftermath"]["phase"] == "support":
            break
        assert view(table, "public")["combat"] is None
        table.do(leaver, cmd("aftermath_next"))
    refused(table, leaver, cmd("declare_victory"), "aftermath_running")
    refused(table, leaver, cmd("dissolve_party"), "aftermath_running")
    table.do(leaver, cmd("open_sheet"))


def test_a_second_answer_to_a_hit_says_what_the_attack_waits_for(client: TestClient) -> None:
    """5.4 l.1056–1058: one C-card per attack. Once hit, a second `respond` is refused with what
    the attack waits for (its endurance), not 「No attack waits for your answer」."""
    table, fighters = three_on_a_square(client, catalog=_escape_catalog())
    start(table, fighters)
    first, second, _ = combat(table)["order"]
    actor = f"seat:{first}"
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))
    card = hand(table, first)[0]
    table.do(actor, cmd("play_card", card=card, kind="攻撃", target=second, esp_level=1))
    target = f"seat:{second}"
    table.do(target, cmd("respond"))
    assert combat(table, "public")["attack"]["awaiting"] == "endurance"
    answer = hand(table, second)[0]
    body = cmd("respond", card=answer, kind="逃避", esp_level=1)
    refused(table, target, body, "no_attack_on_you")
    assert "declare_endurance" in table.send(target, body).json()["detail"]


def test_an_obstacles_melee_reads_as_a_melee(client: TestClient) -> None:
    """6.2 l.1298–1301: an obstacle's 格闘 (`obstacle_attack {melee: true}`), member by member;
    its log line said 「武器で攻撃」 with the weapons' firepower."""
    table, fighters = three_on_a_square(client)
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    table.do("gm", {**cmd("add_obstacle"), "name": "警官隊", "members": [1, 1], "firepower": 4})
    for _ in range(3):
        table.do(starter, cmd("combat_next"))
    for _ in range(3):
        if combat(table)["current"] == 101:
            break
        play_turn(table)
    table.do("gm", cmd("combat_next"))
    table.do("gm", cmd("combat_next"))
    events = table.do("gm", cmd("obstacle_attack", target=fighters[0], melee=True))["events"]
    (attacked,) = [e for e in events if e["type"] == "chojin_locke.ObstacleAttacked"]
    assert attacked["public"]["melee"]
    assert "格闘攻撃" in attacked["line"]["text"] and "武器" not in attacked["line"]["text"]


def test_a_round_without_an_attack_asks_nobody(client: TestClient) -> None:
    """L931: a round without an attack ends the combat without the continuation question; the
    round-end event named every character as asked (`waiting`) all the same."""
    table, fighters = three_on_a_square(client)
    start(table, fighters)
    for _ in range(3):
        play_turn(table)
    (ending,) = [e for e in table.events("public") if e["type"] == "chojin_locke.CombatRoundEnding"]
    assert ending["public"]["attacked"] is False and ending["public"]["waiting"] == []
    assert view(table, "public")["combat"] is None
