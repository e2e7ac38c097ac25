"""The ruleset's state survives a snapshot's JSON round trip (int-keyed maps included)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from domain.application.bootstrap import bootstrap
from domain.application.service import GameService
from domain.model.lifecycle import restore_state
from tests.rulesets.chojin_locke.table import (
    cmd,
    end_turn,
    free_turn,
    new_game,
    to_phase,
    to_planets,
)


def test_state_round_trips_through_json(client: TestClient, service: GameService) -> None:
    table = new_game(client)
    to_planets(table)
    free_turn(table)
    actor = to_phase(table, "main")
    table.do(actor, cmd("move", direction="right"))
    state = service.state(table.game_id)
    restored = restore_state(state.model_dump(mode="json"))
    assert restored.rules == state.rules
    assert restored == state


def test_a_fresh_service_reads_the_same_game(
    client: TestClient, service: GameService, sqlite_env: dict[str, str]
) -> None:
    table = new_game(client)
    to_planets(table)
    for _ in range(20):  # past a snapshot (every 100 events)
        actor = to_phase(table, "main")
        table.do(actor, cmd("check", stat="endurance", declared=1))
        end_turn(table)
    assert service.state(table.game_id).version > 100
    fresh = bootstrap(env=sqlite_env)
    try:
        assert fresh.state(table.game_id).rules == service.state(table.game_id).rules
    finally:
        fresh.close()
