"""The write path's shortcuts stay correct on the real stores (SQLite file, PostgreSQL):

- a process decides on its cached state while it is the game's only writer, and still gets it
  right when another process appended meanwhile (appends, refusals and keyed retries alike);
- the game cache is bounded, and an evicted game reloads to exactly its folded state;
- snapshots are written off the command's path: no command waits for one.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from domain.adapters.repository import parse_game_id
from domain.adapters.snapshots import SNAPSHOT_INTERVAL
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService, NewGame
from domain.application.settings import Settings
from domain.model import codec, lifecycle
from domain.model.commands import Declare, End, Note, Roll, Start
from domain.model.errors import KirokuError
from domain.model.game import GameState
from domain.model.lifecycle_events import GameOptions
from domain.model.redaction import Disclosure, redact
from tests.domain.conftest import Services, checked_log, folded, new_game


def test_two_processes_with_cached_states_interleave_without_loss(services: Services) -> None:
    a, b = services(), services()
    game_id, (seat1, seat2) = new_game(a, seats=2)  # 1 created, 2–3 joined, 4 started
    a.execute(game_id, seat1, Roll(expression="2d6+1>=8"))
    a.execute(game_id, seat2, Note(text="psst", to=["gm"]))
    assert b.state(game_id) == a.state(game_id)  # both have it cached now
    seqs = []
    for n in range(12):
        writer = a if n % 3 else b  # b, a, a, … : each sometimes behind the other
        seqs.append(writer.execute(game_id, seat2, Declare(text=f"line {n}")).last_seq)
    assert seqs == list(range(7, 19))
    texts = [getattr(r.event, "text", None) for r in a.records(game_id)]
    assert texts[6:] == [f"line {n}" for n in range(12)]
    # A keyed command sent again to the process that did not append it: the first answer.
    first = a.execute(game_id, seat1, Roll(expression="2d6"), "key-1")
    again = b.execute(game_id, seat1, Roll(expression="2d6"), "key-1")
    assert again.replayed and not first.replayed
    assert [r.envelope.hash for r in again.records] == [r.envelope.hash for r in first.records]
    assert b.state(game_id).version == first.last_seq  # nothing appended by the retry
    ended = b.execute(game_id, "gm", End(summary="done"))
    assert [r.envelope.type for r in ended.records] == ["GameEnded", "Revealed", "Revealed"]
    assert a.state(game_id) == b.state(game_id) == checked_log(a, game_id)
    report = a.verify(game_id)
    assert report.ok and report.chain.events == 22, report
    assert report.secrets is not None and report.secrets.seed_matches is True
    assert report.secrets.findings == []


def test_a_refusal_on_a_stale_cache_is_decided_again_on_the_store(services: Services) -> None:
    """B cached the game before A started and ended it: B's declaration after A's start must
    not be refused as before it, and B's roll after A's end must be refused as after it."""
    a, b = services(), services()
    game_id, _ = new_game(a, start=False)
    assert b.state(game_id).status == "setup"
    a.execute(game_id, "gm", Start())
    assert b.execute(game_id, "gm", Declare(text="started")).last_seq == 4
    a.execute(game_id, "gm", End())
    with pytest.raises(KirokuError) as refused:
        b.execute(game_id, "gm", Roll(expression="1d6"))
    assert refused.value.code == "game_ended"
    assert [r.seq for r in a.records(game_id)][-1] == b.state(game_id).version


def test_two_processes_creating_a_game_with_one_key_at_once_answer_the_one_game(
    services: Services,
) -> None:
    """The attempt that loses the race for seq 1 answers what the other created."""
    a, b = services(), services()
    new = NewGame("freeform", "Twice", ["A"], GameOptions(), {})
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda s: s.create_game(new, "one-key-1234"), (a, b)))
    assert sorted(created.replayed for created in answers) == [False, True]
    assert len({(c.game_id, c.token, c.recovery_code, c.seats[0]) for c in answers}) == 1
    assert a.state(answers[0].game_id).version == 1


def test_the_game_cache_is_bounded_and_an_evicted_game_reloads_exactly(tmp_path: Path) -> None:
    service = bootstrap(Settings.load(db=str(tmp_path / "kiroku.db"), cache_events=40))
    try:
        games = [new_game(service)[0] for _ in range(5)]
        for game_id in games:
            for n in range(10):
                service.execute(game_id, "gm", Roll(expression=f"{n % 3 + 1}d6", secret=n % 2 == 0))
        cache = service.games.cache
        assert cache.events <= 40 and len(cache) == 3  # 13 events each: the last three
        assert service.games.cached(games[0]) is None and service.games.cached(games[4])
        for game_id in games:  # evicted or not, the same state as a full fold
            assert service.state(game_id) == folded(service, game_id)
            assert service.execute(game_id, "gm", Declare(text="more")).last_seq == 14
        assert cache.events <= 40
        huge, _ = new_game(service)
        for n in range(40):
            service.execute(huge, "gm", Declare(text=f"{n}"))
        assert len(cache) == 1 and service.games.cached(huge) is not None  # kept past the bound
    finally:
        service.close()


def test_no_command_waits_for_a_snapshot(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The snapshot due at seq 100 is held up on purpose: the commands after it go on, and
    the snapshot is written once it may."""
    release, started = threading.Event(), threading.Event()
    real = lifecycle.snapshot_of

    def slow_snapshot(state: GameState) -> dict[str, Any]:
        started.set()
        assert release.wait(10)
        return real(state)

    monkeypatch.setattr(lifecycle, "snapshot_of", slow_snapshot)
    try:
        game_id, _ = new_game(service)
        for n in range(SNAPSHOT_INTERVAL + 10):
            service.execute(game_id, "gm", Declare(text=f"{n}"))
        assert started.wait(10)
        assert service.state(game_id).version == SNAPSHOT_INTERVAL + 13  # not stalled
        assert service.games.snapshots.state(parse_game_id(game_id)) is None
        release.set()
        service.games.snapshots.flush()
        restored = service.games.snapshots.state(parse_game_id(game_id))
        assert restored is not None and restored.version == SNAPSHOT_INTERVAL
    finally:
        release.set()


def test_a_sealed_envelope_is_stored_and_answered_as_its_model_dumps_it(
    service: GameService,
) -> None:
    """Sealing keeps the envelope's JSON for storing and answering; it must be the model's own
    dump, key order included, and a record read back must encode to the same stored text."""
    game_id, _ = new_game(service)
    outcome = service.execute(game_id, "gm", Roll(expression="2d6", secret=True))
    disclosure = Disclosure.of(outcome.state)
    for sealed in outcome.records:
        assert sealed.envelope_json is not None
        dumped = sealed.envelope.model_dump(mode="json")
        assert list(sealed.envelope_json.items()) == list(dumped.items())
        read = next(service.records(game_id, after=sealed.seq - 1, upto=sealed.seq))
        assert read.envelope_json is None and read == sealed
        assert codec.encode(read) == codec.encode(sealed)
        assert redact(read, "gm", disclosure) == redact(sealed, "gm", disclosure)
