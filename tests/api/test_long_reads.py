"""Reads of a whole game run in a separate process (api/longreads.py), in the small lane or,
for a big game, the big one, and answer alike in both and as the same functions in process:
`/verify` (with a witness), `/audit`, `/archive` and `/log.html` (for the GM and two seats)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api import longreads
from api.app import create_app
from api.cli import main
from api.pages import i18n
from api.pages.sessionlog import ARCHIVE_BLOCK, embedded_archive
from domain.application.service import GameService
from domain.model.authentication import Presented
from replay.archive import export_lines
from replay.audit import audit
from tests.table import Table


def _reads(client: TestClient, table: Table) -> dict[str, object]:
    gm = table.auth("gm")
    url = f"/games/{table.game_id}"
    head = client.get(url, headers=gm).headers["Kiroku-Head"].split()
    archive = client.get(f"{url}/archive", headers=gm)
    assert archive.status_code == 200
    header, *lines = archive.text.splitlines()
    return {
        "verify": client.get(f"{url}/verify", headers=gm).json(),
        "witness": client.get(
            f"{url}/verify", params={"seq": head[0], "hash": head[1]}, headers=gm
        ).json(),
        "wrong witness": client.get(
            f"{url}/verify", params={"seq": 2, "hash": "0" * 64}, headers=gm
        ).json(),
        "audit": client.get(f"{url}/audit", headers={**gm, "Accept-Language": "en"}).json(),
        "archive header": {k: v for k, v in json.loads(header).items() if k != "exported_at"},
        "archive": lines,
        "archive type": archive.headers["content-type"],
        **{
            f"log.html as {actor}": _log_page(client, table, actor)
            for actor in ("gm", "seat:1", "seat:2")
        },
    }


def _log_page(client: TestClient, table: Table, actor: str) -> tuple[int, str, str]:
    page = client.get(f"/games/{table.game_id}/log.html", headers=table.auth(actor))
    text = _without_export_time(page.text)
    return page.status_code, page.headers["content-security-policy"], text


def _without_export_time(text: str) -> str:
    """The embedded archive (unpacked) says when it was exported; all else must be the same."""
    if ARCHIVE_BLOCK.search(text):
        text = ARCHIVE_BLOCK.sub(lambda _match: embedded_archive(text), text)
    return re.sub(r'"exported_at": ?"[^"]*"', '"exported_at": ""', text)


def test_both_lanes_answer_as_the_reads_in_process(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    for n in range(6):
        table.do("seat:1", {"type": "roll", "expression": "2d6", "secret": n % 2 == 0})
    before_end = client.get(f"/games/{table.game_id}/audit", headers=table.auth("gm"))
    table.do("gm", {"type": "end"})
    longreads.shutdown()
    try:
        small = _reads(client, table)
        assert longreads.started() == {"small"}
        longreads.shutdown()
        monkeypatch.setattr(longreads, "BIG_EVENTS", 0)
        big = _reads(client, table)
        assert longreads.started() == {"big"}
        refused = client.get(
            f"/games/{table.game_id}/verify", params={"seq": 1}, headers=table.auth("gm")
        )
    finally:
        longreads.shutdown()
    assert big == small
    assert small["verify"]["ok"] is True  # type: ignore[index]
    in_process = list(export_lines(list(service.records(table.game_id))))
    assert small["archive"] == in_process[1:]  # the header says when it was exported
    report = audit(table.game_id, service.envelopes(table.game_id), service.bcdice.reevaluate)
    assert small["audit"] == report.read(i18n.Reader("en")).model_dump(mode="json")
    assert before_end.status_code == 409
    assert refused.status_code == 422 and refused.json()["code"] == "witness_incomplete"


def _niceness(service: GameService, game_id: str, audience: str) -> int:
    return os.nice(0)


def test_the_pool_process_runs_nicer_than_the_server(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long read takes a core for seconds; commands should get it first: the pool's process
    runs `KIROKU_LONG_READ_NICE` (default 10) nicer than the server."""
    table = Table.create(client)
    own = os.nice(0)
    for setting, added in ((None, 10), ("3", 3), ("0", 0)):
        if setting is None:
            monkeypatch.delenv("KIROKU_LONG_READ_NICE", raising=False)
        else:
            monkeypatch.setenv("KIROKU_LONG_READ_NICE", setting)
        create_app(service)  # the app's settings, parsed once, configure the pool
        longreads.shutdown()  # the next read starts a pool with this setting
        try:
            niceness = longreads.run(service, _niceness, table.game_id, Presented())
            assert niceness == min(own + added, 19)
        finally:
            longreads.shutdown()
    assert os.nice(0) == own  # the server itself is left as it was


@pytest.mark.parametrize("setting", ["20", "-1", "ten"])
def test_a_bad_niceness_stops_serve_with_its_reason(
    setting: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("KIROKU_LONG_READ_NICE", setting)
    for name in ("KIROKU_DB",):  # serve sets it for its workers: put back after
        monkeypatch.delenv(name, raising=False)
    assert main(["serve", "--db", str(tmp_path / "kiroku.db")]) == 2
    assert "KIROKU_LONG_READ_NICE must be a whole number" in capsys.readouterr().err


def test_a_game_the_worker_does_not_hold_is_authenticated_in_its_lane(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checking a token needs the game's credentials: for a game the worker does not hold,
    the lane's process checks them (loading the game there), so the worker never loads it;
    the answers and refusals are the same as for a game the worker holds."""
    table = Table.create(client, options={"spectators": False})
    table.join_all()
    table.do("gm", {"type": "start"})
    table.do("seat:1", {"type": "roll", "expression": "2d6", "secret": True})
    url = f"/games/{table.game_id}"
    asks: list[tuple[str, dict[str, str]]] = [
        ("verify", table.auth("gm")),
        ("verify", table.auth("seat:2")),
        ("verify", {"Authorization": "Bearer not-a-token"}),
        ("verify", {}),  # a private game: no spectators
        ("audit", table.auth("gm")),  # before the end
        ("log.html", table.auth("seat:1")),
        ("log.html", {"Authorization": "Bearer not-a-token"}),
    ]

    def answers() -> list[tuple[int, str, bytes]]:
        found = []
        for path, headers in asks:
            response = client.get(f"{url}/{path}", headers=headers)
            text = _without_export_time(response.content.decode()).encode()
            found.append((response.status_code, response.headers["content-type"], text))
        return found

    held = answers()
    assert [status for status, _, _ in held] == [200, 200, 401, 401, 409, 200, 401]

    monkeypatch.setattr(longreads, "BIG_EVENTS", 0)
    longreads.shutdown()
    try:
        service.games.forget(table.game_id)  # as a worker that has not read the game yet
        not_held = answers()
        assert longreads.started() == {"big"}  # read there
        assert service.games.cached(table.game_id) is None  # and never loaded here
    finally:
        longreads.shutdown()
    assert not_held == held
