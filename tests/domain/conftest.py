"""The write path's tests: a fresh store of either kind, services ("processes") over it, games."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from domain.adapters.repository import fold_one
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService, NewGame
from domain.application.settings import store_env
from domain.model.commands import Start
from domain.model.game import GameState
from domain.model.lifecycle_events import GameOptions
from domain.model.verification import verify_chain

Services = Callable[[], GameService]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """The settings of a fresh store: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        return store_env(sqlite_path=str(tmp_path / "kiroku.db"))
    return store_env(database_url=request.getfixturevalue("postgres_url"))


@pytest.fixture
def services(any_store: dict[str, str]) -> Iterator[Services]:
    """Makes services on the store, each with its own cache and writer; all closed after."""
    made: list[GameService] = []

    def make() -> GameService:
        made.append(bootstrap(env=any_store))
        return made[-1]

    yield make
    for service in made:
        service.close()


def new_game(service: GameService, seats: int = 1, start: bool = True) -> tuple[str, list[str]]:
    """A freeform game, every seat joined (their actors), started unless asked not to be."""
    names = [f"P{n}" for n in range(1, seats + 1)]
    created = service.create_game(NewGame("freeform", "Paths", names, GameOptions(), {}))
    game_id = created.game_id
    actors = [f"seat:{service.join(game_id, s.invite, f'seed-{s.seat}')[0]}" for s in created.seats]
    if start:
        service.execute(game_id, "gm", Start())
    return game_id, actors


def folded(service: GameService, game_id: str, upto: int | None = None) -> GameState:
    """The state folded from the stored events (no cache, no snapshot)."""
    state: GameState | None = None
    for recorded in service.records(game_id, upto=upto):
        state = fold_one(state, recorded)
    assert state is not None
    return state


def checked_log(service: GameService, game_id: str) -> GameState:
    """The game's log has seqs 1..n, its chain verifies and folds to the service's state."""
    stored = list(service.records(game_id))
    assert [r.seq for r in stored] == list(range(1, len(stored) + 1))
    assert verify_chain(game_id, [r.envelope.model_dump(mode="json") for r in stored]).ok
    state = folded(service, game_id)
    assert state == service.state(game_id)
    return state
