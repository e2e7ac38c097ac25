"""4.6 l.790–793 over HTTP: the best-informed explorers place their pieces once every
重要拠点 is placed (「重要拠点の配置が終わったら」), 「惑星編で最後にターンプレイヤーだった
プレイヤーの次のプレイヤーから反時計回りの順番で」. A 惑星編 of blank planet cards ends with
every explorer at 0 情報入手, so all of them enter: from each seat's own token, out of order or
too early is refused (problem+json, nothing appended), in a GM game and in a host game."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from domain.rulesets.chojin_locke.catalog import sample
from tests.rulesets.chojin_locke.table import (
    KEYS,
    LOOP_BOUND,
    cmd,
    finish_turn,
    hide_and_enter,
    new_game,
    setup_to_ambush,
    turn_actor,
    view,
)
from tests.rulesets.chojin_locke.test_combat_walk_http import refused
from tests.table import Table


def _blank_catalog() -> dict[str, Any]:
    data = sample().model_dump(mode="json")
    data["planet_cards"] = [
        {"name": "白紙", "kind": "blank", "count": 36, "text": "何も起こらない。"}
    ]
    return data


def _explore_every_planet(table: Table) -> list[int]:
    """The 待ち伏せ hidden and every explorer at planet 0's spaceport (`hide_and_enter`), play
    惑星編 until no face-down card is left: each explorer turns its planet's cards moving right,
    then goes from a spaceport to a planet still face down (4.5 l.758); the base seats."""
    setup_to_ambush(table)
    players = view(table, "public")["players"]
    bases = [p["seat"] for p in players if p["side"] == "base"]
    hide_and_enter(table)
    for _ in range(LOOP_BOUND):
        public = view(table, "public")
        if public["stage"] != "planet":
            return bases
        actor = turn_actor(table)
        where = next(p for p in public["players"] if f"seat:{p['seat']}" == actor)["position"]
        left = {int(square.split(":")[0]) for square in public["board"]["face_down_squares"]}
        main = cmd("move", direction="right")
        if where["planet"] not in left and where["square"] == 0 and left:
            main = cmd("move", planet=min(left))
        finish_turn(table, actor, main)
    raise AssertionError(f"惑星編 still running after {LOOP_BOUND} turns")


@pytest.mark.parametrize("referee", ["gm", "host"])
def test_explorers_enter_the_base_in_the_seeds_order(client: TestClient, referee: str) -> None:
    table = new_game(client, referee=referee, ruleset_options={"catalog": _blank_catalog()})
    bases = _explore_every_planet(table)
    public = view(table, "public")
    assert public["stage"] == "keys"
    living = [
        p["seat"] for p in public["players"] if p["side"] == "explorer" and p["condition"] != "dead"
    ]
    assert len(living) >= 2, public["players"]  # a tie at 0 情報入手: all of them enter
    seats = sorted(p["seat"] for p in public["players"])
    last = public["turn"]["seat"]  # the last 惑星編 turn player
    after = seats[seats.index(last) + 1 :] + seats[: seats.index(last) + 1]
    expected = [s for s in after if s in living]
    assert public["entry_order"] == expected

    first, second = expected[0], expected[1]
    early = cmd("enter_base", row=0, col=0)
    refused(table, f"seat:{first}", early, "keys_missing")
    for index, (row, col) in enumerate(KEYS):
        table.do(f"seat:{bases[index % len(bases)]}", cmd("place_key", row=row, col=col))
    refused(table, f"seat:{second}", cmd("enter_base", row=0, col=1), "not_your_entry")
    table.do(f"seat:{first}", cmd("enter_base", row=0, col=0))
    assert view(table, "public")["entry_order"] == expected[1:]
    refused(table, f"seat:{first}", cmd("enter_base", row=0, col=2), "already_entered")
    for seat in expected[1:]:
        table.do(f"seat:{seat}", cmd("enter_base", row=5, col=seat % 6))
    table.do(table.creator, cmd("begin_base"))
    assert view(table, "public")["entry_order"] == []
    cells = {p["seat"]: p["cell"] for p in view(table, "public")["players"]}
    assert cells[first] == {"row": 0, "col": 0}
    assert all(cells[s] is not None for s in expected)
