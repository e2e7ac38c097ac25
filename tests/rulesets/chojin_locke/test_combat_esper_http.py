"""An エスパー NPC through the app: the host brings it in, it draws a hand sealed to nobody — no
byte any seat or the public receives names a card in it until it plays one —, the host walks its
turn and `esper_act` plays its best attack card at a random target, answered like any attack
(6.2 l.1320–1332, rulings CL-085–CL-086)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.application.service import GameService
from domain.model.lifecycle_events import GameCreated
from domain.rulesets.chojin_locke.combat.flow_events import CombatCardsDrawn
from tests.rulesets.chojin_locke.combat_table import (
    combat,
    play_turn,
    three_on_a_square,
    to_combat_phase,
)
from tests.rulesets.chojin_locke.table import LOOP_BOUND, cmd, seen
from tests.table import Table

ESPER = 101


def _esper_hand(table: Table, service: GameService) -> list[str]:
    """The esper's cards as the server's store holds them: sealed to nobody, so no one's log
    (not even the GM's) shows them."""
    for e in table.events("gm"):
        if e["type"] == "chojin_locke.CombatCardsDrawn" and e["public"]["fighter"] == ESPER:
            assert e["sealed"]["audience"] == [] and e["secret"] is None, e
    cards: list[str] = []
    for record in service.records(table.game_id):
        event = record.event
        if isinstance(event, CombatCardsDrawn) and event.fighter == ESPER:
            assert event.secret is not None
            cards += event.secret.cards
    return cards


def _no_leak(table: Table, viewers: list[str], cards: list[str]) -> None:
    for viewer in viewers:
        data = seen(table, viewer)
        for card in cards:
            assert card.encode() not in data, (viewer, card)


def test_an_esper_npc_draws_in_secret_and_the_host_plays_its_best_attack(
    client: TestClient, service: GameService
) -> None:
    table, fighters = three_on_a_square(client)
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    body: dict[str, Any] = {**cmd("add_esper"), "name": "エスパー", "esp_level": 6, "endurance": 5}
    response = table.send(starter, body)
    assert response.status_code == 403 and response.json()["code"] == "gm_only"
    table.do("gm", body)
    for _ in range(3):
        table.do(starter, cmd("combat_next"))
    esper = next(f for f in combat(table, "public")["fighters"] if f["id"] == ESPER)
    assert (esper["kind"], esper["hand"], esper["members"], esper["esp_level"]) == (
        "esper",
        7,
        [5],
        6,
    )
    hand = _esper_hand(table, service)
    assert len(hand) == 7
    viewers = ["gm", "public", *(f"seat:{n}" for n in range(1, 7))]
    _no_leak(table, viewers, hand)
    for _ in range(LOOP_BOUND):
        if combat(table)["current"] == ESPER:
            break
        play_turn(table)
    else:
        raise AssertionError("never the esper's turn")
    response = table.send(starter, cmd("esper_act"))
    assert response.status_code == 403
    table.do("gm", cmd("combat_next"))
    table.do("gm", cmd("combat_next"))
    table.do("gm", cmd("esper_act", target="random"))
    events = table.events("public")
    (chosen,) = [e for e in events if e["type"] == "chojin_locke.NpcTargetChosen"]
    assert chosen["public"]["candidates"] == sorted(fighters)
    assert chosen["public"]["roll"]["expression"] == "1D3"
    used = [e for e in events if e["type"] == "chojin_locke.CardActivated"][-1]["public"]
    # the catalog's cards are all 攻撃 with firepower 4: the highest LV in its hand goes first
    lv = {c["name"]: c["lv"] for c in table_catalog(table, service)}
    assert used["fighter"] == ESPER and used["card"] in hand
    assert lv[used["card"]] == max(lv[c] for c in hand)
    attack = combat(table, "public")["attack"]
    assert (attack["attacker"], attack["target"]) == (ESPER, chosen["public"]["target"])
    target = f"seat:{attack['target']}"
    table.do(target, cmd("respond"))
    table.do(target, cmd("declare_endurance", endurance=1))
    _no_leak(table, viewers, [c for c in hand if c != used["card"]])


def table_catalog(table: Table, service: GameService) -> list[dict[str, Any]]:
    """The game's C-cards, from its GameCreated."""
    created = next(iter(service.records(table.game_id))).event
    assert isinstance(created, GameCreated)
    cards: list[dict[str, Any]] = created.ruleset_options["catalog"]["combat_cards"]
    return cards
