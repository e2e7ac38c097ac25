"""Game ownership on PostgreSQL (domain/ownership.py): a process owns a bounded number of
games and, to take another, lets go of the one it used least recently once it has been idle;
another process can then take that game. Real advisory locks on a real server."""

from __future__ import annotations

import uuid

import pytest

from domain import ownership as ownership_module
from domain.config import store_env
from domain.ownership import MINE, Owner, Ownership

pytestmark = pytest.mark.postgres


def _games(count: int) -> list[str]:
    return [str(uuid.uuid4()) for _ in range(count)]


def test_a_full_owner_lets_go_of_its_idlest_game_for_a_new_one(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ownership_module, "MAX_OWNED", 2)
    env = store_env(database_url=postgres_url)
    mine, other = Ownership(env, "here", "/a.sock"), Ownership(env, "here", "/b.sock")
    try:
        mine.create_table()
        first, second, third = _games(3)
        assert mine.claim(first) is MINE and mine.claim(second) is MINE
        mine.used(second)
        mine.used(first)  # `second` is now the idlest

        # Used lately, every one: the new game is nobody's (written without an owner).
        monkeypatch.setattr(ownership_module, "IDLE_SECONDS", 3600.0)
        assert mine.full
        assert mine.claim(third) is None
        assert (mine.owns(first), mine.owns(second), mine.owns(third)) == (True, True, False)

        # Idle long enough: the least recently used game is let go for the new one.
        monkeypatch.setattr(ownership_module, "IDLE_SECONDS", 0.0)
        assert mine.claim(third) is MINE
        assert (mine.owns(first), mine.owns(second), mine.owns(third)) == (True, False, True)

        # Another process takes the game let go of; the ones still held stay where they are.
        assert other.claim(second) is MINE
        assert other.claim(first) == Owner("here", "/a.sock")
        assert mine.claim(second) == Owner("here", "/b.sock")
        assert mine.owns(first) and mine.owns(third)  # not let go of for a game it could not take
    finally:
        mine.close()
        other.close()
