"""Snapshots: a long game reloads from its latest snapshot to exactly the folded state."""

from __future__ import annotations

import json
from uuid import UUID

from domain import lifecycle
from domain.commands import Declare, End, Reveal, Roll, Start
from domain.game import GameState, SecretRecord
from domain.lifecycle_events import GameOptions
from domain.repository import SNAPSHOT_INTERVAL, SnapshotText, snapshot_interval
from domain.seqmap import SeqMap
from domain.service import GameService, NewGame


def test_reload_from_snapshot_equals_a_full_fold(sqlite_env: dict[str, str]) -> None:
    writer = GameService(sqlite_env)
    game = writer.create_game(NewGame("freeform", "Long", ["Aki"], GameOptions(), {}))
    writer.execute(game.game_id, "gm", Start())
    for i in range(2 * SNAPSHOT_INTERVAL + 37):
        command = Roll(expression="S1D6") if i % 3 else Declare(text=f"turn {i}")
        writer.execute(game.game_id, "gm", command)
    expected = writer.state(game.game_id)
    writer.close()

    reader = GameService(sqlite_env)
    snapshots = list(reader.log.snapshots.get(UUID(game.game_id)))  # type: ignore[union-attr]
    versions = [s.originator_version for s in snapshots]
    # Every 100 events; the snapshot thread writes only the latest when it falls behind.
    assert versions[-1] == 2 * SNAPSHOT_INTERVAL
    assert set(versions) <= {SNAPSHOT_INTERVAL, 2 * SNAPSHOT_INTERVAL}
    assert reader.state(game.game_id) == expected

    folded = None
    for recorded in reader.records(game.game_id):
        folded = (
            lifecycle.initial_state(recorded)
            if folded is None
            else lifecycle.evolve(folded, recorded)
        )
    assert folded == expected
    assert expected.draws == sum(1 for i in range(2 * SNAPSHOT_INTERVAL + 37) if i % 3)
    reader.close()


def test_incremental_snapshot_text_is_the_whole_state(sqlite_env: dict[str, str]) -> None:
    """The snapshot text made a bucket of secrets at a time, reusing the buckets unchanged
    since the previous snapshot, reads back as exactly `snapshot_of` the state, after
    secrets are added, revealed (a bucket changed, one emptied) and the game goes on."""
    service = GameService(sqlite_env)
    try:
        game = service.create_game(NewGame("freeform", "Texts", ["Aki"], GameOptions(), {}))
        service.execute(game.game_id, "gm", Start())
        texts = SnapshotText()
        reused = 0

        def check() -> None:
            nonlocal reused
            state = service.state(game.game_id)
            before = dict(texts._texts.get(game.game_id, {}))
            text = texts.text(state)
            assert json.loads(text) == json.loads(json.dumps(lifecycle.snapshot_of(state)))
            assert lifecycle.restore_snapshot(json.loads(text)) == state
            after = texts._texts[game.game_id]
            reused += sum(
                1 for key, (b, _) in after.items() if key in before and before[key][0] is b
            )

        check()  # no secret yet
        for i in range(600):
            service.execute(game.game_id, "gm", Roll(expression="1d6", secret=i % 2 == 0))
            if i in (100, 300, 599):
                check()
        state = service.state(game.game_id)
        assert len(state.unrevealed) == 301  # and the creation's own (seq 1)
        for seq in [s for s in state.unrevealed if 1 < s < 256]:  # a bucket thinned
            service.execute(game.game_id, "gm", Reveal(seq=seq))
        service.execute(game.game_id, "gm", Reveal(seq=max(state.unrevealed)))
        check()
        service.execute(game.game_id, "gm", End())
        check()
        assert reused >= 2  # the buckets no command touched were not serialized again
    finally:
        service.close()


def test_snapshots_are_spaced_by_the_secrets_kept() -> None:
    """A state holding many unrevealed secrets is snapshotted less often (its snapshot is
    bigger), always at multiples of SNAPSHOT_INTERVAL."""
    state = lifecycle_state_with_secrets(0)
    assert snapshot_interval(state) == SNAPSHOT_INTERVAL
    assert snapshot_interval(lifecycle_state_with_secrets(1_599)) == SNAPSHOT_INTERVAL
    assert snapshot_interval(lifecycle_state_with_secrets(1_600)) == 2 * SNAPSHOT_INTERVAL
    assert snapshot_interval(lifecycle_state_with_secrets(3_300)) == 4 * SNAPSHOT_INTERVAL
    assert snapshot_interval(lifecycle_state_with_secrets(33_000)) == 32 * SNAPSHOT_INTERVAL


def lifecycle_state_with_secrets(count: int) -> GameState:
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


def test_snapshot_texts_kept_are_bounded() -> None:
    """The bucket texts kept for the next snapshot are bounded: the game snapshotted least
    recently goes first, and the texts made are the same with or without them."""
    texts = SnapshotText(max_chars=1)
    one = lifecycle_state_with_secrets(300)
    other = one.model_copy(update={"game_id": "00000000-0000-0000-0000-000000000002"})
    first = texts.text(one)
    assert list(texts._texts) == [one.game_id]  # kept whatever its size: the latest
    texts.text(other)
    assert list(texts._texts) == [other.game_id]
    assert texts.text(one) == first
    assert json.loads(first)["unrevealed"].keys() == {str(n) for n in range(300)}
