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
from domain.repository import lock_key

log = logging.getLogger(__name__)

OWNER_LOCK = 0x4B4F574E  # "KOWN": the owner locks' first key (the game's lock key the second)
SLOT_LOCK = 0x4B534C54  # "KSLT": a worker's slot (0 … workers − 1) is the second key
TABLE = "kiroku_owners"
SLOTS = "kiroku_owner_slots"
# A process owns at most this many lock keys: each is an entry in PostgreSQL's shared lock
# table (max_locks_per_transaction × max_connections, 6,400 on a stock server) for as long as
# the process runs. Games beyond it are written by whichever worker gets their commands, under
# the write lock, as without owners.
MAX_OWNED = 1024


@dataclass(frozen=True)
class Owner:
    """Where another process that owns a game listens (`take`: it does not own the game yet,
    but is the worker it should go to, and takes it when it gets the command)."""

    host: str
    address: str
    take: bool = False


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
        self.slots = 0  # the server's workers, when each holds a slot (`take_slot`)
        self.slot: int | None = None  # this process's slot
        self._connection: Any = None
        self._guard = threading.Lock()
        schema = env.get("POSTGRES_SCHEMA") or "public"
        quoted = '"' + schema.replace('"', '""') + '"'
        self._table = f"{quoted}.{TABLE}"
        self._slots = f"{quoted}.{SLOTS}"

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
            for table, key in ((self._table, "key"), (self._slots, "slot")):
                with contextlib.suppress(
                    psycopg.errors.UniqueViolation, psycopg.errors.DuplicateTable
                ):
                    connection.execute(
                        f"CREATE TABLE IF NOT EXISTS {table} "
                        f"({key} int4 PRIMARY KEY, host text NOT NULL, address text NOT NULL)"
                    )

    def take_slot(self, slots: int) -> int | None:
        """Hold the first free of `slots` slots (one per worker of the server) and record this
        process's address under it: a game nobody owns goes to the worker whose slot is its
        lock key modulo `slots`, so games spread evenly whichever worker sees them first.
        None when every slot is held."""
        with self._guard:
            connection = self._session()
            for slot in range(slots):
                row = connection.execute(
                    "SELECT pg_try_advisory_lock(%s, %s)", (SLOT_LOCK, slot)
                ).fetchone()
                if row is not None and row[0]:
                    connection.execute(
                        f"INSERT INTO {self._slots} (slot, host, address) VALUES (%s, %s, %s) "
                        "ON CONFLICT (slot) DO UPDATE "
                        "SET host = EXCLUDED.host, address = EXCLUDED.address",
                        (slot, self.host, self.address),
                    )
                    self.slots, self.slot = slots, slot
                    return slot
            return None

    def claim(self, game_id: str, *, defer: bool = False) -> Owner | None:
        """`MINE` when this process owns the game (it takes it when nobody does), else the
        owner as recorded (None while the owner has not recorded itself yet, or when this
        process may own no more games). With `defer`, a game nobody owns whose slot is another
        worker's is left to that worker: its address, to take the game (`Owner.take`). Raises
        psycopg.Error when the session fails: every game it held is then let go (closing a
        session releases its locks)."""
        import psycopg

        key = lock_key(game_id)
        with self._guard:
            if key in self._owned:
                return MINE
            try:
                connection = self._session()
                slot = key % self.slots if self.slots else None
                if defer and slot is not None and slot != self.slot:
                    free = connection.execute(
                        "SELECT pg_try_advisory_lock(%s, %s)", (OWNER_LOCK, key)
                    ).fetchone()
                    if free is not None and free[0]:  # nobody owns it: to its slot's worker
                        connection.execute("SELECT pg_advisory_unlock(%s, %s)", (OWNER_LOCK, key))
                        found = connection.execute(
                            f"SELECT host, address FROM {self._slots} WHERE slot = %s", (slot,)
                        ).fetchone()
                        if found is not None and found[1] != self.address:
                            return Owner(found[0], found[1], take=True)
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
        import psycopg

        if self._connection is None or self._connection.closed:
            self._owned.clear()  # a new session holds nothing
            self.slots, self.slot = 0, None
            self._connection = psycopg.connect(
                dbname=self.env["POSTGRES_DBNAME"],
                host=self.env["POSTGRES_HOST"],
                port=self.env["POSTGRES_PORT"],
                user=self.env["POSTGRES_USER"],
                password=self.env.get("POSTGRES_PASSWORD") or None,
                connect_timeout=5,
                autocommit=True,
            )
        return self._connection

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        self._owned.clear()
        self.slots, self.slot = 0, None  # its slot is let go with the session
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()
