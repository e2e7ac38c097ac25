"""The battle map as state and events (grid.py, routes.py): a grid or none per encounter,
units placed and moved as events, a hidden NPC's square sealed to the GM until revealed."""

from __future__ import annotations

import json
import re
from typing import Any

from domain.model import lifecycle
from domain.model.commands import Reveal
from domain.model.logline import describe
from domain.model.redaction import Disclosure, redact
from domain.rulesets.mech_d20 import MECH_D20

from .harness import Game

HASH = re.compile(r"[0-9a-f]{64}")
GRID = {
    "width": 10,
    "height": 8,
    "blocking": [[4, 0], [4, 1], [4, 2]],
    "difficult": [[2, 5], [3, 5]],
    "hazardous": [[9, 7]],
}


def mapped(**grid: Any) -> Game:
    game = Game()
    game.add("aki")
    game.add("ben", owner="seat:2")
    game.add("boss", kind="npc")
    game.do("gm", "set_map", grid={**GRID, **grid})
    return game


def test_a_map_is_set_between_encounters_and_units_are_placed_on_it() -> None:
    game = mapped()
    assert game.rules.grid is not None and game.rules.grid.width == 10
    game.do("seat:1", "place_unit", unit="aki", x=0, y=0)
    game.refused("seat:1", "place_unit", "not_your_unit", unit="ben", x=1, y=0)
    game.refused("gm", "place_unit", "square_occupied", unit="ben", x=0, y=0)
    game.refused("gm", "place_unit", "blocked_square", unit="ben", x=4, y=1)
    game.refused("gm", "place_unit", "off_the_map", unit="ben", x=10, y=0)
    game.do("gm", "place_unit", unit="boss", x=7, y=3)
    assert game.unit("boss").position is not None
    game.begin({"aki": 15, "boss": 5})
    game.refused("gm", "set_map", "encounter_in_progress", grid=GRID)
    game.refused("seat:2", "place_unit", "encounter_in_progress", unit="ben", x=1, y=1)


def test_a_big_unit_covers_two_by_two_squares() -> None:
    game = mapped()
    game.add("titan", kind="npc", size="L")
    game.do("gm", "place_unit", unit="titan", x=5, y=5)
    for x, y in ((5, 5), (6, 5), (5, 6), (6, 6)):
        game.refused("seat:1", "place_unit", "square_occupied", unit="aki", x=x, y=y)
    game.refused("gm", "place_unit", "off_the_map", unit="titan", x=9, y=0)
    game.do("seat:1", "place_unit", unit="aki", x=7, y=7)


def test_without_a_map_positions_stay_declared() -> None:
    game = Game()
    game.add("aki")
    game.refused("seat:1", "place_unit", "no_map", unit="aki", x=0, y=0)
    game.add("boss", kind="npc")
    game.begin({"aki": 15, "boss": 5})
    game.do("seat:1", "start_turn")
    game.do("seat:1", "move", unit="aki", text="北へ5マス")  # the table's word, as before


def hidden_game(x: int, y: int) -> Game:
    game = mapped()
    game.do("seat:1", "place_unit", unit="aki", x=0, y=0)
    game.do("gm", "place_unit", unit="boss", x=x, y=y, hidden=True)
    return game


def seen(game: Game, since: int, audiences: tuple[str, ...] = ("public", "seat:1")) -> list[str]:
    out = []
    disclosure = Disclosure.of(game.state)
    for audience in audiences:
        for recorded in game.records[since:]:
            event = redact(recorded, audience, disclosure)
            line = describe(event, audience, {1: "P1", 2: "P2", 3: "P3"}, MECH_D20.describe)
            out.append(json.dumps([event, line.model_dump(mode="json")], ensure_ascii=False))
        out.append(json.dumps(MECH_D20.view(game.state, audience), ensure_ascii=False))
    return [HASH.sub("H", text) for text in out]


def play_hidden(x: int, y: int, steps: list[tuple[int, int]]) -> tuple[Game, list[str]]:
    """The boss hidden at (x, y), moved by the GM; アキ moves in the open every round."""
    game = hidden_game(x, y)
    trace = seen(game, 0)
    game.begin({"aki": 15, "boss": 5})
    for to in steps:
        before = len(game.records)
        game.do("seat:1", "start_turn")
        game.do("seat:1", "move", unit="aki", kind="シフト", to=[1, 1])
        game.do("seat:1", "move", unit="aki", kind="シフト", to=[0, 0])
        game.do("seat:1", "end_turn")
        game.do("gm", "start_turn")
        game.do("gm", "move", unit="boss", to=list(to))
        game.do("gm", "end_turn")
        trace += seen(game, before)
    return game, trace


def test_a_hidden_unit_s_square_reaches_no_seat_byte_for_byte() -> None:
    one, first = play_hidden(7, 3, [(8, 4), (8, 6)])
    two, second = play_hidden(6, 6, [(7, 7), (5, 7)])
    assert first == second
    assert one.unit("boss").position != two.unit("boss").position
    gm_one = MECH_D20.view(one.state, "gm")["units"]["boss"]["position"]
    assert gm_one == {"x": 8, "y": 6, "altitude": 0}
    assert "position" not in MECH_D20.view(one.state, "seat:1")["units"]["boss"]


def test_revealing_the_latest_square_shows_it_to_everyone() -> None:
    game, _ = play_hidden(7, 3, [(8, 4)])
    last = max(r.seq for r in game.records if r.envelope.type == "mech_d20.Moved")
    game.apply(lifecycle.decide(game.state, Reveal(seq=last), "gm"), "gm")
    assert not game.unit("boss").hidden
    seat = MECH_D20.view(game.state, "seat:1")["units"]["boss"]
    assert seat["position"] == {"x": 8, "y": 4, "altitude": 0}


def test_a_seat_s_path_is_found_without_the_hidden_unit_and_refused_by_it() -> None:
    game = hidden_game(2, 0)
    game.begin({"aki": 15, "boss": 5})
    game.do("seat:1", "start_turn")
    moves = MECH_D20.view(game.state, "seat:1")["encounter"]["moves"]
    assert [2, 0] in moves["通常移動"]  # the seat does not know the boss stands there
    assert [2, 0] not in MECH_D20.view(game.state, "gm")["encounter"]["moves"]["通常移動"]
    game.refused("seat:1", "move", "square_occupied", unit="aki", to=[2, 0])
