"""Group commit on the real stores: commands queued together are written in one transaction,
and each caller still gets exactly its own outcome — refusals append nothing, keys answer
once, and a batch that loses a race to another process is decided again, command by command.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path

import pytest

from domain.adapters.repository import fold_one
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService, NewGame, Outcome
from domain.application.settings import store_env
from domain.model.commands import Declare, End, Roll, Start
from domain.model.errors import KirokuError
from domain.model.game import GameState
from domain.model.lifecycle_events import GameOptions
from domain.model.verification import verify_chain


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def env(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    if request.param == "sqlite":
        yield store_env(sqlite_path=str(tmp_path / "kiroku.db"))
    else:
        yield store_env(database_url=request.getfixturevalue("postgres_url"))


def _started(service: GameService, seats: int = 1) -> tuple[str, list[str]]:
    names = [f"P{n}" for n in range(1, seats + 1)]
    created = service.create_game(NewGame("freeform", "Batch", names, GameOptions(), {}))
    actors = [f"seat:{service.join(created.game_id, s.invite, None)[0]}" for s in created.seats]
    service.execute(created.game_id, "gm", Start())
    return created.game_id, actors


def _settle(futures: list[Future[Outcome]]) -> list[Outcome | BaseException]:
    results: list[Outcome | BaseException] = []
    for future in futures:
        try:
            results.append(future.result(timeout=60))
        except BaseException as error:
            results.append(error)
    return results


def _check_log(service: GameService, game_id: str) -> GameState:
    stored = list(service.records(game_id))
    assert [r.seq for r in stored] == list(range(1, len(stored) + 1))
    assert verify_chain(game_id, [r.envelope.model_dump(mode="json") for r in stored]).ok
    state: GameState | None = None
    for recorded in stored:
        state = fold_one(state, recorded)
    assert state is not None and state == service.state(game_id)
    return state


def test_many_games_commands_share_transactions_and_each_gets_its_own(
    env: dict[str, str],
) -> None:
    service = bootstrap(env=env)
    try:
        games = [_started(service)[0] for _ in range(4)]
        batches_before = service.writer.batches
        futures = [service.submit(games[n % 4], "gm", Declare(text=f"{n}")) for n in range(64)]
        results = _settle(futures)
        assert all(isinstance(r, Outcome) for r in results)
        assert service.writer.batches - batches_before < 64  # some were written together
        for n, result in enumerate(results):
            assert isinstance(result, Outcome)
            [record] = result.records
            assert record.event.text == f"{n}"  # type: ignore[attr-defined]
            assert record.envelope.game_id == games[n % 4]
            assert result.last_seq == record.seq == 4 + n // 4  # in the order queued
        for game_id in games:
            assert _check_log(service, game_id).version == 3 + 16
    finally:
        service.close()


def test_a_refusal_inside_a_batch_appends_nothing_and_the_rest_land(
    env: dict[str, str],
) -> None:
    service = bootstrap(env=env)
    try:
        game_id, [seat] = _started(service)
        futures = [
            service.submit(game_id, seat, Declare(text="before")),
            service.submit(game_id, seat, Roll(expression="1d6", secret=True)),
            service.submit(game_id, seat, End()),  # the GM's alone: refused
            service.submit(game_id, "gm", End()),
            service.submit(game_id, seat, Declare(text="after the end")),  # refused
            service.submit(game_id, "gm", End()),  # refused: ended already
        ]
        results = _settle(futures)
        assert [isinstance(r, Outcome) for r in results] == [True, True, False, True, False, False]
        appended = [r for r in results if isinstance(r, Outcome)]
        seqs = [rec.seq for r in appended for rec in r.records]
        state = _check_log(service, game_id)
        assert seqs == list(range(4, state.version + 1))  # contiguous, nothing else stored
        assert state.status == "ended"
        texts = [getattr(r.event, "text", None) for r in service.records(game_id)]
        assert "after the end" not in texts
        for refused in (results[2], results[4], results[5]):
            assert isinstance(refused, KirokuError)
    finally:
        service.close()


def test_a_key_sent_twice_in_one_batch_is_answered_once(env: dict[str, str]) -> None:
    service = bootstrap(env=env)
    try:
        game_id, [seat] = _started(service)
        futures = [
            service.submit(game_id, seat, Roll(expression="2d6"), "same"),
            service.submit(game_id, seat, Roll(expression="2d6"), "same"),
            service.submit(game_id, seat, Roll(expression="3d6"), "same"),
            service.submit(game_id, "gm", Roll(expression="2d6"), "same"),  # another caller
        ]
        first, again, reused, other = _settle(futures)
        assert isinstance(first, Outcome) and not first.replayed
        assert isinstance(again, Outcome) and again.replayed
        assert [r.envelope.hash for r in again.records] == [r.envelope.hash for r in first.records]
        assert isinstance(reused, KirokuError) and reused.code == "idempotency_key_reused"
        assert isinstance(other, Outcome) and not other.replayed
        assert _check_log(service, game_id).version == first.last_seq + 1
    finally:
        service.close()


def test_batches_racing_another_process_on_one_game_all_land_once(
    env: dict[str, str],
) -> None:
    a, b = bootstrap(env=env), bootstrap(env=env)
    try:
        game_id, _ = _started(a)
        b.state(game_id)
        futures = []
        for n in range(40):
            futures.append((a if n % 2 else b).submit(game_id, "gm", Declare(text=f"{n}")))
        results = _settle(futures)
        assert all(isinstance(r, Outcome) for r in results), results
        state = _check_log(a, game_id)
        assert state.version == 3 + 40
        texts = sorted(getattr(r.event, "text", "") for r in a.records(game_id))
        assert texts == sorted(["", "", "", *(f"{n}" for n in range(40))])
        seqs = sorted(r.last_seq for r in results if isinstance(r, Outcome))
        assert seqs == list(range(4, 44))  # each answer names its own event
    finally:
        a.close()
        b.close()


def test_a_refused_dice_expression_in_a_batch_is_a_refusal_not_a_failure(
    env: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    """A dice expression BCDice does not know is answered to its sender like any refusal: the
    server's log gets no traceback for it, and nothing is appended."""
    service = bootstrap(env=env)
    try:
        game_id, [seat] = _started(service)
        before = service.state(game_id).version
        with caplog.at_level(logging.ERROR, logger="domain.application.writer"):
            [result] = _settle([service.submit(game_id, seat, Roll(expression="2D6+Ⱦ"))])
        assert isinstance(result, KirokuError) and result.code == "dice_unsupported"
        assert service.state(game_id).version == before
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    finally:
        service.close()
