"""Which worker owns a game (PostgreSQL, several workers): the one that holds its owner lock.

A game's owner is the process holding a session advisory lock on `(OWNER_LOCK, lock_key)` on
its ownership session — a connection of its own, kept for as long as the process runs (so
`GameRepository.write_lock`'s `pg_advisory_unlock_all` on the lock session never lets go of
it). The owner records where other workers reach it (a host name and an address: the API's
local socket) in `kiroku_owners`, keyed by the same lock key, after it takes the lock. A
process that dies closes its session, which lets go of its games; the next process to ask
takes them and writes its own address over the dead one's.

Ownership only routes commands: nothing here decides whether an append is right. The store's
version check still refuses an append decided on a stale state, whoever makes it, so a
worker that lost its session (and with it its games) without noticing is corrected by the
first conflict, exactly as two workers were before there were owners.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from dataclasses import dataclass
from typing import Any

from domain.config import is_postgres
from domain.repository import lock_key, lock_session

log = logging.getLogger(__name__)

OWNER_LOCK = 0x4B4F574E  # "KOWN": the owner locks' first key (the game's lock key the second)
TABLE = "kiroku_owners"
# A process owns at most this many lock keys: each is an entry in PostgreSQL's shared lock
# table (max_locks_per_transaction × max_connections, 6,400 on a stock server) for as long as
# the process runs. Games beyond it are written by whichever worker gets their commands, under
# the write lock, as without owners.
MAX_OWNED = 1024


@dataclass(frozen=True)
class Owner:
    """Where another process that owns a game listens."""

    host: str
    address: str


MINE = Owner("", "")  # the game is this process's own


class Ownership:
    """This process's ownership session: the games it owns, and who owns the others.

    Thread-safe; every method but `owns` may read or write the database (call it off the
    event loop)."""

    def __init__(self, env: dict[str, str], host: str, address: str) -> None:
        if not is_postgres(env):
            raise ValueError("game ownership needs PostgreSQL")
        self.env = env
        self.host = host
        self.address = address
        self._owned: set[int] = set()  # lock keys held on the session
        self._connection: Any = None
        self._guard = threading.Lock()
        schema = env.get("POSTGRES_SCHEMA") or "public"
        self._table = f'"{schema.replace(chr(34), chr(34) * 2)}".{TABLE}'

    def owns(self, game_id: str) -> bool:
        """Does this process own the game? (No database read.)"""
        try:
            return lock_key(game_id) in self._owned
        except Exception:  # not a game id: nobody owns it
            return False

    @property
    def full(self) -> bool:
        """May this process own no more games?"""
        return len(self._owned) >= MAX_OWNED

    def create_table(self) -> None:
        """Create `kiroku_owners` if missing (several workers may race to: one wins)."""
        import psycopg

        with self._guard:
            connection = self._session()
            # Another worker may create it at the same moment: one wins.
            with contextlib.suppress(psycopg.errors.UniqueViolation, psycopg.errors.DuplicateTable):
                connection.execute(
                    f"CREATE TABLE IF NOT EXISTS {self._table} "
                    "(key int4 PRIMARY KEY, host text NOT NULL, address text NOT NULL)"
                )

    def claim(self, game_id: str) -> Owner | None:
        """`MINE` when this process owns the game (it takes it when nobody does), else the
        owner as recorded (None while the owner has not recorded itself yet, or when this
        process may own no more games). Raises psycopg.Error when the session fails: every
        game it held is then let go (closing a session releases its locks)."""
        import psycopg

        key = lock_key(game_id)
        with self._guard:
            if key in self._owned:
                return MINE
            try:
                connection = self._session()
                if len(self._owned) < MAX_OWNED:
                    row = connection.execute(
                        "SELECT pg_try_advisory_lock(%s, %s)", (OWNER_LOCK, key)
                    ).fetchone()
                    if row is not None and row[0]:
                        self._owned.add(key)  # held: recording it may fail, the lock stays
                        connection.execute(
                            f"INSERT INTO {self._table} (key, host, address) VALUES (%s, %s, %s) "
                            "ON CONFLICT (key) DO UPDATE "
                            "SET host = EXCLUDED.host, address = EXCLUDED.address",
                            (key, self.host, self.address),
                        )
                        return MINE
                found = connection.execute(
                    f"SELECT host, address FROM {self._table} WHERE key = %s", (key,)
                ).fetchone()
            except psycopg.Error:
                self._drop()
                raise
        if found is None or (found[0] == self.host and found[1] == self.address):
            return None  # not recorded yet (or this process's own, from a session it lost)
        return Owner(found[0], found[1])

    def close(self) -> None:
        """Let go of every game (closing the session releases its locks)."""
        with self._guard:
            self._drop()

    def _session(self) -> Any:
        if self._connection is None or self._connection.closed:
            self._owned.clear()  # a new session holds nothing
            self._connection = lock_session(self.env)
        return self._connection

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        self._owned.clear()
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()
