"""Snapshots: a long game reloads from its latest snapshot to exactly the folded state; they
are stored a bucket of secrets at a time, spaced by the secrets kept, and read back as stored."""

from __future__ import annotations

import json
from uuid import UUID

import pytest

from domain.adapters.cache import GameCache
from domain.adapters.repository import fold_one
from domain.adapters.snapshots import SNAPSHOT_INTERVAL, bucket_row_id, snapshot_interval
from domain.adapters.store import StateSnapshot
from domain.application.service import GameService, NewGame
from domain.model import codec, lifecycle
from domain.model.commands import Declare, Note, Reveal, Roll, Start
from domain.model.game import GameState, SecretRecord
from domain.model.lifecycle_events import GameOptions
from domain.model.seqmap import SeqMap
from domain.rulesets.freeform import AdvancePhase
from tests.domain.conftest import Services, folded, new_game

on_sqlite = pytest.mark.parametrize("any_store", ["sqlite"], indirect=True)


def test_a_long_game_reloads_from_its_latest_snapshot_to_the_folded_state(
    services: Services,
) -> None:
    service = services()
    game_id, actors = new_game(service, seats=3)
    rolls = 0
    for n in range(260):
        actor = actors[n % 3]
        if n % 50 == 7:
            service.execute(game_id, "gm", AdvancePhase(phase=f"Phase {n}"))
        elif n % 13 == 0:
            service.execute(game_id, actor, Note(text=f"secret {n}", to=["gm"]))
        elif n % 11 == 0 or n % 2:
            rolls += 1
            secret = n % 11 == 0
            key = None if secret else f"key-{n}"
            service.execute(game_id, actor, Roll(expression="2d6+1", secret=secret), key)
        else:
            service.execute(game_id, actor, Declare(text=f"declaration {n}"))
    live = service.state(game_id)
    assert live.version == 1 + 3 + 1 + 260 and live.draws == rolls
    assert live.unrevealed and live.rules.phase_number == 6
    service.games.snapshots.flush()  # written on their own thread

    fresh = services()
    versions = [head.originator_version for head in _heads(fresh, game_id)]
    # Every 100 events; the snapshot thread writes only the latest when it falls behind.
    assert versions[-1] == 2 * SNAPSHOT_INTERVAL and set(versions) <= {100, 200}
    snapshot = fresh.games.snapshots.state(UUID(game_id))
    assert snapshot is not None and snapshot == folded(fresh, game_id, upto=200)
    assert fresh.state(game_id) == folded(fresh, game_id) == live  # loaded from it
    # An idempotent retry is still recognised after the reload from the snapshot.
    again = fresh.execute(game_id, actors[201 % 3], Roll(expression="2d6+1"), "key-201")
    assert again.replayed and again.records[0].envelope.actor == actors[201 % 3]
    assert fresh.state(game_id).version == live.version


def _heads(service: GameService, game_id: str) -> list[StateSnapshot]:
    snapshots = service.log.snapshots
    assert snapshots is not None
    return [s for s in snapshots.get(UUID(game_id)) if isinstance(s, StateSnapshot)]


def _rows_written_at(service: GameService, game_id: str, version: int) -> set[int]:
    """The keys of the buckets a snapshot wrote a row for at `version`."""
    snapshots = service.log.snapshots
    assert snapshots is not None
    return {
        key
        for key in range(version // 256 + 1)
        if list(snapshots.get(bucket_row_id(UUID(game_id), key), gt=version - 1, lte=version))
    }


def _check_rows(service: GameService, game_id: str) -> int:
    """Each snapshot wrote a row for exactly the buckets that changed since the one before
    (by content) and named, for each bucket, a row holding exactly it. Returns the rows."""
    heads = {head.originator_version: head for head in _heads(service, game_id)}
    written, state = 0, None
    before: dict[int, dict[int, SecretRecord]] = {}
    for recorded in service.records(game_id, upto=max(heads)):
        state = fold_one(state, recorded)
        head = heads.get(state.version)
        if head is None:
            continue
        after = dict(state.unrevealed.bucket_items())
        changed = {key for key, bucket in after.items() if before.get(key) != bucket}
        assert _rows_written_at(service, game_id, state.version) == changed, state.version
        written += len(changed)
        listing = json.loads(head.state)["buckets"]
        assert [key for key, _ in listing] == sorted(after)
        for key, at in listing:
            row = service.games.snapshots._bucket_row(UUID(game_id), key, at)
            assert {int(seq) for seq in row} == set(after[key]), (state.version, key)
        before = after
    return written


def _unjoined(service: GameService) -> str:
    created = service.create_game(NewGame("freeform", "Rows", ["Aki"], GameOptions(), {}))
    service.execute(created.game_id, "gm", Start())
    return created.game_id


@on_sqlite
def test_snapshots_are_stored_a_bucket_at_a_time(services: Services) -> None:
    """A snapshot stores each bucket of unrevealed secrets (256 seqs) that changed since the
    previous one as a row of its own, and a head naming the row of every bucket: its cost is
    what changed, not the game's size. A fresh process restores exactly the folded state from
    it and goes on writing only what changed (it knows which rows hold the buckets it read)."""
    service = services()
    game_id = _unjoined(service)

    def play(count: int, secret: bool = True, on: GameService = service) -> None:
        for i in range(count):
            on.execute(game_id, "gm", Roll(expression="1d6", secret=secret and i % 2 == 0))
            on.games.snapshots.flush()  # every due snapshot written, none left for a later one

    play(600)
    state = service.state(game_id)
    for seq in [s for s in state.unrevealed if 1 < s < 256]:  # a bucket thinned …
        service.execute(game_id, "gm", Reveal(seq=seq))
    service.execute(game_id, "gm", Reveal(seq=max(state.unrevealed)))  # … the last touched
    play(150)
    versions = [head.originator_version for head in _heads(service, game_id)]
    assert versions == list(range(SNAPSHOT_INTERVAL, versions[-1] + 1, SNAPSHOT_INTERVAL))
    written = _check_rows(service, game_id)
    listed = sum(len(json.loads(head.state)["buckets"]) for head in _heads(service, game_id))
    assert written < listed - 4  # unchanged buckets were not written again
    assert _rows_written_at(service, game_id, 400) == {1}  # seqs 301–400: one bucket
    assert 0 in _rows_written_at(service, game_id, 700)  # the thinned one, once more
    expected = service.state(game_id)
    service.close()

    fresh = services()
    restored = fresh.games.snapshots.state(UUID(game_id))
    assert restored is not None and restored.version == versions[-1]
    assert restored == folded(fresh, game_id, upto=versions[-1])
    assert fresh.state(game_id) == expected == folded(fresh, game_id)
    play(100 - expected.version % 100, secret=False, on=fresh)  # to the next snapshot
    assert _heads(fresh, game_id)[-1].originator_version == versions[-1] + 100
    since = {seq >> 8 for seq in expected.unrevealed if seq > versions[-1]}
    assert len(since) == 1 and len(expected.unrevealed.bucket_items()) == 4
    # Only the bucket the secrets after the restored snapshot went to, not all four.
    assert _rows_written_at(fresh, game_id, versions[-1] + 100) == since
    play(100, secret=False, on=fresh)
    assert _rows_written_at(fresh, game_id, versions[-1] + 200) == set()  # none changed
    assert _check_rows(fresh, game_id) == written + 1
    assert services().state(game_id) == fresh.state(game_id)


@on_sqlite
def test_a_snapshot_stored_whole_still_loads_and_older_code_ignores_the_new_form(
    services: Services,
) -> None:
    """A snapshot stored as one row of the whole state (as before the bucket rows) is still
    restored; the new form's head is of another schema to older code (which would restore
    its state without the secrets), so older code folds the events instead; and a head
    whose rows cannot be read is dropped for a fold."""
    service = services()
    game_id = _unjoined(service)
    for i in range(SNAPSHOT_INTERVAL + 20):
        service.execute(game_id, "gm", Roll(expression="2d6", secret=i % 3 == 0))
    service.games.snapshots.flush()
    (head,) = _heads(service, game_id)
    with pytest.raises(lifecycle.StaleState):  # what older code does with it
        lifecycle.restore_snapshot(json.loads(head.state))
    state = service.state(game_id)
    assert state.unrevealed and state.version % SNAPSHOT_INTERVAL
    whole = codec.dumps(lifecycle.snapshot_of(state))
    service.games.snapshots._put_rows([_row(game_id, state.version, whole)])  # as before
    service.execute(game_id, "gm", Roll(expression="2d6", secret=True))
    expected = service.state(game_id)
    service.close()

    fresh = services()
    assert fresh.games.snapshots.state(UUID(game_id)) == state  # read, not folded
    assert fresh.state(game_id) == expected
    damaged = json.loads(head.state)
    damaged["buckets"] = [[key, at + 1] for key, at in damaged["buckets"]]  # no such rows
    fresh.games.snapshots._put_rows([_row(game_id, expected.version, codec.dumps(damaged))])
    assert fresh.games.snapshots.state(UUID(game_id)) is None
    fresh.games.forget(game_id)
    assert fresh.state(game_id) == expected == folded(fresh, game_id)


def _row(game_id: str, version: int, text: str) -> StateSnapshot:
    when = StateSnapshot.create_timestamp()
    return StateSnapshot(
        originator_id=UUID(game_id), originator_version=version, timestamp=when, state=text
    )


def _with_secrets(count: int) -> GameState:
    secret = SecretRecord(audience=("gm",), author="gm", salt="00", body={})
    state = GameState(
        game_id="00000000-0000-0000-0000-000000000001",
        version=count,
        head="0" * 64,
        ruleset="freeform",
        title="t",
        options=GameOptions(),
        seats=(),
        server_seed="s",
        server_seed_hash="h",
    )
    return state.model_copy(update={"unrevealed": SeqMap({n: secret for n in range(count)})})


def test_snapshots_are_spaced_by_the_secrets_kept() -> None:
    """A state holding many unrevealed secrets is snapshotted less often (its snapshot is
    bigger), always at multiples of SNAPSHOT_INTERVAL."""
    kept = {0: 1, 1_599: 1, 1_600: 2, 3_300: 4, 33_000: 32}
    for count, times in kept.items():
        assert snapshot_interval(_with_secrets(count)) == times * SNAPSHOT_INTERVAL, count


def test_the_rows_of_a_game_are_forgotten_with_its_state() -> None:
    """What the cache knows of a game's stored bucket rows holds its buckets: it goes when
    the state is evicted or dropped, and is not kept for a game not cached."""
    one = _with_secrets(300)
    other = one.model_copy(update={"game_id": "00000000-0000-0000-0000-000000000002"})
    rows = {id(b): (b, key, 100) for key, b in one.unrevealed.bucket_items()}
    cache = GameCache(max_events=400)
    cache.set_rows(one.game_id, rows)
    assert cache.rows(one.game_id) == {}  # not cached
    cache.put(one)
    cache.set_rows(one.game_id, rows)
    assert cache.rows(one.game_id) is rows
    cache.put(other)  # 600 events > 400: the least recent goes
    assert one.game_id not in cache and cache.rows(one.game_id) == {}
    cache.set_rows(other.game_id, rows)
    cache.pop(other.game_id)
    assert cache.rows(other.game_id) == {}
