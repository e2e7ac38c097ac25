"""A client's connection moves to its game's owner (api/connections.py), with real `kiroku
serve` workers on PostgreSQL: after a relayed command the worker that accepted the connection
holds it no more, the owner does (read from /proc: which process has the socket), the same
TCP connection goes on answering, and nothing a client sent is lost or answered twice, even a
request whose first bytes were read before the first one was answered."""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.connections import SETTLE
from tests.serverproc import KirokuServer, group_members

pytestmark = pytest.mark.postgres

KEEP_ALIVE = 5  # uvicorn's default timeout_keep_alive, seconds
TRIES = 200  # connections opened to find some a worker other than the owner accepted


@pytest.fixture
def server(postgres_url: str) -> Iterator[KirokuServer]:
    with KirokuServer(database_url=postgres_url, workers=2, startup_timeout=120) as running:
        yield running


def command(game_id: str, token: str, body: dict[str, Any]) -> bytes:
    data = json.dumps(body).encode()
    head = (
        f"POST /games/{game_id}/commands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\n\r\n"
    )
    return head.encode() + data


def answers(sock: socket.socket, count: int) -> list[tuple[int, Any]]:
    """The next `count` responses on `sock`: status and JSON body."""
    buffer, out = b"", list[tuple[int, Any]]()
    while len(out) < count:
        while b"\r\n\r\n" not in buffer:
            buffer += _received(sock)
        head, _, rest = buffer.partition(b"\r\n\r\n")
        length_header = re.search(rb"(?im)^content-length: *(\d+)", head)
        assert length_header is not None, head
        length = int(length_header.group(1))
        while len(rest) < length:
            rest += _received(sock)
        out.append((int(head.split(b" ")[1]), json.loads(rest[:length])))
        buffer = rest[length:]
    assert buffer == b""
    return out


def _received(sock: socket.socket) -> bytes:
    chunk = sock.recv(65536)
    assert chunk, "the server closed the connection"
    return chunk


def connect(server: KirokuServer) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert answers(sock, 1) == [(200, {"status": "ok"})]  # accepted by a worker by now
    return sock


def holders(server: KirokuServer, sock: socket.socket) -> list[int]:
    """The server processes holding the server's side of this client connection."""
    client_port = sock.getsockname()[1]
    wanted = f":{server.port:04X}", f":{client_port:04X}"
    inodes = {
        fields[9]
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
        if (fields := line.split())[1].endswith(wanted[0]) and fields[2].endswith(wanted[1])
    }
    assert server.process is not None
    found = []
    for pid in group_members(server.process.pid):
        try:
            fds = list(Path(f"/proc/{pid}/fd").iterdir())
        except OSError:
            continue
        links = set()
        for fd in fds:
            try:
                links.add(fd.readlink().name)
            except OSError:
                continue
        if any(f"socket:[{inode}]" in links for inode in inodes):
            found.append(pid)
    return found


def held_by(server: KirokuServer, sock: socket.socket, pid: int) -> bool:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if holders(server, sock) == [pid]:
            return True
        time.sleep(0.01)
    return False


def new_game(server: KirokuServer) -> tuple[str, str, int]:
    """A started game; its id, the GM's token and its owner's pid."""
    sock = connect(server)
    with sock:
        data = json.dumps({"title": "Handed", "seats": ["A"]}).encode()
        sock.sendall(
            b"POST /games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(data)}\r\n\r\n".encode()
            + data
        )
        [(status, created)] = answers(sock, 1)
        assert status == 201, created
        game_id, gm = created["game_id"], created["gm_token"]
        sock.sendall(command(game_id, gm, {"type": "start"}))
        [(status, started)] = answers(sock, 1)
        assert status == 201, started
        (owner,) = holders(server, sock)  # the worker that ran the first command took the game
    return game_id, gm, owner


def elsewhere(server: KirokuServer, owner: int, count: int) -> list[socket.socket]:
    """`count` connections another worker than the game's owner accepted."""
    found: list[socket.socket] = []
    for _ in range(TRIES):
        sock = connect(server)
        if holders(server, sock) != [owner]:
            found.append(sock)
            if len(found) == count:
                return found
        else:
            sock.close()
    pytest.fail(f"the kernel gave all of {TRIES} connections to the owner")


def test_a_connection_moves_to_its_games_owner_and_goes_on(server: KirokuServer) -> None:
    game_id, gm, owner = new_game(server)
    connections = elsewhere(server, owner, 3)
    seqs: list[int] = []
    for n in range(6):
        for i, sock in enumerate(connections):
            sock.sendall(command(game_id, gm, {"type": "declare", "text": f"{i}.{n}"}))
            [(status, answer)] = answers(sock, 1)
            assert status == 201, answer
            assert answer["events"][0]["public"]["text"] == f"{i}.{n}"
            seqs.append(answer["last_seq"])
            if n + 1 < SETTLE:  # relayed: not handed over yet
                assert owner not in holders(server, sock)
            else:
                assert held_by(server, sock, owner), holders(server, sock)
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    for sock in connections:
        sock.close()


def test_a_handed_connection_left_idle_is_closed_as_any_other(server: KirokuServer) -> None:
    """Idle at the owner from the moment it is handed over, a connection is closed after
    uvicorn's keep-alive timeout, as one the owner had answered itself would be."""
    game_id, gm, owner = new_game(server)
    [sock] = elsewhere(server, owner, 1)
    with sock:
        for n in range(SETTLE):
            sock.sendall(command(game_id, gm, {"type": "declare", "text": f"once {n}"}))
            assert answers(sock, 1)[0][0] == 201
        assert held_by(server, sock, owner)
        sock.settimeout(KEEP_ALIVE + 5)
        assert sock.recv(1) == b""


def test_a_request_begun_before_the_answer_is_not_left_behind(server: KirokuServer) -> None:
    game_id, gm, owner = new_game(server)
    [sock] = elsewhere(server, owner, 1)
    with sock:
        for n in range(SETTLE - 1):  # the next one relayed would hand the connection over
            sock.sendall(command(game_id, gm, {"type": "declare", "text": f"warm {n}"}))
            assert answers(sock, 1)[0][0] == 201
        assert owner not in holders(server, sock)
        first = command(game_id, gm, {"type": "declare", "text": "first"})
        second = command(game_id, gm, {"type": "declare", "text": "second"})
        third = command(game_id, gm, {"type": "declare", "text": "third"})
        # the second request's first half in the same write as the first, the rest later;
        # the third whole, pipelined behind it
        sock.sendall(first + second[:20])
        time.sleep(0.3)
        sock.sendall(second[20:] + third)
        replies = answers(sock, 3)
        assert [status for status, _ in replies] == [201, 201, 201], replies
        texts = [reply["events"][0]["public"]["text"] for _, reply in replies]
        assert texts == ["first", "second", "third"]
        assert [reply["last_seq"] for _, reply in replies] == sorted(
            reply["last_seq"] for _, reply in replies
        )
        sock.sendall(command(game_id, gm, {"type": "declare", "text": "fourth"}))
        [(status, fourth)] = answers(sock, 1)
        assert status == 201 and fourth["events"][0]["public"]["text"] == "fourth"
        assert held_by(server, sock, owner)


def test_a_connection_to_games_of_two_owners_in_turn_stays(server: KirokuServer) -> None:
    games = [new_game(server)]
    for _ in range(TRIES):
        if (game := new_game(server))[2] != games[0][2]:
            games.append(game)
            break
    assert len(games) == 2, "every game went to one worker"
    with connect(server) as sock:
        (accepted,) = holders(server, sock)
        for n in range(4 * SETTLE):
            game_id, gm, _owner = games[n % 2]
            sock.sendall(command(game_id, gm, {"type": "declare", "text": f"turn {n}"}))
            assert answers(sock, 1)[0][0] == 201
            assert holders(server, sock) == [accepted]  # one game here, the other relayed
