"""States the host records (4.4): the black hole, permanent disability, and the game ends they
bring (4.2: 「全てのプレイヤーが死亡する、あるいは永続的に行動不能になる」)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    cmd,
    info_catalog,
    me,
    new_game,
    quiet_turn,
    seats,
    to_base,
    to_phase,
    to_planets,
    turn_actor,
    until_turn_of,
    view,
)
from tests.table import Table


def _set(table: Table, seat: int, condition: str) -> None:
    table.do("gm", cmd("set_condition", seat=seat, condition=condition, reason="card text"))


def _based(client: TestClient) -> Table:
    table = new_game(client, ruleset_options={"catalog": info_catalog()})
    to_base(table)
    return table


def test_the_black_hole_opens_sole_victory(client: TestClient) -> None:
    table = _based(client)
    special = next(a for a in seats(table) if me(table, a)["faction"] == "S")
    others = [int(a[5:]) for a in seats(table) if a != special]
    for index, seat in enumerate(others):
        _set(table, seat, "black_hole" if index % 2 else "dead")
    assert view(table, "public")["ending"] is None
    assert turn_actor(table) == special  # the only one left who acts
    to_phase(table, "support1")
    table.do(special, cmd("declare_victory", sole=True))
    public = view(table, "public")
    assert public["ending"]["reason"] == "sole_victory"
    results = public["results"]
    assert results[special[5:]]["class"] == "A"
    assert {results[str(s)]["class"] for s in others} == {"D"}
    in_hole = [p for p in public["players"] if p["condition"] == "black_hole"]
    assert len(in_hole) == 2 and not any(results[str(p["seat"])]["alive"] for p in in_hole)


def test_everyone_disabled_ends_the_game_with_the_usual_conditions(client: TestClient) -> None:
    table = _based(client)
    numbers = [int(a[5:]) for a in seats(table)]
    turn_seat = int(turn_actor(table)[5:])
    _set(table, turn_seat, "disabled")
    assert int(turn_actor(table)[5:]) != turn_seat  # the turn passed on at once
    for seat in numbers:
        if seat != turn_seat:
            _set(table, seat, "disabled")
    public = view(table, "public")
    assert public["ending"]["reason"] == "all_out"
    results = public["results"].values()
    assert all(r["alive"] and r["class"] in ("A", "C") for r in results)
    assert not any("全てのキャラクターが死亡した" in r["reasons"] for r in results)


def test_the_black_hole_for_everyone_is_all_dead(client: TestClient) -> None:
    table = _based(client)
    for actor in seats(table):
        _set(table, int(actor[5:]), "black_hole")
    public = view(table, "public")
    assert public["ending"]["reason"] == "all_dead"
    assert {r["class"] for r in public["results"].values()} == {"D"}


def test_no_condition_changes_while_a_victory_waits(client: TestClient) -> None:
    table = _based(client)
    declarers = [int(a[5:]) for a in seats(table) if me(table, a)["faction"] != "S"]
    actor = until_turn_of(table, *declarers)
    to_phase(table, "support1")
    table.do(actor, cmd("declare_victory"))
    before = table.log_bytes()
    waiting = view(table, "public")["victory"]["waiting"]
    refused = table.send(
        "gm", cmd("set_condition", seat=waiting[0], condition="dead", reason="ambush")
    )
    assert refused.status_code == 409 and refused.json()["code"] == "victory_pending"
    assert table.log_bytes() == before


def test_a_death_in_a_party_dissolves_it_and_removes_the_piece(client: TestClient) -> None:
    table = new_game(client)
    to_planets(table)  # every explorer starts on planet 0's spaceport
    for _ in range(8):
        actor = turn_actor(table)
        players = view(table, "public")["players"]
        mine = next(p for p in players if f"seat:{p['seat']}" == actor)
        partners = [
            p["seat"]
            for p in players
            if p["side"] == "explorer" and p["silhouette"] != mine["silhouette"]
        ]
        if partners and not view(table, "gm")["turn"]["must_pass"]:
            break
        quiet_turn(table)
    assert partners, "no two explorers differ in silhouette"
    to_phase(table, "main")
    table.do(actor, cmd("form_party", partners=partners[:1]))
    table.do(f"seat:{partners[0]}", cmd("answer_party", accepts=True))
    leader = int(actor[5:])
    damage = cmd("set_condition", seat=partners[0], endurance_damage=1, reason="a stray shot")
    table.do("gm", damage)  # damage only: the partner stays one
    assert view(table, "public")["parties"] == {str(leader): partners[:1]}
    partner = me(table, f"seat:{partners[0]}")
    assert partner["damage"]["endurance"] == 1
    assert view(table, "public")["players"][partners[0] - 1]["condition"] == "partner"
    _set(table, leader, "dead")
    public = view(table, "public")
    assert public["parties"] == {}
    by_seat = {p["seat"]: p for p in public["players"]}
    assert by_seat[partners[0]]["condition"] == "normal"
    assert by_seat[leader]["position"] is None  # 4.4: the piece leaves the board
    dissolved = [e for e in table.events("public") if e["type"] == "chojin_locke.PartyDissolved"]
    assert [e["public"] for e in dissolved] == [{"leader": leader, "forced": True}]
    assert turn_actor(table) != actor  # the dead leader's turn passed on
