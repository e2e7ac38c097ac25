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


def test_write_locks_are_per_game_and_a_batch_does_not_wait_for_a_held_one(
    services: Services,
) -> None:
    """While one worker holds a game's write lock, another game's is free, a lock that may not
    wait takes only the free ones, and one that waits gets the held one once it is let go. A
    worker's batch holding commands for both games (others write them too) stores the free
    game's at once, and the held game's once let go, decided on the state the holder left."""
    holder, writer, prober = services(), services(), services()
    held, free = new_game(holder)[0], new_game(holder)[0]
    for game in (held, free):
        writer.state(game)
        writer.games._seen_another_writer(game)  # both written by other workers lately
    taken = threading.Event()

    def wait_for_it() -> None:
        with prober.games.write_lock([held, free]):
            taken.set()

    with holder.games.write_lock([held]) as holding:
        assert holding == {held}
        with prober.games.write_lock([held, free], wait=False) as some:
            assert some == {free}  # not waiting for the game the holder holds
        holder.execute(held, "gm", Declare(text="the holder's"))  # its own writer: no lock
        stored = writer.submit(free, "gm", Declare(text="goes on"))
        waiting = writer.submit(held, "gm", Declare(text="waits"))
        stored.result(timeout=10)
        waiting_lock = threading.Thread(target=wait_for_it)
        waiting_lock.start()
        assert not taken.wait(0.5) and not waiting.done()  # both wait for the held game
    outcome = waiting.result(timeout=10)
    assert taken.wait(10)  # let go: taken
    waiting_lock.join()
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
