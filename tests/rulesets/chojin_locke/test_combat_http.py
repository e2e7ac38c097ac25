"""A three-fighter combat over HTTP: hands dealt and discarded face down, passes, the round end
without an attack, then a second combat on a later turn from a rebuilt deck. Every seat's view
is asserted, and no card of one seat's hand reaches another seat's (or the public's) bytes.

The deck is 60 unique marker names (combat_table.combat_catalog), so a name in any byte an
audience receives means that card was shown to it.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.combat_table import (
    combat,
    current_actor,
    hand,
    start,
    three_on_a_square,
    to_combat_phase,
)
from tests.rulesets.chojin_locke.table import cmd, seen, view
from tests.table import Table

VIEWERS = ("public", "gm", *(f"seat:{n}" for n in range(1, 7)))


def _held(table: Table, seat: int) -> set[str]:
    """Every C-card `seat` ever drew, read from its own events' sealed bodies."""
    cards: set[str] = set()
    for event in table.events(f"seat:{seat}"):
        drawn = event["type"] == "chojin_locke.CombatCardsDrawn" and event["secret"] is not None
        if drawn and event["public"]["fighter"] == seat:
            cards |= set(event["secret"]["cards"])
    return cards


def _assert_sealed(table: Table, fighters: list[int], received: dict[str, bytes]) -> None:
    held = {seat: _held(table, seat) for seat in fighters}
    assert all(held.values())
    for viewer in VIEWERS:
        data = received.get(viewer, b"") + seen(table, viewer)
        for owner, cards in held.items():
            for card in cards:
                # a card the viewer held itself (the deck is rebuilt for each combat) it knows
                own = viewer.startswith("seat:") and card in held.get(int(viewer[5:]), set())
                visible = viewer in (f"seat:{owner}", "gm") or own
                assert (card.encode() in data) == visible, (viewer, owner, card)


def _do(table: Table, received: dict[str, bytes], actor: str, body: dict[str, Any]) -> None:
    response = table.send(actor, body)
    assert response.status_code == 201, response.text
    received[actor] = received.get(actor, b"") + response.content


def _turn(table: Table, received: dict[str, bytes], discard: bool) -> str:
    actor = current_actor(table)
    seat = int(actor[5:])
    _do(table, received, actor, cmd("combat_next"))
    _do(table, received, actor, cmd("combat_next"))
    if discard:
        card = hand(table, seat)[-1]
        _do(table, received, actor, cmd("discard_card", card=card))
        assert card not in hand(table, seat)
    else:
        _do(table, received, actor, cmd("combat_pass"))
    _do(table, received, actor, cmd("combat_next"))
    _do(table, received, actor, cmd("combat_next"))
    return actor


def test_a_three_fighter_combat_keeps_each_hand_to_its_seat(client: TestClient) -> None:
    table, fighters = three_on_a_square(client)
    received: dict[str, bytes] = {}
    starter = start(table, fighters)
    fight = combat(table, "public")
    order = fight["order"]
    assert sorted(order) == sorted(fighters) and fight["deck"] == 60 - 21
    # each seat sees its own seven cards and the others' counts; the public none
    for seat in fighters:
        mine = view(table, f"seat:{seat}")
        assert len(mine["me"]["combat_hand"]) == 7
        assert [f["hand"] for f in mine["combat"]["fighters"]] == [7, 7, 7]
    for other in (s for s in range(1, 7) if s not in fighters):
        assert view(table, f"seat:{other}")["me"]["combat_hand"] == []
    gm = view(table, "gm")["secrets"]
    assert all(len(gm[str(s)]["combat_hand"]) == 7 for s in fighters)
    first_hands = {c for s in fighters for c in hand(table, s)}
    # round 1: the first two discard face down, the third passes
    for index in range(3):
        _turn(table, received, discard=index < 2)
        if index < 2:
            public = combat(table, "public")
            assert public["discard"] == [None] * (index + 1)
            counts = {f["id"]: f["hand"] for f in public["fighters"]}
            assert counts[order[index]] == 6
    # no attack: the combat is over, its cards collected; the starter's turn is over too
    state = view(table, "gm")
    assert state["combat"] is None
    assert state["turn"]["seat"] != int(starter[5:]) or state["turn"]["number"] > 1
    for seat in fighters:
        assert view(table, f"seat:{seat}")["me"]["combat_hand"] == []
    _assert_sealed(table, fighters, received)
    # a later turn: a second combat from a freshly shuffled, rebuilt deck
    second = to_combat_phase(table, fighters)
    _do(table, received, second, cmd("start_combat"))
    for _ in range(3):
        _do(table, received, second, cmd("combat_next"))
    assert combat(table, "public")["deck"] == 60 - 21
    shuffles = [e for e in table.events("gm") if e["type"] == "chojin_locke.CombatDeckShuffled"]
    assert len(shuffles) == 2 and all(e["secret"] is None for e in shuffles)  # sealed to nobody
    assert all(len(hand(table, seat)) == 7 for seat in fighters)
    assert {c for s in fighters for c in hand(table, s)} != first_hands  # a fresh shuffle
    for event in table.events("public"):
        if event["type"] in ("chojin_locke.CombatDeckShuffled", "chojin_locke.CombatCardsDrawn"):
            assert event["secret"] is None
    _turn(table, received, discard=True)
    _assert_sealed(table, fighters, received)
