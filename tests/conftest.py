"""Shared fixtures: real stores (SQLite files, the PostgreSQL server) and the real app."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from domain.application.bootstrap import bootstrap, load_rulesets
from domain.application.service import GameService
from domain.application.settings import store_env

load_rulesets()  # as the bootstrap does: tests that fold events without a service need them

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
POSTGRES_URL = os.environ.get(
    "KIROKU_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("KIROKU_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
# Limits per client (api/throttle.py) are on by default; the suite's clients are many and all
# on one address. tests/api/test_limits.py turns them on with limits of its own.
os.environ.setdefault("KIROKU_LIMITS", "off")
# The `kiroku` command speaks the terminal's language (Japanese unless the locale says en): the
# tests that read its messages read the English ones; tests/api/test_cli_language.py sets the
# locale itself.
os.environ.setdefault("KIROKU_LANG", "en")


def require_service(name: str, reachable: bool, how: str) -> None:
    """Outside CI a missing server skips with a clear message; in CI it is a failure."""
    if reachable:
        return
    message = f"{name} is not reachable ({how})"
    if IN_CI:
        pytest.fail(f"{message}; CI must run these tests")
    pytest.skip(f"{message}; start it to run this test")


@pytest.fixture
def sqlite_env(tmp_path: Path) -> dict[str, str]:
    return store_env(sqlite_path=str(tmp_path / "kiroku.db"))


@pytest.fixture
def service(sqlite_env: dict[str, str]) -> Iterator[GameService]:
    svc = bootstrap(env=sqlite_env)
    yield svc
    svc.close()


@pytest.fixture
def client(service: GameService) -> Iterator[TestClient]:
    with TestClient(create_app(service)) as test_client:
        yield test_client


def _postgres_reachable() -> bool:
    try:
        import psycopg

        with psycopg.connect(POSTGRES_URL, connect_timeout=2):
            return True
    except Exception:
        return False


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh schema in the test database, dropped afterwards: tests never share tables."""
    require_service("PostgreSQL", _postgres_reachable(), POSTGRES_URL)
    import psycopg

    schema = f"kiroku_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{POSTGRES_URL}?schema={schema}"
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that uses PostgreSQL or Redis carries its marker whether or not its module says
    so, so `make check` (`-m "not slow and not postgres and not redis"`) never needs them."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if "postgres_url" in fixtures:
            item.add_marker(pytest.mark.postgres)
        if "redis_prefix" in fixtures:
            item.add_marker(pytest.mark.redis)
