"""6.1 パーティー l.1232 over HTTP:
「戦闘中、同じパーティーであるキャラクターを攻撃対象に選択できません。」
A leader forms a party with another explorer on planet 0's spaceport; a third explorer starts a
combat there. From each seat's own token: a party member's attack card or 格闘 at its partner
is refused (problem+json, nothing appended) in a GM game and in a host game; the same attack at
the fighter outside the party is taken, and that fighter may attack either of them."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import (
    combat,
    combat_catalog,
    hand,
    three_on_a_square,
    to_combat_phase,
)
from tests.rulesets.chojin_locke.table import cmd, end_turn, me, turn_actor, view
from tests.rulesets.chojin_locke.test_combat_walk_http import refused
from tests.table import Table


def _party_table(client: TestClient, referee: str) -> tuple[Table, int, int, int]:
    """Three explorers on one square, none twinned (a twin must be attacked, 3.2, and cannot
    join a party); the first of them to play forms a party with the second: (table, leader,
    partner, outsider)."""
    for _ in range(20):
        table, fighters = three_on_a_square(client, catalog=combat_catalog(), referee=referee)
        players = {p["seat"]: p for p in view(table, "public")["players"]}
        if len({players[s]["silhouette"] for s in fighters}) == 3:
            break
    else:
        raise AssertionError("every deal twinned two of the three explorers")
    for _ in range(12):
        actor = turn_actor(table)
        if int(actor[5:]) in fighters:
            break
        end_turn(table)
    leader = int(actor[5:])
    partner, outsider = (s for s in fighters if s != leader)
    table.do(actor, cmd("next_phase"))  # → 支援フェイズ1
    table.do(actor, cmd("next_phase"))  # → 主要フェイズ
    table.do(actor, cmd("form_party", partners=[partner]))
    table.do(f"seat:{partner}", cmd("answer_party", accepts=True))
    assert view(table, "public")["parties"] == {str(leader): [partner]}
    end_turn(table)
    return table, leader, partner, outsider


def _to_turn_of(table: Table, seat: int) -> None:
    """Pass combat turns until `seat`'s main phase."""
    for _ in range(12):
        fight = combat(table, table.creator)
        actor = f"seat:{fight['current']}"
        if fight["current"] == seat and fight["phase"] == "main":
            return
        if fight["phase"] == "main" and not fight["main_done"]:
            table.do(actor, cmd("combat_pass"))
        else:
            table.do(actor, cmd("combat_next"))
    raise AssertionError(f"never seat {seat}'s main phase")


def _attack(table: Table, seat: int, target: int) -> dict[str, Any]:
    card = hand(table, seat)[0]
    level = me(table, f"seat:{seat}")["stats"]["esp_level"]
    return cmd("play_card", card=card, kind="攻撃", target=target, esp_level=level, willpower=1)


@pytest.mark.parametrize("referee", ["gm", "host"])
def test_a_party_member_is_no_target_in_combat(client: TestClient, referee: str) -> None:
    table, leader, partner, outsider = _party_table(client, referee)
    starter = to_combat_phase(table, [leader, outsider])
    table.do(starter, cmd("start_combat"))
    for _ in range(3):
        table.do(starter, cmd("combat_next"))
    fighters = {f["id"] for f in combat(table, "public")["fighters"]}
    assert {leader, partner, outsider} <= fighters
    member = next(s for s in combat(table, "public")["order"] if s in (leader, partner))
    other = partner if member == leader else leader
    _to_turn_of(table, member)
    actor = f"seat:{member}"
    refused(table, actor, _attack(table, member, other), "party_member_target")
    melee = cmd("melee", target=other, endurance=1)
    refused(table, actor, melee, "party_member_target")
    # the refusal is the member's own answer; nobody else may even try
    refused(table, f"seat:{outsider}", _attack(table, outsider, other), "not_your_combat_turn")
    events = table.do(actor, _attack(table, member, outsider))["events"]
    used = next(e for e in events if e["type"] == "chojin_locke.CardActivated")
    assert used["public"]["target"] == outsider
