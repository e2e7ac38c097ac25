"""Group commit on the real stores: commands queued together are written in one transaction,
and each caller still gets exactly its own outcome — refusals append nothing, keys answer
once, and batches that lose races to other processes are decided again, command by command.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future

import pytest

from domain.application.service import Outcome
from domain.model.commands import Declare, End, Roll
from domain.model.errors import KirokuError
from tests.domain.conftest import Services, checked_log, new_game


def _settle(futures: list[Future[Outcome]]) -> list[Outcome | BaseException]:
    results: list[Outcome | BaseException] = []
    for future in futures:
        try:
            results.append(future.result(timeout=60))
        except BaseException as error:
            results.append(error)
    return results


def test_many_games_commands_share_transactions_and_each_gets_its_own(
    services: Services,
) -> None:
    service = services()
    games = [new_game(service)[0] for _ in range(4)]
    batches_before = service.writer.batches
    results = _settle([service.submit(games[n % 4], "gm", Declare(text=f"{n}")) for n in range(64)])
    assert service.writer.batches - batches_before < 64  # some were written together
    for n, result in enumerate(results):
        assert isinstance(result, Outcome)
        [record] = result.records
        assert record.event.text == f"{n}"  # type: ignore[attr-defined]
        assert record.envelope.game_id == games[n % 4]
        assert result.last_seq == record.seq == 4 + n // 4  # in the order queued
    for game_id in games:
        assert checked_log(service, game_id).version == 3 + 16


def test_a_refusal_inside_a_batch_appends_nothing_and_the_rest_land(services: Services) -> None:
    service = services()
    game_id, [seat] = new_game(service)
    results = _settle(
        [
            service.submit(game_id, seat, Declare(text="before")),
            service.submit(game_id, seat, Roll(expression="1d6", secret=True)),
            service.submit(game_id, seat, End()),  # the GM's alone: refused
            service.submit(game_id, "gm", End()),
            service.submit(game_id, seat, Declare(text="after the end")),  # refused
            service.submit(game_id, "gm", End()),  # refused: ended already
        ]
    )
    assert [isinstance(r, KirokuError) for r in results] == [0, 0, 1, 0, 1, 1]
    seqs = [rec.seq for r in results if isinstance(r, Outcome) for rec in r.records]
    state = checked_log(service, game_id)
    assert seqs == list(range(4, state.version + 1))  # contiguous, nothing else stored
    assert state.status == "ended"
    assert "after the end" not in [getattr(r.event, "text", None) for r in service.records(game_id)]


def test_a_key_sent_twice_in_one_batch_is_answered_once(services: Services) -> None:
    service = services()
    game_id, [seat] = new_game(service)
    first, again, reused, other = _settle(
        [
            service.submit(game_id, seat, Roll(expression="2d6"), "same"),
            service.submit(game_id, seat, Roll(expression="2d6"), "same"),
            service.submit(game_id, seat, Roll(expression="3d6"), "same"),
            service.submit(game_id, "gm", Roll(expression="2d6"), "same"),  # another caller
        ]
    )
    assert isinstance(first, Outcome) and not first.replayed
    assert isinstance(again, Outcome) and again.replayed
    assert [r.envelope.hash for r in again.records] == [r.envelope.hash for r in first.records]
    assert isinstance(reused, KirokuError) and reused.code == "idempotency_key_reused"
    assert isinstance(other, Outcome) and not other.replayed
    assert checked_log(service, game_id).version == first.last_seq + 1


def test_processes_racing_on_two_games_all_land_once_in_one_chain(services: Services) -> None:
    """Three processes' writers append to two games at once: every command is stored once,
    where and as its answer said, each game's chain unbroken, and every process folds it."""
    writers = [services() for _ in range(3)]
    games = [new_game(writers[0])[0] for _ in range(2)]
    for writer in writers:
        writer.state(games[0])  # cached everywhere: each will be behind the others
    futures = [writers[n % 3].submit(games[n % 2], "gm", Declare(text=f"{n}")) for n in range(60)]
    results = _settle(futures)
    for n, result in enumerate(results):
        assert isinstance(result, Outcome), result
        [record] = result.records
        assert record.envelope.game_id == games[n % 2]
        assert record.event.text == f"{n}"  # type: ignore[attr-defined]
        stored = next(writers[1].records(games[n % 2], after=record.seq - 1, upto=record.seq))
        assert stored.envelope.hash == record.envelope.hash
    for g, game_id in enumerate(games):
        state = checked_log(writers[2], game_id)
        assert state.version == 3 + 30 and state == writers[0].state(game_id)
        texts = sorted(getattr(r.event, "text", "") for r in writers[1].records(game_id))
        assert texts == sorted(["", "", "", *(f"{n}" for n in range(g, 60, 2))])


def test_a_refused_dice_expression_in_a_batch_is_a_refusal_not_a_failure(
    services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    """A dice expression BCDice does not know is answered to its sender like any refusal: the
    server's log gets no traceback for it, and nothing is appended."""
    service = services()
    game_id, [seat] = new_game(service)
    before = service.state(game_id).version
    with caplog.at_level(logging.ERROR, logger="domain.application.writer"):
        [result] = _settle([service.submit(game_id, seat, Roll(expression="2D6+Ⱦ"))])
    assert isinstance(result, KirokuError) and result.code == "dice_unsupported"
    assert service.state(game_id).version == before
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
