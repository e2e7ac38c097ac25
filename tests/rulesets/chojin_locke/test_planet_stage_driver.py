"""The test driver's 惑星編 (`play_planet_stage`) always ends, whatever the deal and the layout:
tests that reach 秘密基地編 through it (test_secrecy's property test among them) must never hang
on a layout where the explorers' own planets hold too few 情報入手 (4.5 lines 761–764: the stage
ends only when no face-down card is left, or someone holds 3 情報入手)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.rulesets.chojin_locke.table import (
    info_catalog,
    new_game,
    planet_stage_bound,
    play_planet_stage,
    view,
)


def test_the_planet_stage_ends_when_no_explorer_can_hold_three_informations(
    client: TestClient,
) -> None:
    """Two 情報入手 in the whole deck: nobody reaches 3, so the stage ends only once every
    card on every planet is turned — the planets nobody starts on included, which moving right
    round one's own planet never reaches (and the 24 cards of a 6-player game never all fit on
    the explorers' own planets)."""
    catalog = info_catalog()
    catalog["planet_cards"] = [
        {"name": "情報入手", "kind": "info", "count": 2, "text": "このカードを得る。"},
        {"name": "白紙", "kind": "blank", "count": 34, "text": "何も起こらない。"},
    ]
    table = new_game(client, ruleset_options={"catalog": catalog})
    _bases, explorers = play_planet_stage(table)
    ended = [e for e in table.events("public") if e["type"] == "chojin_locke.PlanetStageEnded"]
    assert [e["public"]["reason"] for e in ended] == ["no_cards"]
    turns = view(table, table.creator)["turn"]["number"]
    assert turns <= planet_stage_bound(len(explorers)), turns
