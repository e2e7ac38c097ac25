"""Snapshots: a long game reloads from its latest snapshot to exactly the folded state."""

from __future__ import annotations

from uuid import UUID

from domain import lifecycle
from domain.commands import Declare, Roll, Start
from domain.lifecycle_events import GameOptions
from domain.repository import SNAPSHOT_INTERVAL
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
