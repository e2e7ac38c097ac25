"""Every accepted byte reads back, and a row that does not stops only its own game.

The poison case first: free JSON nested beyond what any reader takes is refused with a 4xx and
the log stays byte-identical. Then rows damaged behind the server's back (by hand, in SQLite
and in PostgreSQL, including a "poison" row stored before the bound existed): every read of
that game names the damaged seq — /verify in its report, the other reads as a problem+json
`corrupt_event` — `kiroku audit` exits 3 naming it without a traceback, and another game on
the same server keeps answering /view, /events and its live stream.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import httpx
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService, NewGame
from domain.application.settings import store_env
from domain.model import codec
from domain.model.commands import Declare, Start
from domain.model.json_shape import MAX_DEPTH, MAX_KEYS, MAX_VALUES
from domain.model.lifecycle_events import GameOptions, RulingMade
from domain.model.records import Draft
from tests.api.test_stream_http import ThreadedServer
from tests.serverproc import REPO_ROOT
from tests.table import Table

DAMAGED_SEQ = 5


def nested(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


def problem_of(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["code"] == code and body["status"] == status and body["detail"]
    return body


# ------------------------------------------------------------------------------ the poison


@pytest.fixture
def table(client: TestClient) -> Table:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    return table


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 200, 250, 600, 980, 5_000])
@pytest.mark.parametrize("field", ["ruling", "amend"])
def test_deeply_nested_free_json_is_refused_and_nothing_is_appended(
    table: Table, depth: int, field: str
) -> None:
    before = table.log_bytes()
    if field == "ruling":
        raw = f'{{"type":"ruling","concerning_seq":1,"text":"t","effect":{nested(depth)}}}'
    else:
        raw = f'{{"type":"amend","concerning_seq":1,"reason":"r","correction":{nested(depth)}}}'
    response = table.client.post(
        f"/games/{table.game_id}/commands",
        content=raw.encode(),
        headers={**table.auth("gm"), "content-type": "application/json"},
    )
    problem = problem_of(response, 422, "json_too_deep")
    assert "nested" in problem["detail"] or "入れ子" in problem["detail"]
    assert table.log_bytes() == before


def test_free_json_at_the_depth_bound_is_accepted_and_reads_back(
    table: Table, sqlite_env: dict[str, str]
) -> None:
    effect = json.loads(nested(MAX_DEPTH - 1))
    table.do(
        "gm", {"type": "ruling", "concerning_seq": 1, "text": "deep but fine", "effect": effect}
    )
    fresh = bootstrap(env=sqlite_env)  # nothing cached: everything is decoded from the store
    try:
        assert fresh.verify(table.game_id).ok
        assert list(fresh.records(table.game_id))[-1].event.effect == effect  # type: ignore[attr-defined]
    finally:
        fresh.close()


@pytest.mark.parametrize(
    ("effect", "code"),
    [
        ({f"k{i}": i for i in range(MAX_KEYS + 1)}, "json_too_many_keys"),
        ({"many": [0] * MAX_VALUES}, "json_too_large"),
        ({"who": "Aki\u202egnp.exe"}, "forbidden_character"),
    ],
)
def test_free_json_beyond_its_other_bounds_is_refused(
    table: Table, effect: dict[str, Any], code: str
) -> None:
    before = table.log_bytes()
    body = {"type": "ruling", "concerning_seq": 1, "text": "t", "effect": effect}
    problem_of(table.send("gm", body), 422, code)
    assert table.log_bytes() == before


def test_a_game_with_deep_ruleset_options_is_not_created(client: TestClient) -> None:
    raw = f'{{"title":"T","seats":["A"],"ruleset_options":{nested(300)}}}'.encode()
    response = client.post("/games", content=raw, headers={"content-type": "application/json"})
    problem_of(response, 422, "json_too_deep")


# ------------------------------------------------------------------------------ damaged rows


@dataclass
class Store:
    env: dict[str, str]
    damage: Callable[[str, int, bytes], None]  # (game, seq, new row state)
    rows: Callable[[str], int]


def _sqlite_store(env: dict[str, str]) -> Store:
    path = env["SQLITE_DBNAME"]

    def damage(game_id: str, seq: int, state: bytes) -> None:
        with sqlite3.connect(path) as conn:
            changed = conn.execute(
                "UPDATE stored_events SET state = ? "
                "WHERE originator_id = ? AND originator_version = ?",
                (state, UUID(game_id).hex, seq),
            ).rowcount
        assert changed == 1

    def rows(game_id: str) -> int:
        with sqlite3.connect(path) as conn:
            (count,) = conn.execute(
                "SELECT count(*) FROM stored_events WHERE originator_id = ?", (UUID(game_id).hex,)
            ).fetchone()
        return int(count)

    return Store(env, damage, rows)


def _postgres_store(url: str) -> Store:
    import psycopg

    env = store_env(database_url=url)
    table = f'"{env["POSTGRES_SCHEMA"]}".kiroku_events'
    dsn = url.split("?")[0]

    def damage(game_id: str, seq: int, state: bytes) -> None:
        with psycopg.connect(dsn, autocommit=True) as conn:
            changed = conn.execute(
                f"UPDATE {table} SET state = %s "
                "WHERE originator_id = %s AND originator_version = %s",
                (state, UUID(game_id), seq),
            ).rowcount
        assert changed == 1

    def rows(game_id: str) -> int:
        with psycopg.connect(dsn, autocommit=True) as conn:
            row = conn.execute(
                f"SELECT count(*) FROM {table} WHERE originator_id = %s", (UUID(game_id),)
            ).fetchone()
        assert row is not None
        return int(row[0])

    return Store(env, damage, rows)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, sqlite_env: dict[str, str]) -> Store:
    if request.param == "sqlite":
        return _sqlite_store(sqlite_env)
    return _postgres_store(request.getfixturevalue("postgres_url"))


def poison_row(service: GameService, game_id: str) -> bytes:
    """What the server stored before the bound: a ruling whose effect nests 250 levels, folded
    and stored by the real append path (the model then did not look at the depth)."""
    state = service.state(game_id)
    event = RulingMade(concerning_seq=1, text="t", effect=json.loads(nested(250)))
    recorded = codec.seal(
        Draft(event),
        game_id=game_id,
        seq=DAMAGED_SEQ,
        actor="gm",
        at="2026-01-01T00:00:00Z",
        prev_hash=state.head,
    )
    service.games.add(state, [recorded])
    return json.dumps({"record": codec.encode(recorded)}).encode()


DAMAGES: dict[str, Callable[[GameService, str], bytes]] = {
    "not JSON": lambda _service, _game: b'{"record": "{\\"envelope\\": {\\"seq\\": 5',
    "a poison row stored before the bound": poison_row,
    "not an event record": lambda _s, _g: json.dumps({"record": '{"envelope": [5]}'}).encode(),
}


@dataclass
class Setup:
    damaged: str
    healthy: str
    tokens: dict[str, dict[str, str]]  # game → actor → token


def two_games(service: GameService, damage: str, store: Store) -> Setup:
    """Two started games of two seats; the first gets a damaged event at DAMAGED_SEQ."""
    tokens: dict[str, dict[str, str]] = {}
    ids = []
    for title in ("Damaged", "Healthy"):
        created = service.create_game(NewGame("freeform", title, ["Aki", "Ben"], GameOptions(), {}))
        game_tokens = {"gm": created.token}
        for invite in created.seats:
            seat, token = service.join(created.game_id, invite.invite, None)
            game_tokens[f"seat:{seat}"] = token
        service.execute(created.game_id, "gm", Start())  # seq 4
        tokens[created.game_id] = game_tokens
        ids.append(created.game_id)
    damaged, healthy = ids
    row = DAMAGES[damage](service, damaged)
    if damage != "a poison row stored before the bound":
        service.execute(damaged, "seat:1", Declare(text="what will be damaged"))  # seq 5
    service.execute(damaged, "seat:2", Declare(text="after the damage"))  # seq 6
    for n in range(3):
        service.execute(healthy, "seat:1", Declare(text=f"healthy {n}"))
    store.damage(damaged, DAMAGED_SEQ, row)
    return Setup(damaged, healthy, tokens)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def read_stream(base_url: str, game_id: str, token: str, until_seq: int) -> list[int]:
    seqs: list[int] = []
    with (
        httpx.Client(base_url=base_url, timeout=10) as http,
        http.stream("GET", f"/games/{game_id}/stream", headers=bearer(token)) as response,
    ):
        assert response.status_code == 200
        for line in response.iter_lines():
            if line.startswith("id: "):
                seqs.append(int(line[4:]))
                if seqs[-1] >= until_seq:
                    break
    return seqs


@pytest.fixture
def setup_in(store: Store, request: pytest.FixtureRequest) -> Iterator[Setup]:
    writer = bootstrap(env=store.env)
    try:
        yield two_games(writer, request.param, store)
    finally:
        writer.close()


@pytest.mark.parametrize("setup_in", list(DAMAGES), indirect=True)
def test_a_damaged_row_is_named_by_seq_and_stops_only_its_game(
    store: Store, setup_in: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = setup_in
    damaged, healthy = setup.damaged, setup.healthy
    gm, other_gm = setup.tokens[damaged]["gm"], setup.tokens[healthy]["gm"]
    rows = store.rows(damaged)
    monkeypatch.delenv("KIROKU_REDIS_URL", raising=False)
    service = bootstrap(env=store.env)  # the server restarted: nothing cached
    try:
        with ThreadedServer(service) as server, httpx.Client(base_url=server.base_url) as http:
            # The healthy game first, so a damaged game cannot have warmed anything for it.
            assert http.get(f"/games/{healthy}/view", headers=bearer(other_gm)).status_code == 200

            english = {**bearer(gm), "Accept-Language": "en"}  # Japanese is the default
            report = http.get(f"/games/{damaged}/verify", headers=english)
            assert report.status_code == 200, report.text
            chain = report.json()["chain"]
            assert report.json()["ok"] is False and chain["first_bad_seq"] == DAMAGED_SEQ
            assert "cannot be read" in chain["problem"]
            assert f"event {DAMAGED_SEQ}" in report.json()["note"]

            for path in ("events", "view", "", "stream", "replay", "replay/log", "replay/marks"):
                url = f"/games/{damaged}/{path}".rstrip("/")
                body = problem_of(http.get(url, headers=bearer(gm)), 500, "corrupt_event")
                assert body["seq"] == DAMAGED_SEQ and f"イベント{DAMAGED_SEQ}は" in body["detail"]
            command = http.post(
                f"/games/{damaged}/commands",
                json={"type": "declare", "text": "hello?"},
                headers=bearer(setup.tokens[damaged]["seat:1"]),
            )
            assert problem_of(command, 500, "corrupt_event")["seq"] == DAMAGED_SEQ
            assert store.rows(damaged) == rows  # nothing appended

            # The other game goes on: views, events, commands, its live stream.
            more = http.post(
                f"/games/{healthy}/commands",
                json={"type": "declare", "text": "still here"},
                headers=bearer(other_gm),
            )
            assert more.status_code == 201, more.text
            last = more.json()["last_seq"]
            view = http.get(f"/games/{healthy}/view", headers=bearer(other_gm))
            assert view.status_code == 200 and view.json()["seq"] == last
            events = http.get(f"/games/{healthy}/events", headers=bearer(other_gm))
            assert [e["seq"] for e in events.json()["events"]] == list(range(1, last + 1))
            assert read_stream(server.base_url, healthy, other_gm, last) == list(range(1, last + 1))
    finally:
        service.close()


@pytest.mark.parametrize("setup_in", ["not JSON"], indirect=True)
def test_kiroku_audit_names_the_damaged_seq_and_exits_3(store: Store, setup_in: Setup) -> None:
    if "SQLITE_DBNAME" in store.env:
        args = ["--db", store.env["SQLITE_DBNAME"]]
    else:
        args = ["--database-url", _url_of(store.env)]
    env = {"PATH": "/usr/bin:/bin", "LANG": "en_US.UTF-8"}  # the English report
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "api.cli", "audit", setup_in.damaged, *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 3, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    assert f"Chain broken at event {DAMAGED_SEQ}" in result.stdout
    assert "PROBLEMS" in result.stdout
    assert time.monotonic() - started < 30

    rebuilt = subprocess.run(
        [sys.executable, "-m", "api.cli", "projections", "rebuild", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "Traceback" not in rebuilt.stderr
    assert f"game {setup_in.damaged} is stopped at event {DAMAGED_SEQ}" in rebuilt.stdout


def _url_of(env: dict[str, str]) -> str:
    user, host, port = env["POSTGRES_USER"], env["POSTGRES_HOST"], env["POSTGRES_PORT"]
    return f"postgresql://{user}@{host}:{port}/{env['POSTGRES_DBNAME']}?schema={env['POSTGRES_SCHEMA']}"


def test_a_damaged_game_does_not_stop_the_views_of_others(sqlite_env: dict[str, str]) -> None:
    """The projection runner, behind /view, folds every game in one sequence: a damaged row of
    one game is set aside and the others' views stay current, in this worker and the next."""
    store = _sqlite_store(sqlite_env)
    writer = bootstrap(env=sqlite_env)
    setup = two_games(writer, "not JSON", store)
    writer.close()
    for _restart in range(2):
        service = bootstrap(env=sqlite_env)
        try:
            with TestClient(create_app(service)) as client:
                healthy = client.get(
                    f"/games/{setup.healthy}/view",
                    headers=bearer(setup.tokens[setup.healthy]["gm"]),
                )
                assert healthy.status_code == 200 and healthy.json()["seq"] == 7
                damaged = client.get(
                    f"/games/{setup.damaged}/view",
                    headers=bearer(setup.tokens[setup.damaged]["gm"]),
                )
                assert problem_of(damaged, 500, "corrupt_event")["seq"] == DAMAGED_SEQ
        finally:
            service.close()
