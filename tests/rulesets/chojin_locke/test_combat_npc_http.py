"""The NPC rules of 6.1–6.2 through the app: a dead character's 残留思念 attacks in its seat's
hands, a fainted fighter's turn is skipped, an obstacle's ESPジャマー sends a seat's card back
to its hand (and the refusal to play it again reaches that seat alone), and 幻覚 is refused
against an unaffected obstacle and taken by an affected one (rulings CL-079–CL-087)."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import (
    combat,
    combat_catalog,
    hand,
    play_turn,
    three_on_a_square,
    to_combat_phase,
)
from tests.rulesets.chojin_locke.table import (
    LOOP_BOUND,
    cmd,
    me,
    seen,
)
from tests.table import Table

NPC_TURN = ("combat_next", "combat_next", "combat_pass", "combat_next", "combat_next")


def _three(client: TestClient, catalog: dict[str, Any]) -> tuple[Table, list[int]]:
    """Three explorers on a square, with physical dice allowed and the given catalog."""
    return three_on_a_square(client, catalog=catalog, options={"dice_policy": "both"})


def _refused(table: Table, actor: str, body: dict[str, Any], code: str) -> bytes:
    before = table.log_bytes()
    response = table.send(actor, body)
    assert response.status_code in (403, 409), response.text
    assert response.json()["code"] == code, response.text
    assert table.log_bytes() == before
    return response.content


def _events(table: Table, kind: str) -> list[dict[str, Any]]:
    return [e for e in table.events("public") if e["type"] == f"chojin_locke.{kind}"]


def test_a_dead_characters_remnant_attacks_in_its_seats_hands(client: TestClient) -> None:
    table, fighters = _three(client, combat_catalog())
    dead = fighters[2]
    table.do(
        "gm", {**cmd("set_condition"), "seat": dead, "condition": "dead", "reason": "a card text"}
    )
    starter = to_combat_phase(table, fighters[:2])
    table.do(starter, cmd("start_combat"))
    # 実は生きていた 2+2 → 残留思念 (3–5); 残留思念チャート 3+3 → 火力4
    body = cmd("join_check", check="alive", faces=[2, 2], remnant_faces=[3, 3])
    table.do(f"seat:{dead}", body)
    for _ in range(3):
        table.do(starter, cmd("combat_next"))
    ghost = next(f for f in combat(table, "public")["fighters"] if f["id"] == 101)
    assert (ghost["kind"], ghost["seat"], ghost["firepower"]) == ("remnant", dead, 4)
    for _ in range(LOOP_BOUND):
        if combat(table)["current"] == 101:
            break
        play_turn(table)
    else:
        raise AssertionError("never the 残留思念's turn")
    ghost_seat = f"seat:{dead}"
    table.do(ghost_seat, cmd("combat_next"))
    table.do(ghost_seat, cmd("combat_next"))
    _refused(table, ghost_seat, cmd("remnant_attack", target=101), "bad_target")
    target = fighters[0]
    table.do(ghost_seat, cmd("remnant_attack", target=target))
    attack = combat(table, "public")["attack"]
    assert attack["remnant"] and attack["awaiting"] == "endurance"
    _refused(table, f"seat:{target}", cmd("respond"), "no_attack_on_you")
    _refused(
        table,
        f"seat:{target}",
        cmd("declare_endurance", endurance=1, suit=True),
        "no_suit_on_remnant",
    )
    table.do(f"seat:{target}", cmd("declare_endurance", endurance=1))
    (damage,) = _events(table, "DamageRolled")
    assert (damage["public"]["roller"], damage["public"]["target"]) == (101, target)


def test_a_fainted_fighters_turn_is_skipped_and_it_makes_no_check(client: TestClient) -> None:
    table, fighters = three_on_a_square(client)
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    for _ in range(3):
        table.do(starter, cmd("combat_next"))
    order = combat(table)["order"]
    sleeper = order[-1]
    _refused(table, starter, cmd("faint", fighter=sleeper, rounds=2), "gm_only")
    table.do("gm", cmd("faint", fighter=sleeper, rounds=2, reason="精神攻撃"))
    seen_fighter = next(f for f in combat(table, "public")["fighters"] if f["id"] == sleeper)
    assert seen_fighter["stunned_rounds"] == 2
    _refused(table, f"seat:{sleeper}", cmd("check", stat="willpower", declared=1), "fainted")
    for _ in range(len(order) - 1):
        play_turn(table)
    (skipped,) = _events(table, "CombatTurnSkipped")
    assert skipped["public"] == {"fighter": sleeper, "reason": "fainted"}


def test_a_jammer_sends_the_card_back_and_only_its_holder_hears_the_refusal(
    client: TestClient,
) -> None:
    table, fighters = three_on_a_square(client)
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    body = {**cmd("add_obstacle"), "name": "警戒装置", "members": [9], "firepower": 2}
    table.do("gm", {**body, "jammer_lv": 5})
    for _ in range(3):
        table.do(starter, cmd("combat_next"))
    for _ in range(LOOP_BOUND):
        if combat(table)["current"] != 101:
            break
        for name in NPC_TURN:
            table.do("gm", cmd(name))
    actor = f"seat:{combat(table)['current']}"
    seat = int(actor[5:])
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))
    card = hand(table, seat)[0]
    level = me(table, actor)["sheet"]["esp_level"]  # declared as it is; a misfire is jammed too
    play = cmd("play_card", card=card, kind="攻撃", target=101, esp_level=level, willpower=1)
    table.do(actor, play)
    (jammed,) = _events(table, "JammerUsed")
    assert jammed["public"]["jammer"] == 101 and jammed["public"]["fighter"] == seat
    assert card in hand(table, seat)
    fight = combat(table, "public")
    assert fight["attack"] is None and fight["attacked"] and not fight["main_done"]
    refusal = _refused(table, actor, play, "card_locked")
    assert card.encode() in refusal
    for viewer in ("public", *(f"seat:{n}" for n in fighters if n != seat)):
        # the card was shown when played; the refusal went to its holder alone
        assert b"card_locked" not in seen(table, viewer)
    table.do(actor, cmd("combat_pass"))


def _illusion_catalog() -> dict[str, Any]:
    """Every C-card a LV 1 幻覚 defence; every character ESP能力レベル 1 or more, so a declared 1
    activates it with no 精神力チェック, and 耐久力 7 or more, so an undefended 火力 2 reads
    「1:2以下」 (at most 2 damage) and nobody dies of the obstacles' hits, whatever the dice."""
    data = combat_catalog()
    for character in data["characters"]:
        character["endurance"] = max(character["endurance"], 7)
        character["esp_level"] = max(character["esp_level"], 1)
        character["esp_power"] = max(character["esp_power"], 1)
    data["combat_cards"] = [
        {"name": f"幻影-{uuid.uuid4().hex}", "lv": 1, "kinds": ["防御"], "illusion": True}
        for _ in range(60)
    ]
    return data


def test_no_illusion_against_an_unaffected_obstacle_an_affected_one_takes_it(
    client: TestClient,
) -> None:
    table, fighters = _three(client, _illusion_catalog())
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    golem = {**cmd("add_obstacle"), "name": "ゴーレム", "members": [9], "firepower": 2}
    table.do("gm", {**golem, "illusion_immune": True})
    police = {**cmd("add_obstacle"), "name": "警官隊", "members": [1], "firepower": 2}
    table.do("gm", police)
    for _ in range(3):
        table.do(starter, cmd("combat_next"))
    done: set[int] = set()
    for _ in range(LOOP_BOUND):
        current = combat(table)["current"]
        if current not in (101, 102):
            play_turn(table)
            continue
        table.do("gm", cmd("combat_next"))
        table.do("gm", cmd("combat_next"))
        target = fighters[0] if current == 101 else fighters[1]
        table.do("gm", cmd("obstacle_attack", target=target, lv=1))
        card = hand(table, target)[0]
        answer = cmd("respond", card=card, kind="防御", esp_level=1)
        if current == 101:
            _refused(table, f"seat:{target}", answer, "illusion_immune")
            table.do(f"seat:{target}", cmd("respond"))
            endurance = me(table, f"seat:{target}")["sheet"]["endurance"]
            table.do(f"seat:{target}", cmd("declare_endurance", endurance=endurance))
        else:
            table.do(f"seat:{target}", answer)
        done.add(current)
        table.do("gm", cmd("combat_next"))
        table.do("gm", cmd("combat_next"))
        if done == {101, 102}:
            break
    else:
        raise AssertionError("never both obstacles' turns")
    (took,) = _events(table, "IllusionTook")
    assert took["public"]["obstacle"] == 102 and took["public"]["use"] == "response"
