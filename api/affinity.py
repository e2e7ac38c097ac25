"""Game→worker affinity (PostgreSQL, several workers): a game's commands go to its owner.

Each worker listens on a Unix socket of its own. A command the fast lane would take
(`api/routes/lean.py`: a Bearer token, a JSON body) for a game another worker owns
(`domain/ownership.py`: the one holding its owner lock) is handed to that worker over its
socket, which runs it through its own ASGI app — the same lane, the same declared route
behind it, the same error handlers — and sends back the status, headers and body, which are
relayed as they are. The owner decides on its cached state without reading what nobody else
wrote, and batches every command of the game in its group-commit writer. A worker that gets
a command for a game nobody owns takes the game.

Forwarding never risks a command:

- Not delivered (no socket, nobody listening, or the worker there no longer owns the game:
  it answers so before running anything): the command is sent again to whoever owns the
  game now, or this worker takes it.
- Lost (the owner stopped after it was sent, before answering): with an Idempotency-Key
  it is sent again (answered from the record if it was stored); without one nobody can tell,
  and it is answered 503 `owner_lost` — what a client of a worker that died mid-request
  learns, with the reason.
- After `ATTEMPTS` tries, or when the owner is on another host (a socket path is local), or
  the ownership session fails, the command runs here, under the game's write lock, as it
  did before owners: correctness never rests on ownership, only speed does.

`KIROKU_AFFINITY`: `auto` (default: with PostgreSQL and `kiroku serve --workers` above 1),
`on` (with PostgreSQL whatever the workers, e.g. several servers on one host), `off`.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import logging
import os
import shutil
import socket
import struct
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from starlette.types import ASGIApp, Message, Scope, Send

from api.errors import problem
from api.web import SECURITY_HEADERS
from domain.config import is_postgres
from domain.ownership import MINE, Owner, Ownership
from domain.repository import lock_key

log = logging.getLogger(__name__)

AFFINITY_ENV = "KIROKU_AFFINITY"
WORKERS_ENV = "KIROKU_WORKERS"  # set by `kiroku serve` for its workers
FORWARDED = "kiroku.forwarded"  # in the scope of a request another worker handed over
PREFIX = "kiroku-owner-"  # a worker's directory under the temporary one: its socket inside
SOCKET = "commands.sock"
ATTEMPTS = 5  # tries to reach a game's owner before running its command here
MAX_FRAME = 16 * 1024 * 1024
MAX_IDLE = 16  # connections kept open to each other worker
_LENGTH = struct.Struct(">I")
_RELAYED_OUT = {name for name, _value in SECURITY_HEADERS}  # this worker adds its own
T = TypeVar("T")
Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


def affinity_wanted(env: dict[str, str]) -> bool:
    """Is affinity on for a worker over this store? (`KIROKU_AFFINITY`, see the module.)"""
    mode = os.environ.get(AFFINITY_ENV, "").strip().lower() or "auto"
    if mode not in ("auto", "on", "off"):
        raise ValueError(f"{AFFINITY_ENV} must be auto, on or off, not {mode!r}")
    if mode == "off" or not is_postgres(env):
        return False
    if mode == "on":
        return True
    workers = os.environ.get(WORKERS_ENV, "").strip()
    return workers.isdigit() and int(workers) > 1


class NotDelivered(Exception):
    """The owner did not get the command: it may be sent elsewhere."""


class Lost(Exception):
    """The command was sent and the owner stopped before answering."""


class Affinity:
    """This worker's side of affinity: its socket server and the owners it knows of."""

    def __init__(self, app: ASGIApp, ownership: Ownership, directory: str) -> None:
        self._app = app
        self.ownership = ownership
        self._directory = directory
        self._owners: dict[int, Owner] = {}  # lock key → its owner elsewhere, as last found
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="kiroku-affinity")
        self._server: asyncio.AbstractServer | None = None
        self._idle: dict[str, list[Connection]] = {}  # address → connections kept for reuse
        self._waiting: set[asyncio.StreamWriter] = set()  # served connections between requests
        self._stopping = False
        self.forwarded = 0  # commands handed to other workers (figures for tests)
        self.served = 0  # commands other workers handed to this one

    @classmethod
    async def start(cls, app: Any) -> Affinity:
        """Listen on a socket private to this worker and open the ownership session."""
        directory = tempfile.mkdtemp(prefix=PREFIX)
        address = os.path.join(directory, SOCKET)
        service = app.state.service
        self = cls(app, Ownership(service.env, socket.gethostname(), address), directory)
        try:
            await self._db(_sweep)
            await self._db(self.ownership.create_table)
            self._server = await asyncio.start_unix_server(self._serve, path=address)
        except BaseException:
            await self.stop()
            raise
        service.games.owns = self.ownership.owns
        return self

    async def stop(self) -> None:
        """Stop taking commands (a request already running is answered), let go of every
        game, and close the connections kept to other workers."""
        self._stopping = True
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._waiting):  # between requests: the sender sees it closed
            writer.close()
        for connections in self._idle.values():
            for _reader, writer in connections:
                writer.close()
        self._idle.clear()
        with contextlib.suppress(Exception):
            await self._db(self.ownership.close)
        self._executor.shutdown(wait=False)
        shutil.rmtree(self._directory, ignore_errors=True)

    async def _db(self, call: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    # ------------------------------------------------------------------------- handing over

    async def hand_over(self, scope: Scope, body: bytes, send: Send) -> bool:
        """Send this command to its game's owner and relay the answer (True), or leave it to
        this worker (False): it owns the game, or the owner cannot be reached."""
        game_id: str = scope["path_params"]["game_id"]
        try:
            key = lock_key(game_id)
        except Exception:  # not a game id: the declared route says so
            return False
        keyed = any(name.lower() == b"idempotency-key" for name, _ in scope["headers"])
        for attempt in range(ATTEMPTS):
            if attempt:
                await asyncio.sleep(0.005 * attempt)
            owner = await self._owner(game_id, key)
            if owner is MINE:
                return False
            if owner is None:
                if self.ownership.full:
                    return False
                continue  # its owner has not recorded itself yet
            if owner.host != self.ownership.host:
                return False  # another machine's socket: the write lock instead
            try:
                status, headers, content = await self._forward(owner.address, scope, body)
            except NotDelivered:
                self._owners.pop(key, None)
                continue
            except Lost:
                self._owners.pop(key, None)
                if keyed:
                    continue  # answered from the record if the owner stored it
                await _owner_lost(scope, send)
                return True
            self.forwarded += 1
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": content})
            return True
        return False

    async def _owner(self, game_id: str, key: int) -> Owner | None:
        if self.ownership.owns(game_id):
            self.ownership.used(game_id)
            return MINE
        known = self._owners.get(key)
        if known is not None:
            return known
        try:
            owner = await self._db(lambda: self.ownership.claim(game_id))
        except Exception:
            log.warning("the ownership session failed; game %s is written here", game_id)
            return MINE  # run it here, as without affinity (the write lock, the version check)
        if owner is not None and owner is not MINE:
            self._owners[key] = owner
        return owner

    async def _forward(
        self, address: str, scope: Scope, body: bytes
    ) -> tuple[int, list[Any], bytes]:
        """The owner's answer to this request: status, headers (less those this worker's
        middleware adds again) and body. Over a connection kept from an earlier command when
        there is one still open, else a new one."""
        connection = self._take(address)
        if connection is None:
            try:
                connection = await asyncio.open_unix_connection(address)
            except OSError as error:  # no socket there, or nobody listening
                raise NotDelivered(address) from error
        reader, writer = connection
        done = False
        try:
            head = {
                "game_id": scope["path_params"]["game_id"],
                "http_version": scope.get("http_version", "1.1"),
                "scheme": scope.get("scheme", "http"),
                "path": scope["path"],
                "query_string": scope.get("query_string", b"").decode("latin-1"),
                "root_path": scope.get("root_path", ""),
                "headers": [
                    [k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]
                ],
                "client": list(scope["client"]) if scope.get("client") else None,
                "server": list(scope["server"]) if scope.get("server") else None,
            }
            writer.write(_frames(json.dumps(head).encode(), body))
            await writer.drain()
            reply = json.loads(await _read_frame(reader))
            content = await _read_frame(reader)
            done = True
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            raise Lost(address) from error
        finally:
            idle = self._idle.setdefault(address, [])
            if done and not self._stopping and len(idle) < MAX_IDLE:
                idle.append(connection)
            else:
                writer.close()
        if reply.get("not_owner"):
            raise NotDelivered(address)
        headers = [
            (k.encode("latin-1"), v.encode("latin-1"))
            for k, v in reply["headers"]
            if k.encode("latin-1").lower() not in _RELAYED_OUT
        ]
        return int(reply["status"]), headers, content

    def _take(self, address: str) -> Connection | None:
        """A kept connection to `address` that is still open (the owner closes them when it
        stops; a worker that died closed them too)."""
        idle = self._idle.get(address)
        while idle:
            reader, writer = idle.pop()
            if not reader.at_eof() and not writer.is_closing():
                return reader, writer
            writer.close()
        return None

    # ------------------------------------------------------------------------- serving

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One forwarding worker's connection: requests one after another, each answered
        before the next is read (the sender keeps the connection for its next command)."""
        try:
            while not self._stopping:
                self._waiting.add(writer)
                try:
                    head = json.loads(await _read_frame(reader))
                    body = await _read_frame(reader)
                finally:
                    self._waiting.discard(writer)
                if self._stopping or not self.ownership.owns(head["game_id"]):
                    writer.write(_frames(b'{"not_owner": true}', b""))  # nothing was run
                else:
                    self.served += 1
                    self.ownership.used(head["game_id"])
                    status, headers, content = await self._run(head, body)
                    reply = json.dumps({"status": status, "headers": _texts(headers)}).encode()
                    writer.write(_frames(reply, content))
                await writer.drain()
        except (OSError, asyncio.IncompleteReadError, ValueError, KeyError):
            pass  # the forwarding worker went away, or sent nonsense: nothing to answer
        finally:
            writer.close()

    async def _run(self, head: dict[str, Any], body: bytes) -> tuple[int, list[Any], bytes]:
        """The request through this worker's app, as if it had come here."""
        scope: Scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": head["http_version"],
            "method": "POST",
            "scheme": head["scheme"],
            "path": head["path"],
            "raw_path": head["path"].encode(),
            "query_string": head["query_string"].encode("latin-1"),
            "root_path": head["root_path"],
            "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in head["headers"]],
            "client": tuple(head["client"]) if head["client"] else None,
            "server": tuple(head["server"]) if head["server"] else None,
            "state": {},
            FORWARDED: True,
        }
        done = asyncio.Event()
        delivered = False
        started: Message | None = None
        chunks: list[bytes] = []

        async def receive() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            await done.wait()
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = message
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        try:
            await self._app(scope, receive, send)
        except Exception:
            if started is None:  # the app's own error handler answers before raising again
                log.exception("a command handed over for %s failed", head["path"])
                raise
        finally:
            done.set()
        assert started is not None
        return started["status"], list(started.get("headers", [])), b"".join(chunks)


async def _owner_lost(scope: Scope, send: Send) -> None:
    response = problem(
        503,
        "owner_lost",
        "The worker writing this game stopped before it answered: the command may or may "
        "not have been stored. Send it again with an Idempotency-Key to be sure it is "
        "stored once.",
        headers={"Retry-After": "1"},
    )

    await response(scope, nothing_to_read, send)


async def nothing_to_read() -> Message:
    """The `receive` of an answer given after the request's body was read."""
    return {"type": "http.disconnect"}


def _sweep() -> None:
    """Remove the socket directories of workers that died without stopping (killed): this
    user's, whose socket nobody listens on any more (a live worker's always accepts)."""
    for directory in glob.glob(os.path.join(tempfile.gettempdir(), PREFIX + "*")):
        path = os.path.join(directory, SOCKET)
        try:
            if os.stat(directory).st_uid != os.getuid() or not os.path.exists(path):
                continue  # another user's, or one whose worker is still starting
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                probe.setblocking(False)
                probe.connect(path)
        except ConnectionRefusedError:
            shutil.rmtree(directory, ignore_errors=True)
        except OSError:
            continue  # listening (a full backlog says so too), or gone already


def _texts(headers: list[tuple[bytes, bytes]]) -> list[list[str]]:
    return [[name.decode("latin-1"), value.decode("latin-1")] for name, value in headers]


def _frames(*parts: bytes) -> bytes:
    return b"".join(_LENGTH.pack(len(part)) + part for part in parts)


async def _read_frame(reader: asyncio.StreamReader) -> bytes:
    (length,) = _LENGTH.unpack(await reader.readexactly(_LENGTH.size))
    if length > MAX_FRAME:
        raise ValueError(f"a frame of {length} bytes")
    return await reader.readexactly(length)
