"""`kiroku serve` against a PostgreSQL store that is not there yet, or cannot be: a missing
schema is created (as SQLite creates its file); a store that cannot be opened ends the command
at once with its reason — never workers restarting forever."""

from __future__ import annotations

import gc
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import POSTGRES_URL
from tests.serverproc import REPO_ROOT, KirokuServer, free_port

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture
def missing_schema(postgres_url: str) -> Iterator[str]:
    """A schema name nobody created (dropped afterwards if the test created it)."""
    import psycopg

    name = f"kiroku_missing_{uuid.uuid4().hex[:10]}"
    yield name
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def schema_exists(name: str) -> bool:
    import psycopg

    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        row = conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (name,)).fetchone()
    return row is not None


def serve(database_url: str, timeout: float = 30) -> tuple[subprocess.CompletedProcess[str], float]:
    command = [sys.executable, "-m", "api.cli", "serve", "--workers", "4"]
    command += ["--port", str(free_port()), "--database-url", database_url]
    started = time.monotonic()
    result = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout)
    return result, time.monotonic() - started


def test_a_missing_schema_is_created_and_four_workers_serve_it(missing_schema: str) -> None:
    assert not schema_exists(missing_schema)
    url = f"{POSTGRES_URL}?schema={missing_schema}"
    with KirokuServer(database_url=url, workers=4) as server:
        created = httpx.post(server.base_url + "/games", json={"title": "T", "seats": ["A"]})
        assert created.status_code == 201, created.text
        log = server.log()
    assert schema_exists(missing_schema)
    assert log.count("Application startup complete") == 4
    assert "Traceback" not in log


def test_a_schema_that_may_not_be_created_ends_serve_at_once(missing_schema: str) -> None:
    import psycopg

    role = f"kiroku_noperm_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{role}" LOGIN')
    try:
        base = POSTGRES_URL.replace("postgres@", f"{role}@", 1)
        result, elapsed = serve(f"{base}?schema={missing_schema}")
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f'DROP ROLE "{role}"')
    assert result.returncode == 1, result.stderr
    assert elapsed < 20
    assert f"schema '{missing_schema}'" in result.stderr
    assert "permission denied" in result.stderr
    assert "Traceback" not in result.stderr
    assert "Application startup" not in result.stderr + result.stdout  # no worker ever started
    assert not schema_exists(missing_schema)


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("postgresql://postgres@127.0.0.1:1/test", "Connection refused"),
        ("postgresql://postgres@127.0.0.1:5432/kiroku_no_such_database", "does not exist"),
    ],
)
def test_an_unreachable_store_ends_serve_at_once(postgres_url: str, url: str, reason: str) -> None:
    result, elapsed = serve(url)
    assert result.returncode == 1
    assert elapsed < 20
    assert result.stderr.startswith("error: cannot open the PostgreSQL store")
    assert reason in result.stderr
    assert "Traceback" not in result.stderr


def test_a_server_process_freezes_its_startup_objects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`kiroku serve`'s app (no service handed to it) moves what is alive once it has started out
    of the cycle collector's sight: a full collection would otherwise walk ~150,000 objects, a
    pause in some request (README, "The write path"). An app a test hands a service to leaves
    the collector as it was."""
    from fastapi.testclient import TestClient

    from api.app import create_app
    from domain.application.bootstrap import bootstrap
    from domain.application.settings import store_env

    monkeypatch.setenv("KIROKU_DB", str(tmp_path / "kiroku.db"))
    gc.unfreeze()
    try:
        with TestClient(create_app()) as client:
            assert client.get("/rulesets").status_code == 200
            assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()
    service = bootstrap(env=store_env(sqlite_path=str(tmp_path / "handed.db")))
    try:
        with TestClient(create_app(service)):
            assert gc.get_freeze_count() == 0
    finally:
        service.close()
