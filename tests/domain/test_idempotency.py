"""Idempotency-Keys are remembered durably, per game and caller, on SQLite and PostgreSQL.

A retry at any later time — after hundreds of other keyed commands, from any seat, after a
restart, through another worker — returns the first result and appends nothing; a key reused
for another command is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from domain.application.bootstrap import bootstrap
from domain.application.service import GameService, NewGame
from domain.application.settings import store_env
from domain.model.commands import Declare, Roll, Start
from domain.model.errors import KirokuError
from domain.model.lifecycle_events import GameOptions

OTHERS = 300  # more than the 256 keys the state used to remember


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def env(request: pytest.FixtureRequest, sqlite_env: dict[str, str]) -> dict[str, str]:
    if request.param == "sqlite":
        return sqlite_env
    return store_env(database_url=request.getfixturevalue("postgres_url"))


@pytest.fixture
def service(env: dict[str, str]) -> Iterator[GameService]:
    svc = bootstrap(env=env)
    yield svc
    svc.close()


def started(service: GameService, seats: int = 2) -> str:
    names = [f"P{n}" for n in range(1, seats + 1)]
    game = service.create_game(NewGame("freeform", "Keys", names, GameOptions(), {}))
    for invite in game.seats:
        service.join(game.game_id, invite.invite, None)
    service.execute(game.game_id, "gm", Start())
    return game.game_id


def test_a_retry_after_hundreds_of_other_keyed_commands_and_a_restart_appends_nothing(
    env: dict[str, str], service: GameService
) -> None:
    game_id = started(service)
    first = service.execute(game_id, "seat:1", Roll(expression="3d6"), "the-first")
    # Every seat, the first one included, sends many keyed commands afterwards.
    for n in range(OTHERS):
        actor = ("seat:1", "seat:2", "gm")[n % 3]
        service.execute(game_id, actor, Declare(text=f"other {n}"), f"other-{n}")
    version = service.state(game_id).version
    assert version == first.last_seq + OTHERS

    again = service.execute(game_id, "seat:1", Roll(expression="3d6"), "the-first")
    assert again.replayed and again.last_seq == first.last_seq
    assert [r.envelope for r in again.records] == [r.envelope for r in first.records]

    restarted = bootstrap(env=env)  # a fresh process: nothing cached
    try:
        after_restart = restarted.execute(game_id, "seat:1", Roll(expression="3d6"), "the-first")
        assert after_restart.replayed
        assert [r.envelope for r in after_restart.records] == [r.envelope for r in first.records]
        with pytest.raises(KirokuError) as reused:
            restarted.execute(game_id, "seat:1", Roll(expression="4d6"), "the-first")
        assert reused.value.code == "idempotency_key_reused"
        assert restarted.state(game_id).version == version
    finally:
        restarted.close()
    assert service.state(game_id).version == version


def test_keys_belong_to_their_caller_and_their_game(service: GameService) -> None:
    game_id, other_game = started(service), started(service)
    mine = service.execute(game_id, "seat:1", Declare(text="same words"), "k")
    theirs = service.execute(game_id, "seat:2", Declare(text="same words"), "k")
    elsewhere = service.execute(other_game, "seat:1", Declare(text="same words"), "k")
    assert not (mine.replayed or theirs.replayed or elsewhere.replayed)
    assert theirs.last_seq == mine.last_seq + 1
    assert elsewhere.records[0].envelope.game_id == other_game
    # Another seat cannot take over or spoil a key: seat:2's "k" is its own.
    assert service.execute(game_id, "seat:2", Declare(text="same words"), "k").replayed
    assert service.execute(game_id, "seat:1", Declare(text="same words"), "k").replayed
    assert service.state(game_id).version == theirs.last_seq


def test_a_key_raced_by_several_workers_appends_once(env: dict[str, str]) -> None:
    workers = [bootstrap(env=env) for _ in range(3)]
    try:
        game_id = started(workers[0])
        before = workers[0].state(game_id).version

        def send(i: int) -> tuple[bool, int]:
            outcome = workers[i % 3].execute(game_id, "seat:1", Declare(text="once"), "race")
            return outcome.replayed, outcome.last_seq

        with ThreadPoolExecutor(max_workers=6) as pool:
            results = list(pool.map(send, range(12)))
        assert sorted(replayed for replayed, _ in results) == [False] + [True] * 11
        assert {seq for _, seq in results} == {before + 1}
        assert workers[1].state(game_id).version == before + 1
    finally:
        for worker in workers:
            worker.close()
