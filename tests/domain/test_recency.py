"""RecentByEvents (domain/model/recency.py): what the game cache, the replay's histories and the
views' runner keep of the games they read, bounded by events, the latest always kept."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from domain.model.recency import RecentByEvents


def test_the_least_recently_used_go_first_and_the_latest_stays_whatever_its_size() -> None:
    kept: RecentByEvents[str] = RecentByEvents(100)
    assert kept.put("a", "A", 40) == []
    assert kept.put("b", "B", 40) == []
    assert kept.get("a") == "A"  # now the most recent: b goes first
    assert kept.put("c", "C", 40) == ["b"]
    assert list(kept) == ["a", "c"] and kept.events == 80
    assert kept.put("huge", "H", 500) == ["a", "c"]  # kept alone, over the bound
    assert kept.sizes() == {"huge": 500}
    assert kept.get("a") is None


def test_a_value_is_counted_at_the_size_it_was_put_with() -> None:
    """A replay history grows in place; put again, it is counted again, once."""
    kept: RecentByEvents[list[int]] = RecentByEvents(100)
    history = [1, 2, 3]
    kept.put("g", history, len(history))
    history.extend(range(50))
    assert kept.events == 3
    kept.put("g", history, len(history))
    assert kept.events == 53 and len(kept) == 1
    assert kept.pop("g") is history and kept.events == 0
    assert kept.pop("g") is None


@given(
    st.integers(min_value=0, max_value=200),
    st.lists(
        st.tuples(st.sampled_from("abcdefgh"), st.integers(min_value=0, max_value=120)),
        max_size=40,
    ),
)
def test_within_the_bound_after_any_puts(bound: int, puts: list[tuple[str, int]]) -> None:
    kept: RecentByEvents[int] = RecentByEvents(bound)
    for game_id, events in puts:
        let_go = kept.put(game_id, events, events)
        assert game_id not in let_go and list(kept)[-1] == game_id
        assert kept.events == sum(kept.sizes().values())
        assert kept.events <= bound or len(kept) == 1
