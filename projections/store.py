"""Materialised views in the events' own database, tracked with `eventsourcing`'s tracking
recorder: views and their position in the application sequence commit in one transaction, so
a view never claims an event it does not include.

Tables: kiroku_views (one row per game and audience: the rendered view), kiroku_view_states
(one row per game: the projection's folded state, so catching up continues where it stopped)
and kiroku_view_faults (one row per game whose log holds an event that cannot be read or
folded: the game's views are dropped and it is skipped until it is rebuilt).
Beside them, kiroku_seat_settings (one row per game and audience: its speakers, palette and
characters, written by that audience alone; no rebuild drops it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from eventsourcing.persistence import InfrastructureFactory, Tracking, TrackingRecorder
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder
from eventsourcing.utils import Environment
from psycopg.sql import SQL, Identifier

from domain.adapters.store import is_postgres, with_setup_retry

VIEWS_NAME = "KirokuViews"

Rows = list[tuple[str, str, int, str]]  # (game_id, audience, seq, view JSON)
States = list[tuple[str, int, str]]  # (game_id, seq, state JSON)
Faults = Sequence[tuple[str, int, str]]  # (game_id, seq of the damaged event, why)

# Seat settings (speakers, colours, chat palettes: api/routes/seat_settings.py) live beside the
# views, not in the log: a seat's own preferences, private to it, that no rebuild may drop.
SEAT_SETTINGS_TABLE = (
    "CREATE TABLE IF NOT EXISTS kiroku_seat_settings (game_id TEXT, audience TEXT, "
    "settings TEXT, PRIMARY KEY (game_id, audience)) WITHOUT ROWID"
)


class ViewStore(Protocol):
    def save(
        self, views: Rows, states: States, tracking: Tracking | None, faults: Faults = ...
    ) -> None: ...
    def view(self, game_id: str, audience: str) -> dict[str, Any] | None: ...
    def state(self, game_id: str) -> str | None: ...
    def fault(self, game_id: str) -> tuple[int, str] | None: ...
    def drop(self, game_id: str | None = None) -> None: ...
    def max_tracking_id(self, application_name: str) -> int | None: ...
    def seat_settings(self, game_id: str, audience: str) -> str | None: ...
    def save_seat_settings(self, game_id: str, audience: str, settings: str) -> None: ...


class SQLiteViewStore(SQLiteTrackingRecorder):
    def construct_create_table_statements(self) -> list[str]:
        return [
            *super().construct_create_table_statements(),
            "CREATE TABLE IF NOT EXISTS kiroku_views (game_id TEXT, audience TEXT, "
            "seq INTEGER, view TEXT, PRIMARY KEY (game_id, audience)) WITHOUT ROWID",
            "CREATE TABLE IF NOT EXISTS kiroku_view_states (game_id TEXT PRIMARY KEY, "
            "seq INTEGER, state TEXT) WITHOUT ROWID",
            "CREATE TABLE IF NOT EXISTS kiroku_view_faults (game_id TEXT PRIMARY KEY, "
            "seq INTEGER, problem TEXT) WITHOUT ROWID",
            SEAT_SETTINGS_TABLE,
        ]

    def seat_settings(self, game_id: str, audience: str) -> str | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                "SELECT settings FROM kiroku_seat_settings WHERE game_id = ? AND audience = ?",
                (game_id, audience),
            )
            row = c.fetchone()
        return None if row is None else str(row[0])

    def save_seat_settings(self, game_id: str, audience: str, settings: str) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                "INSERT OR REPLACE INTO kiroku_seat_settings VALUES (?, ?, ?)",
                (game_id, audience, settings),
            )

    def save(
        self, views: Rows, states: States, tracking: Tracking | None, faults: Faults = ()
    ) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.executemany("INSERT OR REPLACE INTO kiroku_views VALUES (?, ?, ?, ?)", views)
            c.executemany("INSERT OR REPLACE INTO kiroku_view_states VALUES (?, ?, ?)", states)
            for game_id, seq, problem in faults:
                c.execute("DELETE FROM kiroku_views WHERE game_id = ?", (game_id,))
                c.execute("DELETE FROM kiroku_view_states WHERE game_id = ?", (game_id,))
                c.execute(
                    "INSERT OR REPLACE INTO kiroku_view_faults VALUES (?, ?, ?)",
                    (game_id, seq, problem),
                )
            if tracking is not None:
                self._insert_tracking(c, tracking)

    def view(self, game_id: str, audience: str) -> dict[str, Any] | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                "SELECT view FROM kiroku_views WHERE game_id = ? AND audience = ?",
                (game_id, audience),
            )
            row = c.fetchone()
        return None if row is None else json.loads(row[0])

    def state(self, game_id: str) -> str | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT state FROM kiroku_view_states WHERE game_id = ?", (game_id,))
            row = c.fetchone()
        return None if row is None else row[0]

    def fault(self, game_id: str) -> tuple[int, str] | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT seq, problem FROM kiroku_view_faults WHERE game_id = ?", (game_id,))
            row = c.fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def drop(self, game_id: str | None = None) -> None:
        with self.datastore.transaction(commit=True) as c:
            if game_id is None:
                c.execute("DELETE FROM kiroku_views")
                c.execute("DELETE FROM kiroku_view_states")
                c.execute("DELETE FROM kiroku_view_faults")
                c.execute("DELETE FROM tracking WHERE application_name != '__migration__'")
            else:
                for table in ("kiroku_views", "kiroku_view_states", "kiroku_view_faults"):
                    c.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))


class PostgresViewStore(PostgresTrackingRecorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        schema = Identifier(self.datastore.schema)
        self._views = SQL("{0}.kiroku_views").format(schema)
        self._states = SQL("{0}.kiroku_view_states").format(schema)
        self._faults = SQL("{0}.kiroku_view_faults").format(schema)
        self._settings = SQL("{0}.kiroku_seat_settings").format(schema)
        self._tracking = SQL("{0}.{1}").format(schema, Identifier(self.tracking_table_name))
        self.sql_create_statements.extend(
            [
                SQL(
                    "CREATE TABLE IF NOT EXISTS {0} (game_id text, audience text, seq bigint, "
                    "view text, PRIMARY KEY (game_id, audience))"
                ).format(self._views),
                SQL(
                    "CREATE TABLE IF NOT EXISTS {0} (game_id text PRIMARY KEY, seq bigint, "
                    "state text)"
                ).format(self._states),
                SQL(
                    "CREATE TABLE IF NOT EXISTS {0} (game_id text PRIMARY KEY, seq bigint, "
                    "problem text)"
                ).format(self._faults),
                SQL(
                    "CREATE TABLE IF NOT EXISTS {0} (game_id text, audience text, "
                    "settings text, PRIMARY KEY (game_id, audience))"
                ).format(self._settings),
            ]
        )

    def seat_settings(self, game_id: str, audience: str) -> str | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL("SELECT settings FROM {0} WHERE game_id = %s AND audience = %s").format(
                    self._settings
                ),
                (game_id, audience),
            )
            row = curs.fetchone()
        return None if row is None else str(row["settings"])

    def save_seat_settings(self, game_id: str, audience: str, settings: str) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                SQL(
                    "INSERT INTO {0} VALUES (%s, %s, %s) ON CONFLICT (game_id, audience) "
                    "DO UPDATE SET settings = EXCLUDED.settings"
                ).format(self._settings),
                (game_id, audience, settings),
            )

    def save(
        self, views: Rows, states: States, tracking: Tracking | None, faults: Faults = ()
    ) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.executemany(
                SQL(
                    "INSERT INTO {0} VALUES (%s, %s, %s, %s) ON CONFLICT (game_id, audience) "
                    "DO UPDATE SET seq = EXCLUDED.seq, view = EXCLUDED.view"
                ).format(self._views),
                views,
            )
            curs.executemany(
                SQL(
                    "INSERT INTO {0} VALUES (%s, %s, %s) ON CONFLICT (game_id) "
                    "DO UPDATE SET seq = EXCLUDED.seq, state = EXCLUDED.state"
                ).format(self._states),
                states,
            )
            for game_id, seq, problem in faults:
                for table in (self._views, self._states):
                    curs.execute(
                        SQL("DELETE FROM {0} WHERE game_id = %s").format(table), (game_id,)
                    )
                curs.execute(
                    SQL(
                        "INSERT INTO {0} VALUES (%s, %s, %s) ON CONFLICT (game_id) "
                        "DO UPDATE SET seq = EXCLUDED.seq, problem = EXCLUDED.problem"
                    ).format(self._faults),
                    (game_id, seq, problem),
                )
            if tracking is not None:
                self._insert_tracking(curs, tracking)

    def view(self, game_id: str, audience: str) -> dict[str, Any] | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL("SELECT view FROM {0} WHERE game_id = %s AND audience = %s").format(
                    self._views
                ),
                (game_id, audience),
            )
            row = curs.fetchone()
        return None if row is None else json.loads(row["view"])

    def state(self, game_id: str) -> str | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL("SELECT state FROM {0} WHERE game_id = %s").format(self._states), (game_id,)
            )
            row = curs.fetchone()
        return None if row is None else row["state"]

    def fault(self, game_id: str) -> tuple[int, str] | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL("SELECT seq, problem FROM {0} WHERE game_id = %s").format(self._faults),
                (game_id,),
            )
            row = curs.fetchone()
        return None if row is None else (int(row["seq"]), str(row["problem"]))

    def drop(self, game_id: str | None = None) -> None:
        with self.datastore.transaction(commit=True) as curs:
            if game_id is None:
                for table in (self._views, self._states, self._faults):
                    curs.execute(SQL("DELETE FROM {0}").format(table))
                curs.execute(
                    SQL("DELETE FROM {0} WHERE application_name != '__migration__'").format(
                        self._tracking
                    )
                )
            else:
                for table in (self._views, self._states, self._faults):
                    curs.execute(
                        SQL("DELETE FROM {0} WHERE game_id = %s").format(table), (game_id,)
                    )


def open_view_store(env: dict[str, str]) -> SQLiteViewStore | PostgresViewStore:
    """The view store beside the events: same database, same kind."""
    factory = InfrastructureFactory.construct(Environment(VIEWS_NAME, env))
    cls: type[TrackingRecorder] = PostgresViewStore if is_postgres(env) else SQLiteViewStore
    store = with_setup_retry(lambda: factory.tracking_recorder(cls))
    assert isinstance(store, SQLiteViewStore | PostgresViewStore)
    return store
