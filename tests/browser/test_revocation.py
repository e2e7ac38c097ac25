"""A seat's browser, signed out by the GM while its table is open, receives nothing more
(issue 34, item 1): neither the table page's own stream nor an EventSource the test holds open
in the same context gets a byte of the game after the revocation, and EventSource's own
reconnection is refused, so it stays closed. On SQLite and on PostgreSQL."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.audience import Audience
from tests.serverproc import KirokuServer

pytestmark = pytest.mark.slow

HOLD_A_STREAM = """(path) => {
  window.__seen = [];
  window.__source = new EventSource(path);
  window.__source.onmessage = (e) => window.__seen.push(e.data);
  for (const type of ["NoteWritten", "SessionsRevoked", "Declared"]) {
    window.__source.addEventListener(type, (e) => window.__seen.push(e.data));
  }
}"""


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[KirokuServer]:
    if request.param == "postgres":
        url = request.getfixturevalue("postgres_url")
        server = KirokuServer(database_url=url, env={"KIROKU_STREAM_HEARTBEAT": "0.5"})
    else:
        server = KirokuServer(db=tmp_path / "kiroku.db", env={"KIROKU_STREAM_HEARTBEAT": "0.5"})
    with server:
        yield server


def test_a_signed_out_browser_receives_nothing_more(browser: Any, any_server: KirokuServer) -> None:
    base = any_server.base_url
    with httpx.Client(base_url=base, timeout=10) as http:
        created = http.post("/games", json={"title": "Revocation", "seats": ["Aki", "Ben"]}).json()
        game_id, gm = created["game_id"], {"Authorization": f"Bearer {created['gm_token']}"}
        joined = http.post(
            f"/games/{game_id}/join", json={"invite": created["seats"][0]["invite"]}
        ).json()
        seat = {"Authorization": f"Bearer {joined['token']}"}
        session = http.post(f"/games/{game_id}/session", headers=seat).cookies[f"kiroku_{game_id}"]
        assert http.post(f"/games/{game_id}/commands", json={"type": "start"}, headers=gm)

        def note(mark: str) -> None:
            body = {"type": "note", "text": mark, "to": ["seat:1"]}
            sent = http.post(f"/games/{game_id}/commands", json=body, headers=gm)
            assert sent.status_code == 201, sent.text

        reader = Audience.open(browser, "seat:1")
        try:
            reader.context.add_cookies(
                [{"name": f"kiroku_{game_id}", "value": session, "url": base}]
            )
            reader.page.goto(f"{base}/g/{game_id}")
            reader.page.evaluate(HOLD_A_STREAM, f"/games/{game_id}/stream")
            before = f"BEFORE-{uuid.uuid4().hex}"
            note(before)
            reader.page.wait_for_function(
                "(mark) => window.__seen.some((d) => d.includes(mark))", arg=before, timeout=10000
            )
            assert before in reader.log_text() or any(before in m for m in reader.stream_messages)

            revoked = http.post(
                f"/games/{game_id}/commands",
                json={"type": "revoke_sessions", "audience": "seat:1"},
                headers=gm,
            )
            assert revoked.status_code == 201, revoked.text
            # Ended by the server, then EventSource's reconnection refused: closed for good.
            reader.page.wait_for_function("() => window.__source.readyState === 2", timeout=5000)
            after = f"AFTER-{uuid.uuid4().hex}"
            note(after)
            time.sleep(1.5)
            assert after not in reader.received()
            assert not any(after in d for d in reader.page.evaluate("() => window.__seen"))
        finally:
            reader.close()
