"""`kiroku serve --workers 2` on SQLite, no Redis: streams on whichever worker the kernel gave
them all get every event (a worker learns of the other's appends by looking at the store); SIGTERM
with streams open ends them cleanly and stops the server at once, instead of uvicorn waiting
forever for responses that never finish by themselves.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from tests.api.test_stream_client import Follower
from tests.serverproc import KirokuServer, group_members

pytestmark = pytest.mark.slow

STREAMS = 6


def test_sigterm_ends_open_streams_and_stops_both_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("KIROKU_REDIS_URL", raising=False)
    env = {"KIROKU_STREAM_RECHECK": "0.2", "KIROKU_STREAM_HEARTBEAT": "15"}
    server = KirokuServer(db=tmp_path / "kiroku.db", workers=2, env=env)

    async def scenario() -> None:
        limits = httpx.Limits(max_connections=STREAMS + 2)
        async with httpx.AsyncClient(base_url=server.base_url, timeout=10, limits=limits) as http:
            created = await http.post("/games", json={"title": "Closing time", "seats": ["A"]})
            assert created.status_code == 201, created.text
            game_id, gm = created.json()["game_id"], created.json()["gm_token"]
            auth = {"Authorization": f"Bearer {gm}"}
            followers = [await Follower(http, game_id, auth).open() for _ in range(STREAMS)]
            last = 0
            for body in (
                {"type": "start"},
                *({"type": "declare", "text": f"{n}"} for n in range(3)),
            ):
                # A new connection per command, so the kernel may give it to either worker.
                async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as once:
                    response = await once.post(
                        f"/games/{game_id}/commands", json=body, headers=auth
                    )
                assert response.status_code == 201, response.text
                last = response.json()["last_seq"]
            await asyncio.gather(*(f.wait_for(last, timeout=5) for f in followers))

            pgid = server.process.pid if server.process else 0
            began = time.monotonic()
            await asyncio.to_thread(server.stop)
            stopped = time.monotonic() - began
            await asyncio.gather(
                *(f.wait_until(lambda f: f.ended, 5, "the end") for f in followers)
            )
            assert stopped < 3, f"stopping took {stopped:.1f}s"
            assert group_members(pgid) == []
            for follower in followers:
                assert follower.error is None
                assert follower.seqs == list(range(1, last + 1))

    try:
        server.start()
        asyncio.run(asyncio.wait_for(scenario(), 30))
    finally:
        server.stop()
    log = server.last_log
    assert log.count("Finished server process") == 2, log  # both workers exited by themselves
    stopping = log[log.index("Shutting down") :]
    assert "Traceback" not in stopping and "graceful shutdown exceeded" not in stopping, log
