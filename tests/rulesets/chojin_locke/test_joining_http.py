"""戦闘参加 and 戦闘前 in a real combat over HTTP: a character away from the square joins by
実はそこにいた, its piece moves in at コマ移動, it declares [手下:X] (its hand limit rises) and
another fighter rolls 「謎の特殊能力」; the ability behind each reaches no other seat.

Each sheet's only ability is a unique marker name with [戦闘前] and [手下:2], so the name in any
byte an audience receives means it was shown to it."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import combat, combat_catalog, to_combat_phase
from tests.rulesets.chojin_locke.table import (
    ambush_squares,
    cmd,
    me,
    new_game,
    seen,
    setup_to_ambush,
    view,
)
from tests.table import Table

VIEWERS = ("public", *(f"seat:{n}" for n in range(1, 7)))


def _game(client: TestClient) -> tuple[Table, list[int], list[int]]:
    """Three explorers on planet 0's spaceport; the other seats elsewhere (base players have no
    piece in 惑星編). Returns the table, the three and the others."""
    data: dict[str, Any] = combat_catalog()
    for character in data["characters"]:
        marker = f"ABILITY-{uuid.uuid4().hex}"
        character["abilities"] = [{"name": marker, "tags": ["戦闘前", "手下:2"]}]
    table = new_game(client, options={"dice_policy": "both"}, ruleset_options={"catalog": data})
    setup_to_ambush(table)
    gm = view(table, "gm")
    bases = [p["seat"] for p in gm["players"] if p["side"] == "base"]
    explorers = [p["seat"] for p in gm["players"] if p["side"] == "explorer"]
    assert len(explorers) >= 3, explorers
    for index, (planet, square) in enumerate(ambush_squares(table, 3)):
        actor = f"seat:{bases[index % len(bases)]}"
        table.do(actor, cmd("place_ambush", planet=planet, square=square))
    for index, seat in enumerate(explorers):
        table.do(f"seat:{seat}", cmd("enter", planet=max(index - 2, 0)))
    table.do(table.creator, cmd("begin_planets"))
    others = [p["seat"] for p in gm["players"] if p["seat"] not in explorers[:3]]
    return table, explorers[:3], others


def _ability(table: Table, seat: int) -> str:
    name: str = me(table, f"seat:{seat}")["sheet"]["abilities"][0]["name"]
    return name


def test_a_character_joins_moves_in_and_declares_its_minions(client: TestClient) -> None:
    table, fighters, others = _game(client)
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    assert combat(table)["step"] == "joining"
    away = others[0]
    # 実はそこにいた: 2 on the sample chart joins at once
    table.do(f"seat:{away}", cmd("join_check", check="there", faces=[1, 1]))
    joined = {f["id"]: f for f in combat(table, "public")["fighters"]}
    assert set(joined) == {*fighters, away} and joined[away]["joined_round"] == 1
    refused = table.send(f"seat:{away}", cmd("join_check", check="there", faces=[1, 1]))
    assert refused.status_code == 409 and refused.json()["code"] == "already_fighting"

    table.do(starter, cmd("combat_next"))  # → コマ移動
    table.do(starter, cmd("combat_next"))  # → 戦闘前: the piece moves in
    square = combat(table, "public")["square"]
    planet, number = (int(n) for n in square.split(":"))
    mover = next(p for p in view(table, "public")["players"] if p["seat"] == away)
    assert mover["position"] == {"planet": planet, "square": number}
    assert combat(table)["step"] == "before"

    table.do(f"seat:{away}", cmd("declare_minions", count=2))
    roller = fighters[0]
    table.do(f"seat:{roller}", cmd("mystery_ability", ability=_ability(table, roller)))
    again = table.send(f"seat:{roller}", cmd("mystery_ability"))
    assert again.status_code == 409 and again.json()["code"] == "mystery_used"

    table.do(starter, cmd("combat_next"))  # → hands, initiative, the first combat turn
    fight = combat(table, "public")
    by_id = {f["id"]: f for f in fight["fighters"]}
    assert by_id[away]["hand_limit"] == 9 and by_id[away]["hand"] == 9
    assert by_id[away]["minions"] == 2
    assert all(by_id[n]["hand"] == 7 for n in fighters)
    assert fight["deck"] == 60 - 9 - 7 * 3 and away in fight["order"]
    assert len(me(table, f"seat:{away}")["combat_hand"]) == 9

    # the abilities behind the declarations are sealed to their users
    secrets = {away: _ability(table, away), roller: _ability(table, roller)}
    for viewer in VIEWERS:
        data = seen(table, viewer)
        for owner, name in secrets.items():
            assert (name.encode() in data) == (viewer == f"seat:{owner}"), (viewer, owner)
    assert "minion_level" not in str(combat(table, "public"))


def test_an_onlooker_joins_with_everyones_consent(client: TestClient) -> None:
    table, fighters, _others = _game(client)
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    table.do("gm", cmd("join_check", check="joined", person="佐藤さん"))
    blocked = table.send(starter, cmd("combat_next"))
    assert blocked.status_code == 409 and blocked.json()["code"] == "join_request_pending"
    seats = sorted(p["seat"] for p in view(table, "public")["players"])
    for seat in seats[:-1]:
        table.do(f"seat:{seat}", cmd("answer_join", consents=True))
    table.do(f"seat:{seats[-1]}", cmd("answer_join", consents=True, faces=[6, 6]))
    fight = combat(table, "public")
    onlooker = next(f for f in fight["fighters"] if f["name"] == "佐藤さん")
    assert (onlooker["id"], onlooker["kind"], onlooker["members"]) == (101, "obstacle", [3])
    assert fight["join_request"] is None
    again = table.send("gm", cmd("join_check", check="joined", person="佐藤さん"))
    assert again.status_code == 409 and again.json()["code"] == "person_checked"
    for _ in range(3):
        table.do(starter, cmd("combat_next"))
    fight = combat(table, "public")
    assert 101 in fight["order"]  # an obstacle: initiative, no hand
    assert next(f for f in fight["fighters"] if f["id"] == 101)["hand"] == 0
