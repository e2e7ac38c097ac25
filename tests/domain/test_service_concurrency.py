"""Threads racing on one game in one process (SQLite): nothing lost, duplicated or reordered."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from domain.application.bootstrap import bootstrap
from domain.application.service import NewGame
from domain.model.commands import Declare, Start
from domain.model.lifecycle_events import GameOptions
from domain.model.verification import verify_chain


def test_racing_appends_all_land_once_in_one_chain(sqlite_env: dict[str, str]) -> None:
    writers = [bootstrap(env=sqlite_env) for _ in range(3)]  # three "workers" on one file
    game = writers[0].create_game(NewGame("freeform", "Race", ["A"], GameOptions(), {}))
    writers[0].execute(game.game_id, "gm", Start())

    def append(i: int) -> tuple[int, str]:
        outcome = writers[i % 3].execute(game.game_id, "gm", Declare(text=f"say {i}"))
        [recorded] = outcome.records
        return recorded.seq, recorded.envelope.hash

    with ThreadPoolExecutor(max_workers=8) as pool:
        acknowledged = list(pool.map(append, range(60)))

    stored = list(writers[1].records(game.game_id))
    assert [r.seq for r in stored] == list(range(1, 63))
    by_seq = {r.seq: r.envelope.hash for r in stored}
    assert all(by_seq[seq] == digest for seq, digest in acknowledged)
    texts = sorted(r.event.text for r in stored[2:])  # type: ignore[attr-defined]
    assert texts == sorted(f"say {i}" for i in range(60))
    assert verify_chain(game.game_id, [r.envelope.model_dump(mode="json") for r in stored]).ok
    for writer in writers:
        writer.close()


def test_a_worker_with_a_stale_cache_does_not_refuse_on_it(sqlite_env: dict[str, str]) -> None:
    """Worker B cached the game before worker A started it: B must not say "not started"."""
    worker_a, worker_b = bootstrap(env=sqlite_env), bootstrap(env=sqlite_env)
    game = worker_a.create_game(NewGame("freeform", "Stale", ["A"], GameOptions(), {}))
    assert worker_b.state(game.game_id).status == "setup"  # B caches the game in setup
    worker_a.execute(game.game_id, "gm", Start())
    outcome = worker_b.execute(game.game_id, "gm", Declare(text="after the start"))
    assert outcome.last_seq == 3
    worker_a.close()
    worker_b.close()
