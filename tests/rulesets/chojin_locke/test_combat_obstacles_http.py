"""6.2 障害 through the app: the host brings an obstacle in, plays its combat turn and its attack
at a random target; the target answers it like any attack (rulings CL-076–CL-077)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import (
    combat,
    play_turn,
    three_on_a_square,
    to_combat_phase,
)
from tests.rulesets.chojin_locke.table import cmd


def test_the_host_plays_an_obstacles_attack_and_its_target_answers(client: TestClient) -> None:
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
    assert combat(table)["current"] == 101
    table.do("gm", cmd("combat_next"))
    table.do("gm", cmd("combat_next"))
    table.do("gm", cmd("obstacle_attack", target="random"))
    attack = combat(table, "public")["attack"]
    assert attack["weapon"] and attack["card"] is None
    assert (attack["attacker"], attack["firepower"], attack["lv"]) == (101, 4, 1)
    assert attack["target"] in fighters and attack["awaiting"] == "response"
    target = f"seat:{attack['target']}"
    table.do(target, cmd("respond"))
    table.do(target, cmd("declare_endurance", endurance=1))
    events = table.events("public")
    (attacked,) = [e for e in events if e["type"] == "chojin_locke.ObstacleAttacked"]
    assert attacked["public"]["candidates"] == sorted(fighters)
    assert attacked["public"]["roll"]["expression"] == "1D3"
    damage = [e for e in events if e["type"] == "chojin_locke.DamageRolled"][-1]
    assert (damage["public"]["roller"], damage["public"]["target"]) == (101, attack["target"])
