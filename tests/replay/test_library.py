"""The replay's warm histories are bounded by events: a server replaying many long games keeps
the most recently replayed up to `KIROKU_REPLAY_EVENTS`, and always the one just replayed."""

from __future__ import annotations

from domain.application.service import GameService
from domain.model.commands import Declare
from replay.library import Histories
from tests.bench.core import new_game


def _game(service: GameService, events: int) -> str:
    game_id, _ = new_game(service)  # 3 events
    for n in range(events - 3):
        service.execute(game_id, "seat:1", Declare(text=f"line {n}"))
    return game_id


def test_the_least_recently_replayed_go_first_beyond_the_bound(service: GameService) -> None:
    a, b, c = (_game(service, 20) for _ in range(3))
    histories = Histories(service, max_events=45)
    histories.get(a)
    histories.get(b)
    assert histories.kept() == [a, b]  # 40 events
    histories.get(a)  # a is now the most recent
    histories.get(c)  # 60 > 45: b, the least recent, goes
    assert histories.kept() == [a, c]


def test_the_game_just_replayed_is_kept_whatever_its_size(service: GameService) -> None:
    small, big = _game(service, 10), _game(service, 60)
    histories = Histories(service, max_events=30)
    histories.get(small)
    kept = histories.get(big)
    assert histories.kept() == [big]
    assert histories.get(big) is kept  # warm: not read again
    assert kept.last_seq == 60
