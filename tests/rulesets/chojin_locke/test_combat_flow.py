"""Chapter 5's flow: starting a combat (4.3 戦闘発生), the C-card deck and hands (5.1 (4)),
initiative (5.1 (5)), the combat turn's phases and its main actions パス and 捨てる (5.2)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import (
    combat,
    current_actor,
    hand,
    play_turn,
    start,
    three_on_a_square,
    to_combat_phase,
)
from tests.rulesets.chojin_locke.table import cmd, view
from tests.table import Table


def _refused(table: Table, actor: str, body: dict[str, object], *codes: str) -> None:
    before = table.log_bytes()
    response = table.send(actor, body)
    assert response.status_code in (403, 409), response.text
    assert response.json()["code"] in codes, response.text
    assert table.log_bytes() == before


def _rank(card: dict[str, object]) -> tuple[int, object]:
    return (0 if card["color"] == "black" else 1, card["rank"])


def test_start_combat_takes_everyone_on_the_square_and_holds_the_turn(
    client: TestClient,
) -> None:
    table, fighters = three_on_a_square(client)
    starter = to_combat_phase(table, fighters)
    others = [s for s in range(1, 7) if s not in fighters]
    _refused(table, f"seat:{others[0]}", cmd("start_combat"), "not_your_turn")
    table.do(starter, cmd("start_combat"))
    fight = combat(table)
    assert [f["id"] for f in fight["fighters"]] == sorted(fighters)
    assert (fight["step"], fight["round"], fight["started_by"]) == ("joining", 1, int(starter[5:]))
    assert fight["square"] == "0:0"
    _refused(table, starter, cmd("next_phase"), "combat_running")
    _refused(table, starter, cmd("start_combat"), "combat_running")
    _refused(
        table,
        f"seat:{next(s for s in fighters if f'seat:{s}' != starter)}",
        cmd("combat_next"),
        "not_the_starter",
    )
    lines = [e for e in table.events("public") if e["type"] == "chojin_locke.CombatStarted"]
    assert len(lines) == 1


def test_start_combat_needs_a_move_or_pass_and_someone_there(client: TestClient) -> None:
    table, fighters = three_on_a_square(client)
    starter = to_combat_phase(table, fighters)
    assert view(table, "gm")["turn"]["main"] == "pass"
    # the others leave by the host's hand: nobody left on the square
    for seat in fighters:
        if f"seat:{seat}" != starter:
            table.do("gm", cmd("set_condition", seat=seat, condition="dead", reason="test"))
    _refused(table, starter, cmd("start_combat"), "nobody_here")


def test_hands_are_dealt_to_the_limit_and_initiative_orders_the_turns(
    client: TestClient,
) -> None:
    table, fighters = three_on_a_square(client)
    start(table, fighters)
    fight = combat(table, "public")
    assert fight["step"] == "turns" and fight["phase"] == "check"
    assert [f["hand"] for f in fight["fighters"]] == [7, 7, 7]
    assert fight["deck"] == 60 - 21
    hands = {seat: hand(table, seat) for seat in fighters}
    assert all(len(h) == 7 for h in hands.values())
    assert len({c for h in hands.values() for c in h}) == 21  # no card dealt twice
    cards = {f["id"]: f["initiative"] for f in fight["fighters"]}
    assert fight["order"] == sorted(cards, key=lambda n: _rank(cards[n]))
    assert fight["current"] == fight["order"][0]
    public = view(table, "public")
    assert "me" not in public
    for seat in fighters:
        mine = view(table, f"seat:{seat}")
        assert mine["me"]["combat_hand"] == hands[seat]


def test_combat_turn_phases_pass_and_discard(client: TestClient) -> None:
    table, fighters = three_on_a_square(client)
    start(table, fighters)
    order = combat(table)["order"]
    actor = current_actor(table)
    waiting = f"seat:{order[1]}"
    _refused(table, waiting, cmd("combat_next"), "not_your_combat_turn")
    _refused(table, actor, cmd("combat_pass"), "wrong_phase")
    table.do(actor, cmd("combat_next"))
    assert combat(table)["phase"] == "support1"
    table.do(actor, cmd("combat_next"))
    assert combat(table)["phase"] == "main"
    _refused(table, actor, cmd("combat_next"), "main_action_required")
    card = hand(table, order[0])[0]
    _refused(table, actor, cmd("discard_card", card=hand(table, order[1])[0]), "not_in_hand")
    table.do(actor, cmd("discard_card", card=card))
    _refused(table, actor, cmd("combat_pass"), "main_action_used")
    assert card not in hand(table, order[0]) and len(hand(table, order[0])) == 6
    public = combat(table, "public")
    assert public["discard"] == [None]  # face down
    assert next(f for f in public["fighters"] if f["id"] == order[0])["hand"] == 6
    table.do(actor, cmd("combat_next"))
    assert combat(table)["phase"] == "support2"
    table.do(actor, cmd("combat_next"))
    fight = combat(table)
    assert (fight["current"], fight["phase"]) == (order[1], "check")
    play_turn(table)
    assert combat(table)["current"] == order[2]
    play_turn(table)
    # no attack this round: the continuation check ends the combat (5.1 (7)②), the turn goes on
    assert view(table, "gm")["combat"] is None
    ended = [e for e in table.events("public") if e["type"] == "chojin_locke.CombatEnded"]
    assert ended[0]["public"]["reason"] == "no_attack"
    turn = view(table, "gm")["turn"]
    assert f"seat:{turn['seat']}" != f"seat:{fight['started_by']}" or turn["phase"] == "check"


def test_support_actions_in_a_combat_turn(client: TestClient) -> None:
    """5.2: 改心 and シートオープン in the combat turn's support phases, by its fighter only;
    勝利宣言 is not a combat support action (5.7, l.1132–1133)."""
    table, fighters = three_on_a_square(client)
    start(table, fighters)
    order = combat(table)["order"]
    actor, other = current_actor(table), f"seat:{order[1]}"
    _refused(table, actor, cmd("open_sheet"), "wrong_phase")  # the check phase
    table.do(actor, cmd("combat_next"))
    _refused(table, other, cmd("open_sheet"), "not_your_combat_turn")
    # no 勝利宣言 or パーティーの解散 while a combat runs, with the reason (not "not your turn")
    _refused(table, actor, cmd("declare_victory"), "combat_running")
    _refused(table, actor, cmd("dissolve_party"), "combat_running")
    if view(table, actor)["me"]["faction"] != "S":
        table.do(actor, cmd("convert", target=order[1], declared=0))
        _refused(table, actor, cmd("convert", target=order[1], declared=0), "converted_this_turn")
    else:
        table.do(actor, cmd("open_sheet"))
    opened = next(p for p in view(table, "public")["players"] if p["seat"] == order[0])
    assert opened["sheet_open"]
    table.do(actor, cmd("combat_next"))
    _refused(table, actor, cmd("open_sheet"), "wrong_phase")  # the main phase
    table.do(actor, cmd("combat_pass"))
    table.do(actor, cmd("combat_next"))
    _refused(table, actor, cmd("open_sheet"), "sheet_open")  # support2, already open


def test_joining_a_combat_ends_bound_and_arrested(client: TestClient) -> None:
    """4.4 (l.703–704, l.712–713): 拘束 and 逮捕 end when the character takes part in a combat."""
    table, fighters = three_on_a_square(client)
    starter = to_combat_phase(table, fighters)
    held = [s for s in fighters if f"seat:{s}" != starter]
    table.do("gm", cmd("set_condition", seat=held[0], condition="bound", reason="test"))
    table.do("gm", cmd("set_condition", seat=held[1], condition="arrested", reason="test"))
    table.do(starter, cmd("start_combat"))
    started = next(e for e in table.events("public") if e["type"] == "chojin_locke.CombatStarted")
    assert started["public"]["released"] == sorted(held)
    conditions = {p["seat"]: p["condition"] for p in view(table, "public")["players"]}
    assert [conditions[s] for s in held] == ["normal", "normal"]
    assert [f["id"] for f in combat(table)["fighters"]] == sorted(fighters)


def test_an_obstacle_is_one_fighter_played_by_the_host(client: TestClient) -> None:
    """6.2 (l.1290–1299): an obstacle of several members is one participant: one initiative
    card, one combat turn a round, its members' endurance kept apart; the host plays it."""
    table, fighters = three_on_a_square(client)
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    _refused(
        table,
        starter,
        {**cmd("add_obstacle"), "name": "警官隊", "members": [1, 1], "firepower": 2},
        "gm_only",
    )
    table.do(
        "gm",
        {
            **cmd("add_obstacle"),
            "name": "警官隊",
            "members": [1, 1, 1],
            "firepower": 3,
            "jammer": True,
            "jammer_lv": 3,
        },
    )
    for _ in range(3):
        table.do(starter, cmd("combat_next"))
    fight = combat(table, "public")
    police = next(f for f in fight["fighters"] if f["id"] == 101)
    assert (police["kind"], police["members"], police["firepower"], police["jammer"]) == (
        "obstacle",
        [1, 1, 1],
        3,
        True,
    )
    assert police["hand"] == 0 and police["initiative"] is not None
    assert sorted(fight["order"]) == sorted([*fighters, 101])
    for _ in range(4):
        current = combat(table)["current"]
        if current == 101:
            _refused(table, starter, cmd("combat_next"), "not_your_combat_turn")
            for body in ("combat_next", "combat_next", "combat_pass", "combat_next", "combat_next"):
                table.do("gm", cmd(body))
        else:
            play_turn(table)
    assert view(table, "gm")["combat"] is None  # no attack: over after one round
