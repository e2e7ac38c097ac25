"""Stored states carry the key of the code that folded them: a snapshot or a projection state
stored under another key is dropped and the game folded again from its events.

Each test plants a stored state whose content is wrong on purpose: under the current key it
is used (the control), under another key it must not be.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.adapters.snapshots import SNAPSHOT_INTERVAL
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService, NewGame
from domain.model import lifecycle
from domain.model.commands import Start
from domain.model.game import GameState
from domain.model.lifecycle_events import GameOptions
from domain.rulesets.freeform import AdvancePhase
from projections.runner import ViewRunner
from projections.store import open_view_store
from projections.views import PROJECTION_STATE, ProjectionState, projection_key

WRONG = "a title the game never had"


def _tampered(state: GameState) -> dict[str, Any]:
    return {**state.model_dump(mode="json"), "title": WRONG}


def _long_game(env: dict[str, str], snapshot_key: str | None) -> tuple[str, GameState]:
    """A game past one snapshot, whose snapshot holds a wrong phase under `snapshot_key`
    (None: the current key)."""
    writer = bootstrap(env=env)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            lifecycle,
            "snapshot_of",
            lambda s: {"schema": snapshot_key or lifecycle.state_key(s.ruleset), **_tampered(s)},
        )
        game = writer.create_game(NewGame("freeform", "Long", ["Aki"], GameOptions(), {}))
        writer.execute(game.game_id, "gm", Start())
        for n in range(SNAPSHOT_INTERVAL + 5):
            writer.execute(game.game_id, "gm", AdvancePhase(phase=f"phase {n}"))
        writer.games.snapshots.flush()  # written on their own thread, under the patch
    expected = writer.state(game.game_id)
    writer.close()
    return game.game_id, expected


def test_a_snapshot_under_the_current_key_is_used(sqlite_env: dict[str, str]) -> None:
    game_id, expected = _long_game(sqlite_env, snapshot_key=None)
    reader = bootstrap(env=sqlite_env)
    assert reader.state(game_id).title == WRONG  # the planted snapshot
    assert expected.title == "Long"
    reader.close()


def test_a_snapshot_from_older_code_is_dropped_and_the_game_folded_again(
    sqlite_env: dict[str, str],
) -> None:
    game_id, expected = _long_game(sqlite_env, snapshot_key="an older schema")
    reader = bootstrap(env=sqlite_env)
    assert reader.state(game_id) == expected
    reader.close()


def _plant_projection(runner: ViewRunner, game_id: str, raw: str) -> None:
    state = runner.store.state(game_id)
    assert state is not None
    runner.store.save([], [(game_id, json.loads(state)["state"]["game"]["version"], raw)], None)


def _tampered_projection(runner: ViewRunner, game_id: str) -> ProjectionState:
    stored = json.loads(runner.store.state(game_id) or "")["state"]
    stored["game"]["title"] = WRONG
    game = lifecycle.restore_state(stored.pop("game"))
    return PROJECTION_STATE.validate_python({**stored, "game": game})


@pytest.mark.parametrize("current_key", [True, False])
def test_a_projection_state_from_older_code_is_folded_again(
    service: GameService, current_key: bool
) -> None:
    game = service.create_game(NewGame("freeform", "Views", ["Aki"], GameOptions(), {}))
    service.execute(game.game_id, "gm", Start())
    service.execute(game.game_id, "gm", AdvancePhase(phase="Dawn"))
    runner = ViewRunner(service.log, open_view_store(service.env))
    runner.catch_up()
    planted = _tampered_projection(runner, game.game_id)
    body = PROJECTION_STATE.dump_json(planted).decode()
    if current_key:
        raw = json.dumps({"schema": projection_key("freeform"), "state": json.loads(body)})
    else:
        raw = body  # the form stored before projection states had keys
    _plant_projection(runner, game.game_id, raw)

    service.execute(game.game_id, "gm", AdvancePhase(phase="Dusk"))
    fresh = ViewRunner(service.log, runner.store)  # a new worker: nothing held in memory
    fresh.catch_up()
    view = fresh.view(game.game_id, "public")
    assert view.rules == {"phase": "Dusk", "phase_number": 2}
    assert view.title == (WRONG if current_key else "Views")
