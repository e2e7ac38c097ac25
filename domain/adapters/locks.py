"""Write locks: with PostgreSQL, the writers of one game in every process take turns on it (a
session advisory lock a game) instead of racing for a version. They save work; correctness
rests on the store's version check.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from typing import Any

from domain.adapters.store import StoreBusy, is_postgres, parse_game_id, pg_session

WRITE_LOCK = 0x4B49524F  # "KIRO": the advisory locks' first key (the game's is the second)


@functools.lru_cache(maxsize=4096)  # asked on every locked append, for few games
def lock_key(game_id: str) -> int:
    """A game's write-lock key: the first 32 bits of its id, as PostgreSQL's signed int4 (two
    games that share one only take turns)."""
    return int.from_bytes(parse_game_id(game_id).bytes[:4], "big", signed=True)


class WriteLocks:
    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self._lock_connection: Any = None  # PostgreSQL: this process's advisory-lock session

    def close(self) -> None:
        if self._lock_connection is not None:
            self._lock_connection.close()

    @contextmanager
    def hold(self, game_ids: Collection[str], *, wait: bool = True) -> Iterator[set[str] | None]:
        """Hold these games' write locks; yields the games held (released on leaving; not
        re-entrant), or None without PostgreSQL (SQLite's file lock serializes writers) or
        without games.

        `wait`: take them all, in key order (two processes never wait for each other).
        Otherwise those free, in one round trip, and when none is, wait for the first only:
        a batch never waits holding locks others need."""
        if not is_postgres(self.env) or not game_ids:
            yield None
            return
        import psycopg  # only with PostgreSQL

        by_key: dict[int, list[str]] = {}
        for game_id in game_ids:
            by_key.setdefault(lock_key(game_id), []).append(game_id)
        keys = sorted(by_key)
        try:
            connection = self._lock_session()
            if wait or len(keys) == 1:  # one lock: trying first would only cost a round trip
                # Volatile functions are evaluated after the sort: in key order.
                connection.execute(
                    "SELECT pg_advisory_lock(%s, k) FROM unnest(%s::int4[]) AS k ORDER BY k",
                    (WRITE_LOCK, keys),
                )
                taken = keys
            else:
                rows = connection.execute(
                    "SELECT k FROM unnest(%s::int4[]) AS k WHERE pg_try_advisory_lock(%s, k)",
                    (keys, WRITE_LOCK),
                ).fetchall()
                taken = [row[0] for row in rows]
                if not taken:
                    connection.execute("SELECT pg_advisory_lock(%s, %s)", (WRITE_LOCK, keys[0]))
                    taken = keys[:1]
        except psycopg.Error:
            self._drop_lock_connection()  # closing the session releases any it took
            raise StoreBusy() from None
        try:
            yield {game_id for key in taken for game_id in by_key[key]}
        finally:
            try:
                connection.execute("SELECT pg_advisory_unlock_all()")
            except psycopg.Error:
                self._drop_lock_connection()  # closing the session releases the locks

    def _lock_session(self) -> Any:
        if self._lock_connection is None or self._lock_connection.closed:
            self._lock_connection = pg_session(self.env)
        return self._lock_connection

    def _drop_lock_connection(self) -> None:
        connection, self._lock_connection = self._lock_connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()
