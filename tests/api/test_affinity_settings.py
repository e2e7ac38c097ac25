"""When affinity is on (api/affinity.py): PostgreSQL with several workers, unless turned off;
never with SQLite."""

from __future__ import annotations

import pytest

from api.affinity import AFFINITY_ENV, WORKERS_ENV, affinity_wanted
from domain.config import postgres_env, store_env

POSTGRES = postgres_env("postgresql://postgres@127.0.0.1:5432/test")
SQLITE = store_env(sqlite_path="/tmp/never-opened.db")


@pytest.mark.parametrize(
    ("mode", "workers", "env", "wanted"),
    [
        (None, "4", POSTGRES, True),
        ("auto", "2", POSTGRES, True),
        (None, "1", POSTGRES, False),
        (None, None, POSTGRES, False),  # not started by `kiroku serve`: one process
        ("off", "4", POSTGRES, False),
        ("on", "1", POSTGRES, True),
        ("on", "4", SQLITE, False),
        (None, "4", SQLITE, False),
    ],
)
def test_affinity_is_on_with_postgresql_and_several_workers(
    monkeypatch: pytest.MonkeyPatch,
    mode: str | None,
    workers: str | None,
    env: dict[str, str],
    wanted: bool,
) -> None:
    for name, value in ((AFFINITY_ENV, mode), (WORKERS_ENV, workers)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert affinity_wanted(env) is wanted


def test_a_bad_setting_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(AFFINITY_ENV, "sometimes")
    with pytest.raises(ValueError, match=AFFINITY_ENV):
        affinity_wanted(POSTGRES)


def test_serve_refuses_a_bad_setting_before_starting(monkeypatch: pytest.MonkeyPatch) -> None:
    from api.cli import main

    monkeypatch.setenv(AFFINITY_ENV, "sometimes")
    monkeypatch.setenv(WORKERS_ENV, "1")  # restored after: `serve` sets it
    monkeypatch.setenv("KIROKU_DATABASE_URL", "postgresql://postgres@127.0.0.1:1/none")
    assert main(["serve", "--workers", "2"]) == 2
