"""4.2's quiet ending: an Evil victory declarer who survives 1000 turns without moving."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.application.service import GameService
from domain.model.game import GameState
from domain.rulesets.chojin_locke.actions import Pass, Recover
from domain.rulesets.chojin_locke.phases import role
from domain.rulesets.chojin_locke.turn import NextPhase
from tests.rulesets.chojin_locke.table import (
    base_game,
    cmd,
    info_catalog,
    me,
    new_game,
    quiet_turn,
    seats,
    to_base,
    to_phase,
    turn_actor,
    view,
)
from tests.table import Table


def _declare_and_object(table: Table) -> int:
    """An Evil character declares victory in its support phase and someone objects."""
    evil = [a for a in seats(table) if me(table, a)["faction"] == "E"]
    while turn_actor(table) not in evil:
        quiet_turn(table)
    actor = turn_actor(table)
    to_phase(table, "support1")
    table.do(actor, cmd("declare_victory"))
    objector = view(table, "public")["victory"]["waiting"][0]
    table.do(f"seat:{objector}", cmd("answer_victory", objects=True))
    return int(actor[5:])


def _assert_good_lost_to_the_vigil(table: Table, declarer: int, turns: int) -> None:
    public = view(table, "public")
    assert public["ending"] == {"reason": "vigil", "faction": "E", "seat": declarer}
    for seat, result in public["results"].items():
        vigil_reason = (
            f"(E)の勝利宣言を行ったキャラクターが{turns}ターン生存し、その間1度も移動しなかった"
        )
        assert (vigil_reason in result["reasons"]) == (result["faction"] == "G"), seat
    assert table.client.get(f"/games/{table.game_id}/verify").json()["ok"] is True


def test_a_move_restarts_the_count_and_standing_still_ends_the_game(client: TestClient) -> None:
    options = {"catalog": info_catalog(), "evil_vigil_turns": 8}
    table, _ = base_game(client, ruleset_options=options)
    declarer = _declare_and_object(table)
    actor = f"seat:{declarer}"
    assert view(table, "seat:1")["vigil"] == {"turns": 8, "declarers": {str(declarer): 0}}
    quiet_turn(table)  # the rest of the declaration turn does not count
    while turn_actor(table) != actor:
        quiet_turn(table)
    assert view(table, "public")["vigil"]["declarers"] == {str(declarer): 6}
    to_phase(table, "main")
    cell = next(p["cell"] for p in view(table, "public")["players"] if p["seat"] == declarer)
    table.do(actor, cmd("move", direction="up" if cell["row"] > 0 else "down"))
    assert view(table, "public")["vigil"]["declarers"] == {str(declarer): 0}
    quiet_turn(table)
    for counted in range(1, 8):  # the declarer's own quiet turn among them
        quiet_turn(table)
        assert view(table, "public")["ending"] is None
        assert view(table, "public")["vigil"]["declarers"] == {str(declarer): counted + 1}
    quiet_turn(table)  # the eighth unmoved turn ends
    _assert_good_lost_to_the_vigil(table, declarer, 8)


def test_death_ends_the_vigil(client: TestClient) -> None:
    table = new_game(client, ruleset_options={"catalog": info_catalog(), "evil_vigil_turns": 3})
    to_base(table)
    declarer = _declare_and_object(table)
    table.do(
        "gm",
        cmd("set_condition", seat=declarer, condition="dead", reason="combat"),
    )
    assert view(table, "public")["vigil"]["declarers"] == {}
    for _ in range(4):
        quiet_turn(table)
    assert view(table, "public")["ending"] is None


def _quiet_turns(service: GameService, game_id: str, count: int) -> GameState:
    """Play `count` turns straight through the service: every player stays where it is."""
    game = service.state(game_id)
    for _ in range(count):
        start = game.rules.turn.number
        while game.status != "ended" and game.rules.turn.number == start:
            turn = game.rules.turn
            player = game.rules.players[turn.seat]
            command: Any = NextPhase()
            if role(turn.phase) == "main" and turn.main is None:
                command = Recover(stat="endurance") if player.outside else Pass()
            game = service.execute(game_id, f"seat:{turn.seat}", command).state
    return game


def test_the_rules_thousand_turns(client: TestClient) -> None:
    """The rule as written: 1000 turns, played through the real event store."""
    table = new_game(client, ruleset_options={"catalog": info_catalog()})
    to_base(table)
    declarer = _declare_and_object(table)
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    quiet_turn(table)  # the declaration turn
    game = _quiet_turns(service, table.game_id, 999)
    # the 1000th turn has begun: the game ends when it ends, not before
    assert game.status != "ended" and game.rules.vigils == {declarer: 1000}
    game = _quiet_turns(service, table.game_id, 1)
    assert game.status == "ended"
    _assert_good_lost_to_the_vigil(table, declarer, 1000)
