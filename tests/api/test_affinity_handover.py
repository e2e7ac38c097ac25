"""Handing a command over (api/affinity.py) when the owner cannot answer, without a database:
an owner that is not there or no longer owns the game never gets the command, so it runs
here; one that stops after getting it leaves a keyed command to be sent again, and an
unkeyed one is answered 503 `owner_lost` (nobody can tell whether it was stored)."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest

from api.affinity import _HEADER, Affinity, _message
from domain.ownership import Owner

GAME = "3f1c7a52-5b1e-4f0e-9a55-3d2d3c6b7a10"


class StubOwnership:
    """Another worker owns every game, at `address`; nothing is read or written."""

    def __init__(self, address: str) -> None:
        self.host = socket.gethostname()
        self.address = "/nowhere/this.sock"
        self.full = False
        self.claims = 0
        self._owner = Owner(self.host, address)

    def owns(self, game_id: str) -> bool:
        return False

    def claim(self, game_id: str) -> Owner:
        self.claims += 1
        return self._owner

    def close(self) -> None:
        pass


def request(key: str | None) -> dict[str, Any]:
    headers = [(b"authorization", b"Bearer t"), (b"content-type", b"application/json")]
    if key is not None:
        headers.append((b"idempotency-key", key.encode()))
    return {
        "type": "http",
        "method": "POST",
        "path": f"/games/{GAME}/commands",
        "path_params": {"game_id": GAME},
        "headers": headers,
        "query_string": b"",
    }


async def hand_over(
    tmp_path: Path, owner: Any, key: str | None
) -> tuple[bool, list[dict[str, Any]], int, int]:
    """Run one hand-over against `owner` (a connection handler, or None: no socket at all).
    Returns whether it was answered, what was sent, how many requests reached the owner and
    how many times the owner was looked up."""
    address = str(tmp_path / "owner.sock")
    received = 0
    server = None
    if owner is not None:

        async def counting(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            nonlocal received
            try:
                number, head, body = _HEADER.unpack(await reader.readexactly(_HEADER.size))
                json.loads(await reader.readexactly(head))
                await reader.readexactly(body)
            except asyncio.IncompleteReadError:
                writer.close()
                return
            received += 1
            await owner(number, writer)

        server = await asyncio.start_unix_server(counting, path=address)
    ownership = StubOwnership(address)
    affinity = Affinity(None, ownership, str(tmp_path / "mine"))  # type: ignore[arg-type]
    sent: list[dict[str, Any]] = []

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    try:
        answered = await affinity.hand_over(request(key), b'{"type": "end"}', send)
    finally:
        await affinity.stop()
        if server is not None:
            server.close()
    return answered, sent, received, ownership.claims


async def stops_after_reading(number: int, writer: asyncio.StreamWriter) -> None:
    writer.close()  # as a worker killed after reading the command


async def fails_without_answering(number: int, writer: asyncio.StreamWriter) -> None:
    writer.write(_message(number, b'{"failed": true}', b""))
    await writer.drain()


async def no_longer_owns(number: int, writer: asyncio.StreamWriter) -> None:
    writer.write(_message(number, b'{"not_owner": true}', b""))
    await writer.drain()
    writer.close()


async def answers(number: int, writer: asyncio.StreamWriter) -> None:
    head = {"status": 201, "headers": [["content-type", "application/json"]]}
    writer.write(_message(number, json.dumps(head).encode(), b'{"ok": true}'))
    await writer.drain()
    writer.close()


def test_no_owner_listening_runs_the_command_here(tmp_path: Path) -> None:
    answered, sent, _received, claims = asyncio.run(hand_over(tmp_path, None, None))
    assert (answered, sent) == (False, [])  # never delivered: safe to run here
    assert claims >= 2  # the owner was looked up again after each failure (bounded)


def test_an_owner_that_no_longer_owns_the_game_runs_nothing(tmp_path: Path) -> None:
    answered, sent, received, _claims = asyncio.run(hand_over(tmp_path, no_longer_owns, None))
    assert (answered, sent) == (False, [])
    assert received >= 2


def test_a_lost_unkeyed_command_is_answered_owner_lost(tmp_path: Path) -> None:
    answered, sent, received, _claims = asyncio.run(hand_over(tmp_path, stops_after_reading, None))
    assert answered and received == 1  # never sent twice: it may have been stored
    assert sent[0]["status"] == 503
    headers = dict(sent[0]["headers"])
    assert headers[b"content-type"] == b"application/problem+json"
    assert headers[b"retry-after"] == b"1"
    assert json.loads(sent[1]["body"])["code"] == "owner_lost"


def test_a_command_the_owners_app_failed_is_answered_as_lost(tmp_path: Path) -> None:
    answered, sent, received, _claims = asyncio.run(
        hand_over(tmp_path, fails_without_answering, None)
    )
    assert answered and received == 1
    assert sent[0]["status"] == 503
    assert json.loads(sent[1]["body"])["code"] == "owner_lost"


def test_a_lost_keyed_command_is_sent_again_then_run_here(tmp_path: Path) -> None:
    answered, sent, received, _claims = asyncio.run(hand_over(tmp_path, stops_after_reading, "k"))
    # Each try may have been stored: the key makes the next one answer from the record.
    assert (answered, sent) == (False, []) and received >= 2


def test_an_owners_answer_is_relayed(tmp_path: Path) -> None:
    answered, sent, received, _claims = asyncio.run(hand_over(tmp_path, answers, None))
    assert answered and received == 1
    assert sent[0] == {
        "type": "http.response.start",
        "status": 201,
        "headers": [(b"content-type", b"application/json")],
    }
    assert sent[1] == {"type": "http.response.body", "body": b'{"ok": true}'}


@pytest.fixture(autouse=True)
def _short_unix_paths(tmp_path: Path) -> None:
    # A Unix socket path is limited to 107 bytes; pytest's tmp_path is usually shorter.
    assert len(str(tmp_path / "owner.sock")) < 100


def test_a_killed_workers_socket_directory_is_swept_a_live_ones_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    from api.affinity import PREFIX, SOCKET, _sweep

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead, live, starting = (tmp_path / f"{PREFIX}{name}" for name in ("dead", "live", "new"))
    for directory in (dead, live, starting):
        directory.mkdir()
    with socket.socket(socket.AF_UNIX) as gone:  # bound, never listening: a killed worker's
        gone.bind(str(dead / SOCKET))
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(live / SOCKET))
        listening.listen()
        _sweep()
    assert not dead.exists()
    assert live.exists() and starting.exists()


class OwnsEverything(StubOwnership):
    def owns(self, game_id: str) -> bool:
        return True

    def used(self, game_id: str) -> None:
        pass


async def echo_later(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An app answering each request with its own body, the later ones sooner."""
    body = (await receive())["body"]
    assert scope["kiroku.forwarded"]
    await asyncio.sleep(0.05 - 0.002 * int(json.loads(body)["n"]))
    await send({"type": "http.response.start", "status": 201, "headers": [(b"x-n", body)]})
    await send({"type": "http.response.body", "body": body})


def test_many_commands_share_one_connection_each_answered_with_its_own(tmp_path: Path) -> None:
    from api.affinity import Served

    async def run() -> tuple[list[list[dict[str, Any]]], int, int, int]:
        address = str(tmp_path / "owner.sock")
        owner = Affinity(echo_later, OwnsEverything(address), str(tmp_path / "o"))  # type: ignore[arg-type]
        connections = 0

        def served() -> Served:
            nonlocal connections
            connections += 1
            return Served(owner)

        server = await asyncio.get_running_loop().create_unix_server(served, path=address)
        forwarder = Affinity(None, StubOwnership(address), str(tmp_path / "f"))  # type: ignore[arg-type]
        replies: list[list[dict[str, Any]]] = [[] for _ in range(20)]

        async def one(n: int) -> None:
            async def send(message: MutableMapping[str, Any]) -> None:
                replies[n].append(dict(message))

            body = json.dumps({"n": n}).encode()
            assert await forwarder.hand_over(request(None), body, send)

        try:
            await asyncio.gather(*(one(n) for n in range(20)))
        finally:
            await forwarder.stop()
            await owner.stop()
            server.close()
        return replies, connections, forwarder.forwarded, owner.served

    replies, connections, forwarded, served = asyncio.run(run())
    assert (connections, forwarded, served) == (1, 20, 20)
    for n, (start, body) in enumerate(replies):
        expected = json.dumps({"n": n}).encode()
        assert start["status"] == 201 and start["headers"] == [(b"x-n", expected)]
        assert body["body"] == expected


def test_a_stopping_owner_answers_what_it_runs_and_runs_nothing_more(tmp_path: Path) -> None:
    from api.affinity import Served

    async def run() -> tuple[list[bool], list[int], bool, int]:
        address = str(tmp_path / "owner.sock")
        owner = Affinity(echo_later, OwnsEverything(address), str(tmp_path / "o"))  # type: ignore[arg-type]
        server = await asyncio.get_running_loop().create_unix_server(
            lambda: Served(owner), path=address
        )
        forwarder = Affinity(None, StubOwnership(address), str(tmp_path / "f"))  # type: ignore[arg-type]
        statuses: list[int] = []

        async def one(n: int) -> bool:
            async def send(message: MutableMapping[str, Any]) -> None:
                if message["type"] == "http.response.start":
                    statuses.append(message["status"])

            return await forwarder.hand_over(request(None), json.dumps({"n": n}).encode(), send)

        running = [asyncio.ensure_future(one(n)) for n in range(5)]
        while owner.served < 5:  # all five reached the owner and are running
            await asyncio.sleep(0.001)
        await owner.stop()
        answered = await asyncio.gather(*running)
        later = await one(9)  # the owner stopped: "not the owner", so it runs where it came
        await forwarder.stop()
        server.close()
        return answered, statuses, later, owner.served

    answered, statuses, later, served = asyncio.run(run())
    assert answered == [True] * 5 and statuses == [201] * 5
    assert later is False and served == 5
