"""Ability cards at 惑星編's end: drawn from a sealed shuffle, each sealed to its holder, used
in their timing."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    cmd,
    info_catalog,
    me,
    new_game,
    seats,
    to_base,
    until_turn_of,
    view,
)

ROLE_OF_CARD = {"謎の特殊能力": "combat", "ランダムテレポート": "main", "テレパシー": "support"}
PHASE_ROLE = {"support1": "support", "support2": "support", "main": "main"}


def test_holder_draws_a_sealed_ability_card_and_uses_it_in_its_timing(
    client: TestClient,
) -> None:
    catalog = info_catalog()
    catalog["planet_cards"] = [
        {"name": "情報入手", "kind": "info", "count": 30, "text": ""},
        {"name": "白紙", "kind": "blank", "count": 6, "text": ""},
    ]
    table = new_game(client, ruleset_options={"catalog": catalog})
    bases, _entrants, _outside = to_base(table)

    events = table.events("public")
    flipped = [e for e in events if e["type"] == "chojin_locke.PlanetCardsFlipped"]
    assert [e["public"]["seat"] for e in flipped] == sorted(bases)
    public = {p["seat"]: p for p in view(table, "public")["players"]}
    holders = []
    for actor in seats(table):
        seat = int(actor[5:])
        hand = me(table, actor)["ability_cards"]
        assert len(hand) == public[seat]["ability_cards"]
        expected = sum(e["public"]["gains"] for e in flipped if e["public"]["seat"] == seat)
        if public[seat]["side"] == "explorer" and public[seat]["information"] >= 3:
            expected += 1
        assert len(hand) == expected, actor
        if hand:
            holders.append(seat)
    for viewer in ("public", *seats(table)):
        for event in table.events(viewer):
            if event["type"] == "chojin_locke.AbilityCardDrawn" and event["secret"]:
                assert viewer == f"seat:{event['public']['seat']}"

    assert holders
    actor = until_turn_of(table, *holders)
    card = me(table, actor)["ability_cards"][0]
    other = next(s for s in seats(table) if s != actor)
    assert table.send(other, cmd("use_ability_card", card=card)).status_code == 409
    wanted = ROLE_OF_CARD[card]
    if wanted == "combat":
        response = table.send(actor, cmd("use_ability_card", card=card))
        assert response.json()["code"] == "combat_only"
        return
    for _ in range(6):
        phase = view(table, "gm")["turn"]["phase"]
        held = me(table, actor)["ability_cards"].count(card)
        response = table.send(actor, cmd("use_ability_card", card=card))
        if PHASE_ROLE.get(phase) == wanted:
            assert response.status_code == 201, response.text
            assert me(table, actor)["ability_cards"].count(card) == held  # kept, face up
            return
        assert response.json()["code"] == "wrong_phase", response.text
        turn = view(table, "gm")["turn"]
        if turn["phase"] == "main" and turn["main"] is None:
            table.do(actor, cmd("pass"))
        table.do(actor, cmd("next_phase"))
        if view(table, "gm")["turn"]["seat"] != int(actor[5:]):
            return  # its phases were skipped (on a face-down base card)
