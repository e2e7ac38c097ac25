"""When PostgreSQL refuses connections (its limit reached, a restart), a command is answered
503 `store_unavailable` (problem+json, Retry-After) within seconds — not a hang, not a
version conflict retried, and nothing appended."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from urllib.parse import urlparse

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from domain.application.bootstrap import bootstrap
from domain.application.settings import store_env
from tests.table import Table

pytestmark = pytest.mark.postgres


@pytest.fixture
def limited_role(postgres_url: str) -> Iterator[tuple[str, str]]:
    """A login role of its own (so its connection limit touches nobody else): the URL as that
    role, and the role's name."""
    import psycopg

    role = f"kiroku_few_{uuid.uuid4().hex[:8]}"
    schema = urlparse(postgres_url).query.split("schema=")[1]
    admin = postgres_url.split("?")[0]
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{role}" LOGIN CONNECTION LIMIT 20')
        conn.execute(f'GRANT ALL ON SCHEMA "{schema}" TO "{role}"')
    url = postgres_url.replace("postgres@", f"{role}@", 1)
    try:
        yield url, role
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s",
                (role,),
            )
            conn.execute(f'DROP OWNED BY "{role}" CASCADE')
            conn.execute(f'DROP ROLE "{role}"')


def test_refused_connections_are_answered_503_quickly(
    limited_role: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    url, role = limited_role
    monkeypatch.setenv("KIROKU_PG_WAIT", "0.2")
    service = bootstrap(env=store_env(database_url=url))
    try:
        with TestClient(create_app(service)) as client:
            table = Table.create(client)
            table.join_all()
            table.do("gm", {"type": "start"})
            last = table.do("seat:1", {"type": "declare", "text": "before"})["last_seq"]

            admin = url.split("?")[0].replace(f"{role}@", "postgres@", 1)
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'ALTER ROLE "{role}" CONNECTION LIMIT 0')
                conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s",
                    (role,),
                )
                began = time.monotonic()
                refused = table.send("seat:1", {"type": "declare", "text": "refused"})
                waited = time.monotonic() - began
                conn.execute(f'ALTER ROLE "{role}" CONNECTION LIMIT 20')

            assert refused.status_code == 503, refused.text
            assert refused.headers["content-type"] == "application/problem+json"
            assert refused.headers["Retry-After"] == "1"
            assert refused.json()["code"] == "store_unavailable"
            assert waited < 15  # ten short tries, not minutes
            # The server takes connections again: nothing of the refused command was stored.
            events = client.get(f"/games/{table.game_id}/events", headers=table.auth("gm"))
            assert events.status_code == 200
            assert events.json()["last_seq"] == last
            assert "refused" not in events.text
            assert table.do("seat:1", {"type": "declare", "text": "after"})["last_seq"] == last + 1
            # …and the OpenAPI document says the command route may answer so.
            documented = client.get("/openapi.json").json()["paths"]
            answer = documented["/games/{game_id}/commands"]["post"]["responses"]["503"]
            assert "store_unavailable" in answer["description"]
            assert "Retry-After" in answer["headers"]
    finally:
        service.close()
