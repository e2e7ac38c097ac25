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
import time
from dataclasses import dataclass
from typing import Any

from domain.config import is_postgres
from domain.repository import lock_key
from domain.store import pg_session

log = logging.getLogger(__name__)

OWNER_LOCK = 0x4B4F574E  # "KOWN": the owner locks' first key (the game's lock key the second)
TABLE = "kiroku_owners"
# A process owns at most this many lock keys: each is an entry in PostgreSQL's shared lock
# table (max_locks_per_transaction × max_connections, 6,400 on a stock server) while held.
# To take another game, a process lets go of the one it has used least recently, if no command
# reached it for IDLE_SECONDS; while every one is busier, the game is written by whichever worker
# gets its commands, under the write lock, as without owners.
MAX_OWNED = 1024
IDLE_SECONDS = 60.0


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
        self._used: dict[int, float] = {}  # lock key → when a command of it last ran here
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

    def used(self, game_id: str) -> None:
        """A command of this owned game ran here: it is the last the process lets go of."""
        with contextlib.suppress(Exception):  # not a game id
            self._used[lock_key(game_id)] = time.monotonic()

    @property
    def full(self) -> bool:
        """May this process own no more games (every one it holds used lately)?"""
        if len(self._owned) < MAX_OWNED:
            return False
        idlest = self._idlest()  # None if a failed session let go of them all meanwhile
        return idlest is not None and idlest[1] > time.monotonic() - IDLE_SECONDS

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
                if not self.full:
                    row = connection.execute(
                        "SELECT pg_try_advisory_lock(%s, %s)", (OWNER_LOCK, key)
                    ).fetchone()
                    if row is not None and row[0]:
                        if len(self._owned) >= MAX_OWNED:  # only once the new one is held
                            self._let_go_of_the_idlest(connection)
                        self._owned.add(key)  # held: recording it may fail, the lock stays
                        self._used[key] = time.monotonic()
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

    def _let_go_of_the_idlest(self, connection: Any) -> None:
        """Let go of the owned game used least recently (`full` said it is idle). It is
        no longer this process's own before its lock is let go: from then on this process
        decides its commands as any other worker's (the version check, the write lock), and
        a worker that still hands it a command is told so and asks again."""
        idlest = self._idlest()
        if idlest is None:
            return
        key = idlest[0]
        self._owned.discard(key)
        connection.execute("SELECT pg_advisory_unlock(%s, %s)", (OWNER_LOCK, key))
        for stale in [k for k in tuple(self._used) if k not in self._owned]:
            self._used.pop(stale, None)

    def _idlest(self) -> tuple[int, float] | None:
        """The owned game used least recently, and when; None when none is owned. (The set
        is copied first, in one step: `full` reads it from the event loop while a claim or a
        failed session may change it.)"""
        used = self._used
        key = min(tuple(self._owned), key=lambda k: used.get(k, 0.0), default=None)
        return None if key is None else (key, used.get(key, 0.0))

    def close(self) -> None:
        """Let go of every game (closing the session releases its locks)."""
        with self._guard:
            self._drop()

    def _session(self) -> Any:
        if self._connection is None or self._connection.closed:
            self._owned.clear()  # a new session holds nothing
            self._connection = pg_session(self.env)
        return self._connection

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        self._owned.clear()
        self._used.clear()
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()
