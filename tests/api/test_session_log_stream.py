"""GET /games/{id}/log.html is sent as it is written (a StreamingResponse; memory bounded
however long the game) and its bytes are those `kiroku log` writes for the same game."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api import longreads
from api.app import create_app
from api.cli import main
from api.pages.sessionlog import ARCHIVE_BLOCK, embedded_archive
from tests.samples import SAMPLES, imported


def _same_but_the_export_time(html: str) -> str:
    """The embedded archive (gzipped: its bytes follow its text) says when it was exported."""
    unpacked = ARCHIVE_BLOCK.sub(lambda _m: embedded_archive(html), html)
    return re.sub(r'"exported_at": ?"[^"]*"', '"exported_at": ""', unpacked)


@pytest.mark.parametrize("lane", ["small", "big"])
def test_the_streamed_log_is_the_clis_and_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lane: str
) -> None:
    sample = SAMPLES / "ninja-slayer-combat.jsonl"
    with imported(sample, tmp_path) as (service, game_id):
        if lane == "big":
            monkeypatch.setattr(longreads, "BIG_EVENTS", 0)
        longreads.shutdown()  # so that `started` tells which lane wrote it
        try:
            with (
                TestClient(create_app(service)) as client,
                client.stream(
                    "GET", f"/games/{game_id}/log.html", headers={"Accept-Language": "en-US"}
                ) as response,
            ):
                assert response.status_code == 200
                assert response.headers["content-type"] == "text/html; charset=utf-8"
                assert "content-length" not in response.headers  # sent as it is made
                assert response.headers["content-language"] == "en"  # the reader's language
                chunks = list(response.iter_raw())
            assert lane in longreads.started()  # written there
        finally:
            longreads.shutdown()
    assert len(chunks) > 1
    streamed = b"".join(chunks).decode("utf-8")
    out = tmp_path / "cli.html"
    # the terminal's language (the tests': English), as the reader's
    assert main(["log", game_id, "--db", str(tmp_path / "import.db"), "-o", str(out)]) == 0
    written = out.read_text(encoding="utf-8")
    assert '<html lang="en">' in written
    assert _same_but_the_export_time(streamed) == _same_but_the_export_time(written)
    archive = tmp_path / "embedded.jsonl"
    archive.write_text(embedded_archive(streamed) + "\n", encoding="utf-8")
    assert main(["audit", str(archive)]) == 0  # the file's archive verifies


def test_the_pools_file_is_removed_once_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[str] = []
    send = longreads._sent_then_removed

    def spied(path: str) -> Iterator[bytes]:
        sent.append(path)
        assert Path(path).is_file()
        return send(path)

    monkeypatch.setattr(longreads, "_sent_then_removed", spied)
    with imported(SAMPLES / "ninja-slayer-combat.jsonl", tmp_path) as (service, game_id):
        try:
            with TestClient(create_app(service)) as client:
                assert client.get(f"/games/{game_id}/log.html").status_code == 200
        finally:
            longreads.shutdown()
    assert len(sent) == 1 and not Path(sent[0]).exists()
