"""GameService on the real PostgreSQL server: one game seen by two services ("workers"), and a
long game that a fresh service reloads from a snapshot to exactly the state folded from events.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse
from uuid import UUID

import pytest

from domain.adapters.snapshots import SNAPSHOT_INTERVAL
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService, NewGame
from domain.application.settings import store_env
from domain.model import lifecycle
from domain.model.commands import Declare, End, Note, Roll, Start
from domain.model.errors import KirokuError
from domain.model.game import GameState
from domain.model.lifecycle_events import Declared, GameOptions
from domain.rulesets.freeform import AdvancePhase

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_env(postgres_url: str) -> dict[str, str]:
    env = store_env(database_url=postgres_url)
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
    return env


@pytest.fixture
def pg_service(pg_env: dict[str, str]) -> Iterator[GameService]:
    service = bootstrap(env=pg_env)
    yield service
    service.close()


def new_game(service: GameService, seats: int = 2) -> tuple[str, str, list[str]]:
    """Create a game, join every seat; returns game id, GM token and seat actors."""
    created = service.create_game(
        NewGame(
            ruleset="freeform",
            title="On PostgreSQL",
            seat_names=[f"Seat {n}" for n in range(1, seats + 1)],
            options=GameOptions(),
            ruleset_options={},
        )
    )
    actors = []
    for invite in created.seats:
        seat, _token = service.join(created.game_id, invite.invite, f"seed-{invite.seat}")
        actors.append(f"seat:{seat}")
    return created.game_id, created.token, actors


def fold(service: GameService, game_id: str, upto: int | None = None) -> GameState:
    """The state folded from every stored event (no cache, no snapshot)."""
    records = list(service.records(game_id, upto=upto))
    state = lifecycle.initial_state(records[0])
    for recorded in records[1:]:
        state = lifecycle.evolve(state, recorded)
    return state


def snapshot_versions(postgres_url: str, game_id: str) -> list[int]:
    import psycopg

    parsed = urlparse(postgres_url)
    schema = parse_qs(parsed.query)["schema"][0]
    with psycopg.connect(postgres_url.split("?")[0]) as conn:
        rows = conn.execute(
            f'SELECT originator_version FROM "{schema}".kiroku_snapshots '
            "WHERE originator_id = %s ORDER BY originator_version",
            (UUID(game_id),),
        ).fetchall()
    return [row[0] for row in rows]


def test_lifecycle_on_postgres_seen_by_a_second_worker(
    pg_env: dict[str, str], pg_service: GameService
) -> None:
    game_id, _gm, (seat1, seat2) = new_game(pg_service)
    pg_service.execute(game_id, "gm", Start())
    rolled = pg_service.execute(game_id, seat1, Roll(expression="2d6+1>=8"))
    (roll_record,) = rolled.records
    assert roll_record.seq == 5 and roll_record.envelope.type == "DiceRolled"
    pg_service.execute(game_id, seat2, Note(text="psst", to=["gm"]))

    other = bootstrap(env=pg_env)  # another worker process would hold its own service
    try:
        assert other.state(game_id) == pg_service.state(game_id)
        # The other worker appends; the first sees it on its next read (fast-forward).
        other.execute(game_id, seat2, Declare(text="from worker two"))
        assert pg_service.state(game_id).version == 7
        assert pg_service.state(game_id) == other.state(game_id)

        ended = pg_service.execute(game_id, "gm", End(summary="done"))
        assert [r.envelope.type for r in ended.records] == ["GameEnded", "Revealed", "Revealed"]
        assert other.state(game_id).status == "ended"
        assert other.state(game_id) == pg_service.state(game_id) == fold(other, game_id)
        report = other.verify(game_id)
        assert report.ok, report
        assert report.chain.events == 10
        assert report.secrets is not None and report.secrets.seed_matches is True
        assert report.secrets.findings == []
    finally:
        other.close()


def test_long_game_reloads_from_snapshot(
    postgres_url: str, pg_env: dict[str, str], pg_service: GameService
) -> None:
    game_id, _gm, actors = new_game(pg_service, seats=3)
    pg_service.execute(game_id, "gm", Start())
    for n in range(260):
        actor = actors[n % 3]
        if n % 50 == 7:
            pg_service.execute(game_id, "gm", AdvancePhase(phase=f"Phase {n}"))
        elif n % 13 == 0:
            pg_service.execute(game_id, actor, Note(text=f"secret {n}", to=["gm"]))
        elif n % 11 == 0:
            pg_service.execute(game_id, actor, Roll(expression="1d20", secret=True))
        elif n % 2:
            pg_service.execute(game_id, actor, Roll(expression="2d6+1"), f"key-{n}")
        else:
            pg_service.execute(game_id, actor, Declare(text=f"declaration {n}"))
    live = pg_service.state(game_id)
    assert live.version == 1 + 3 + 1 + 260
    assert live.unrevealed and live.rules.phase_number == 6

    pg_service.games.snapshots.flush()  # written on their own thread
    versions = snapshot_versions(postgres_url, game_id)  # the latest one at least
    assert versions[-1] == 200 and set(versions) <= {100, 200}

    fresh = bootstrap(env=pg_env)
    try:
        folded = fold(fresh, game_id)
        # The latest snapshot is exactly the fold of its first 200 events …
        snapshot = fresh.games.snapshots.state(UUID(game_id))
        assert snapshot is not None and snapshot.version == 2 * SNAPSHOT_INTERVAL
        assert snapshot == fold(fresh, game_id, upto=2 * SNAPSHOT_INTERVAL)
        # … and a fresh service loads from it (no cache) to the state folded from all events.
        assert fresh.state(game_id) == folded == live
        # An idempotent retry is still recognised after the reload from the snapshot.
        again = fresh.execute(game_id, actors[201 % 3], Roll(expression="2d6+1"), "key-201")
        assert again.replayed and again.records[0].envelope.actor == actors[201 % 3]
        assert fresh.state(game_id).version == live.version
    finally:
        fresh.close()


def test_write_locks_are_per_game(pg_env: dict[str, str]) -> None:
    """Two workers' write locks: one game's lock held by one does not hold up another game;
    the same game's waits until it is let go; a batch that may not wait takes what is free."""
    first, second = bootstrap(env=pg_env), bootstrap(env=pg_env)
    try:
        one, _, _ = new_game(first)
        other, _, _ = new_game(first)
        with first.games.write_lock([one]) as held:
            assert held == {one}
            with second.games.write_lock([other], wait=False) as free:
                assert free == {other}
            with second.games.write_lock([one, other], wait=False) as some:
                assert some == {other}  # not waiting for the game the first one holds
            taken = threading.Event()

            def wait_for_it() -> None:
                with second.games.write_lock([one, other]):
                    taken.set()

            waiting = threading.Thread(target=wait_for_it)
            waiting.start()
            assert not taken.wait(0.5)  # the same game: it waits
        assert taken.wait(10)  # let go: taken
        waiting.join()
    finally:
        first.close()
        second.close()


def test_four_workers_on_one_game_lose_nothing(pg_env: dict[str, str]) -> None:
    """Four services ("workers") write one game and a second one at once, each through its
    own group writer and per-game locks: every command is stored once, in one unbroken
    chain, and a fresh service folds the same state."""
    services = [bootstrap(env=pg_env) for _ in range(4)]
    try:
        game_id, _, _ = new_game(services[0])
        other, _, _ = new_game(services[0])
        services[0].execute(game_id, "gm", Start())
        services[0].execute(other, "gm", Start())
        futures = [
            service.submit(game, "gm", Declare(text=f"{n}"))
            for n in range(40)
            for service in services
            for game in (game_id, other)
        ]
        for future in futures:
            future.result(timeout=60)
        for game in (game_id, other):
            records = list(services[1].records(game))
            assert [r.seq for r in records] == list(range(1, len(records) + 1))
            texts = [r.event.text for r in records if isinstance(r.event, Declared)]
            assert sorted(texts) == sorted(f"{n}" for n in range(40) for _ in services)
            assert fold(services[2], game) == services[3].state(game)
    finally:
        for service in services:
            service.close()


def test_a_batch_does_not_wait_for_a_game_another_worker_holds(pg_env: dict[str, str]) -> None:
    """A worker's batch holds commands for two games others write too; another worker holds
    one game's lock: the other game's command is stored at once, and the held game's once
    its lock is let go, decided on the state the holder left."""
    holder, writer = bootstrap(env=pg_env), bootstrap(env=pg_env)
    try:
        held, _, _ = new_game(holder)
        free, _, _ = new_game(holder)
        for game in (held, free):
            holder.execute(game, "gm", Start())
            writer.state(game)
            writer.games._seen_another_writer(game)  # both written by other workers lately
        with holder.games.write_lock([held]):
            holder.execute(held, "gm", Declare(text="the holder's"))  # its own writer: no lock
            # In one batch (or the free one's first): the free game is not held up.
            stored = writer.submit(free, "gm", Declare(text="goes on"))
            waiting = writer.submit(held, "gm", Declare(text="waits"))
            stored.result(timeout=10)
            assert not waiting.done()
        outcome = waiting.result(timeout=10)
        texts = [r.event.text for r in holder.records(held) if isinstance(r.event, Declared)]
        assert texts == ["the holder's", "waits"]
        assert outcome.last_seq == holder.state(held).version
    finally:
        holder.close()
        writer.close()


def test_games_several_workers_write_are_read_at_once(pg_env: dict[str, str]) -> None:
    """A worker reads what others appended to several games in one query (`get_many`): each
    state is the one folded from the store (one behind by many events, one not cached, one
    unchanged), a game that is not there is that game's error alone, and the games others
    wrote are known to be shared after it."""
    reader, other = bootstrap(env=pg_env), bootstrap(env=pg_env)
    try:
        behind, _, _ = new_game(reader)
        unchanged, _, _ = new_game(reader)
        uncached, _, _ = new_game(other)
        for game in (behind, unchanged):
            reader.execute(game, "gm", Start())
            other.state(game)
        other.execute(uncached, "gm", Start())
        for n in range(30):
            other.execute(behind, "gm", Note(text=f"psst {n}", to=["gm"]))
            other.execute(uncached, "gm", Declare(text=f"{n}"))
        missing = "00000000-0000-4000-8000-000000000000"
        found = reader.games.get_many([behind, unchanged, uncached, missing, "not an id"])
        for game in (behind, unchanged, uncached):
            assert found[game] == fold(other, game) == other.state(game)
        error = found[missing]
        assert isinstance(error, KirokuError) and error.code == "game_not_found"
        assert isinstance(found["not an id"], KirokuError)
        assert reader.games.is_shared(behind) and not reader.games.is_shared(unchanged)
        assert reader.games.cached(uncached) == found[uncached]
    finally:
        reader.close()
        other.close()
