"""The write path's shortcuts stay correct on the real stores (SQLite file, PostgreSQL):

- a process decides on its cached state while it is the game's only writer, and still gets it
  right when another process appended meanwhile (appends and refusals alike);
- the game cache is bounded, and an evicted game reloads to exactly its folded state;
- snapshots are written off the command's path: no command waits for one.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from domain.adapters.repository import fold_one, parse_game_id
from domain.adapters.snapshots import SNAPSHOT_INTERVAL
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService, NewGame
from domain.application.settings import Settings, store_env
from domain.model import codec, lifecycle
from domain.model.commands import Declare, End, Roll, Start
from domain.model.errors import KirokuError
from domain.model.game import GameState
from domain.model.lifecycle_events import GameOptions
from domain.model.redaction import Disclosure, redact
from domain.model.verification import verify_chain


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[dict[str, str]]:
    """The settings of a fresh store: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield store_env(sqlite_path=str(tmp_path / "kiroku.db"))
    else:
        url: str = request.getfixturevalue("postgres_url")
        yield store_env(database_url=url)


@pytest.fixture
def two(store: dict[str, str]) -> Iterator[tuple[GameService, GameService]]:
    """Two processes' services on one store (each with its own cache and writer)."""
    a, b = bootstrap(env=store), bootstrap(env=store)
    yield a, b
    a.close()
    b.close()


def _game(service: GameService) -> str:
    created = service.create_game(NewGame("freeform", "Paths", ["A"], GameOptions(), {}))
    return created.game_id


def _full_fold(service: GameService, game_id: str) -> GameState:
    state: GameState | None = None
    for recorded in service.records(game_id):
        state = fold_one(state, recorded)
    assert state is not None
    return state


def test_two_processes_with_cached_states_interleave_without_loss(
    two: tuple[GameService, GameService],
) -> None:
    a, b = two
    game_id = _game(a)
    a.execute(game_id, "gm", Start())
    b.state(game_id)  # both have it cached now
    seqs = []
    for n in range(12):
        writer = a if n % 3 else b  # a, a, b, … : each sometimes behind the other
        outcome = writer.execute(game_id, "gm", Declare(text=f"line {n}"))
        seqs.append(outcome.last_seq)
    assert seqs == list(range(3, 15))
    stored = list(a.records(game_id))
    assert [r.event.text for r in stored[2:]] == [f"line {n}" for n in range(12)]  # type: ignore[attr-defined]
    assert verify_chain(game_id, [r.envelope.model_dump(mode="json") for r in stored]).ok
    assert a.state(game_id) == b.state(game_id) == _full_fold(a, game_id)


def test_a_refusal_on_a_stale_cache_is_decided_again_on_the_store(
    two: tuple[GameService, GameService],
) -> None:
    """B cached the game before A ended it: B's roll must be refused as after the end, and
    B's declaration before A's start must not be refused as before it."""
    a, b = two
    game_id = _game(a)
    assert b.state(game_id).status == "setup"
    a.execute(game_id, "gm", Start())
    assert b.execute(game_id, "gm", Declare(text="started")).last_seq == 3
    a.execute(game_id, "gm", End())
    with pytest.raises(KirokuError) as refused:
        b.execute(game_id, "gm", Roll(expression="1d6"))
    assert refused.value.code == "game_ended"
    assert [r.seq for r in a.records(game_id)][-1] == b.state(game_id).version


def test_a_keyed_retry_at_another_process_with_a_stale_cache_replays(
    two: tuple[GameService, GameService],
) -> None:
    a, b = two
    game_id = _game(a)
    a.execute(game_id, "gm", Start())
    b.state(game_id)
    first = a.execute(game_id, "gm", Roll(expression="2d6"), "key-1")
    again = b.execute(game_id, "gm", Roll(expression="2d6"), "key-1")
    assert again.replayed and not first.replayed
    assert [r.envelope.hash for r in again.records] == [r.envelope.hash for r in first.records]
    assert b.state(game_id).version == first.last_seq  # nothing appended by the retry


def test_the_game_cache_is_bounded_and_an_evicted_game_reloads_exactly(
    tmp_path: Any,
) -> None:
    service = bootstrap(Settings.load(db=str(tmp_path / "kiroku.db"), cache_events=40))
    try:
        games = [_game(service) for _ in range(5)]
        for game_id in games:
            service.execute(game_id, "gm", Start())
            for n in range(10):
                service.execute(game_id, "gm", Roll(expression=f"{n % 3 + 1}d6", secret=n % 2 == 0))
        cache = service.games.cache
        assert cache.events <= 40 and len(cache) == 3  # 12 events each: the last three
        assert service.games.cached(games[0]) is None and service.games.cached(games[4])
        for game_id in games:  # evicted or not, the same state as a full fold
            assert service.state(game_id) == _full_fold(service, game_id)
            assert service.execute(game_id, "gm", Declare(text="more")).last_seq == 13
        assert cache.events <= 40
    finally:
        service.close()


def test_one_huge_game_is_kept_even_past_the_bound(tmp_path: Any) -> None:
    service = bootstrap(Settings.load(db=str(tmp_path / "kiroku.db"), cache_events=3))
    try:
        game_id = _game(service)
        service.execute(game_id, "gm", Start())
        service.execute(game_id, "gm", Declare(text="a"))
        service.execute(game_id, "gm", Declare(text="b"))
        assert service.games.cached(game_id) is not None  # the most recent one stays
    finally:
        service.close()


def test_no_command_waits_for_a_snapshot(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The snapshot due at seq 100 is held up on purpose: the commands after it go on, and
    the snapshot is written once it may."""
    release, started = threading.Event(), threading.Event()
    real = lifecycle.snapshot_of

    def slow_snapshot(state: GameState) -> dict[str, Any]:
        started.set()
        assert release.wait(10)
        return real(state)

    monkeypatch.setattr(lifecycle, "snapshot_of", slow_snapshot)
    service = bootstrap(env=store_env(sqlite_path=str(tmp_path / "kiroku.db")))
    try:
        game_id = _game(service)
        service.execute(game_id, "gm", Start())
        for n in range(SNAPSHOT_INTERVAL + 10):
            service.execute(game_id, "gm", Declare(text=f"{n}"))
        assert started.wait(10)
        assert service.state(game_id).version == SNAPSHOT_INTERVAL + 12  # not stalled
        assert service.games.snapshots.state(parse_game_id(game_id)) is None
        release.set()
        service.games.snapshots.flush()
        restored = service.games.snapshots.state(parse_game_id(game_id))
        assert restored is not None and restored.version == SNAPSHOT_INTERVAL
    finally:
        release.set()
        service.close()


def test_a_sealed_envelope_is_stored_and_answered_as_its_model_dumps_it(tmp_path: Any) -> None:
    """Sealing keeps the envelope's JSON for storing and answering; it must be the model's own
    dump, key order included, and a record read back must encode to the same stored text."""
    service = bootstrap(env=store_env(sqlite_path=str(tmp_path / "k.db")))
    try:
        game_id = _game(service)
        service.execute(game_id, "gm", Start())
        outcome = service.execute(game_id, "gm", Roll(expression="2d6", secret=True))
        for sealed in outcome.records:
            assert sealed.envelope_json is not None
            assert list(sealed.envelope_json.items()) == list(
                sealed.envelope.model_dump(mode="json").items()
            )
            read = next(service.records(game_id, after=sealed.seq - 1, upto=sealed.seq))
            assert read.envelope_json is None and read == sealed
            assert codec.encode(read) == codec.encode(sealed)
            assert redact(read, "gm", Disclosure.of(outcome.state)) == redact(
                sealed, "gm", Disclosure.of(outcome.state)
            )
    finally:
        service.close()
