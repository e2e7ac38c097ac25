"""Several workers writing one game on PostgreSQL: its write locks, a batch that does not wait
for a game another worker holds, and the read of what others appended to several games at
once. (What holds on both stores is tested over both: test_write_path, test_group_commit.)
"""

from __future__ import annotations

import threading

import pytest

from domain.model.commands import Declare, Note
from domain.model.errors import KirokuError
from domain.model.lifecycle_events import Declared
from tests.domain.conftest import Services, folded, new_game

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.parametrize("any_store", ["postgres"], indirect=True),
]


def test_write_locks_are_per_game(services: Services) -> None:
    """One game's lock held by one worker does not hold up another game; the same game's
    waits until it is let go; a batch that may not wait takes what is free."""
    first, second = services(), services()
    one, other = new_game(first, start=False)[0], new_game(first, start=False)[0]
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


def test_a_batch_does_not_wait_for_a_game_another_worker_holds(services: Services) -> None:
    """A worker's batch holds commands for two games others write too; another worker holds
    one game's lock: the other game's command is stored at once, and the held game's once
    its lock is let go, decided on the state the holder left."""
    holder, writer = services(), services()
    held, free = new_game(holder)[0], new_game(holder)[0]
    for game in (held, free):
        writer.state(game)
        writer.games._seen_another_writer(game)  # both written by other workers lately
    with holder.games.write_lock([held]):
        holder.execute(held, "gm", Declare(text="the holder's"))  # its own writer: no lock
        stored = writer.submit(free, "gm", Declare(text="goes on"))
        waiting = writer.submit(held, "gm", Declare(text="waits"))
        stored.result(timeout=10)
        assert not waiting.done()
    outcome = waiting.result(timeout=10)
    texts = [r.event.text for r in holder.records(held) if isinstance(r.event, Declared)]
    assert texts == ["the holder's", "waits"]
    assert outcome.last_seq == holder.state(held).version


def test_games_several_workers_write_are_read_at_once(services: Services) -> None:
    """A worker reads what others appended to several games in one query (`get_many`): each
    state is the one folded from the store (one behind by many events, one not cached, one
    unchanged), a game that is not there is that game's error alone, and the games others
    wrote are known to be shared after it."""
    reader, other = services(), services()
    behind, unchanged = new_game(reader)[0], new_game(reader)[0]
    uncached, _ = new_game(other)
    for game in (behind, unchanged):
        other.state(game)
    for n in range(30):
        other.execute(behind, "gm", Note(text=f"psst {n}", to=["gm"]))
        other.execute(uncached, "gm", Declare(text=f"{n}"))
    missing = "00000000-0000-4000-8000-000000000000"
    found = reader.games.get_many([behind, unchanged, uncached, missing, "not an id"])
    for game in (behind, unchanged, uncached):
        assert found[game] == folded(other, game) == other.state(game)
    error = found[missing]
    assert isinstance(error, KirokuError) and error.code == "game_not_found"
    assert isinstance(found["not an id"], KirokuError)
    assert reader.games.is_shared(behind) and not reader.games.is_shared(unchanged)
    assert reader.games.cached(uncached) == found[uncached]
