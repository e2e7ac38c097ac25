"""Game→worker affinity (PostgreSQL, several workers): a game's commands go to its owner.

Each worker listens on a Unix socket of its own. A command the fast lane would take
(`api/routes/lean.py`: a Bearer token, a JSON body) for a game another worker owns
(`domain/ownership.py`: the one holding its owner lock) is handed to that worker over its
socket, which answers it with its own fast lane (or, when the lane leaves it to the
declared route, through its whole ASGI app) — the same lane, the same declared route behind
it, the same error handlers — and sends back the status, headers and body, which are
relayed as they are. The owner decides on its cached state without reading what nobody else
wrote, and batches every command of the game in its group-commit writer. A worker that gets
a command for a game nobody owns takes the game. Once a client's commands keep coming to one
owner, the client's connection itself is given to it (api/connections.py), and its later
commands reach the owner without being relayed.

Each worker keeps one connection to each other worker it hands commands to, carrying any
number of them at once, each answered by its number; what one side sends in a turn of its
event loop leaves in one write. The owner's writer settles a whole batch in one turn, so its
answers to a worker go back in one system call and one wake-up of that worker, not one each.

Forwarding never risks a command:

- Not delivered (no socket, nobody listening, or the worker there no longer owns the game:
  it answers so before running anything): the command is sent again to whoever owns the
  game now, or this worker takes it.
- An owner that stops gracefully answers what it runs and "not the owner" to anything
  after, and tells the workers connected to it, which send it nothing more: nothing is lost.
- Lost (the owner died after it was sent, before answering): with an Idempotency-Key
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
import itertools
import json
import logging
import os
import shutil
import socket
import struct
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple, Protocol, TypeVar, cast

from starlette.types import ASGIApp, Message, Scope, Send

from api.connections import CONNECTION, Handoff
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
MAX_MESSAGE = 16 * 1024 * 1024  # a request's or an answer's head and body together
_HEADER = struct.Struct(">III")  # a message: its number, its head's length, its body's length
_NOT_OWNER = b'{"not_owner": true}'  # answered before running anything: send it elsewhere
_FAILED = b'{"failed": true}'  # the app failed without answering: whether it stored is unknown
_STOPPING = 0xFFFFFFFF  # the number of an owner's notice that it stops: send it nothing more
GOODBYE_SECONDS = 1.0  # how long a stopping owner waits for the others to close their side
_RELAYED_OUT = {name for name, _value in SECURITY_HEADERS}  # this worker adds its own
T = TypeVar("T")


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


class Answer(NamedTuple):
    """A command's answer: its status, headers (less the security headers, which whoever
    sends it to the client adds) and body."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes


async def send_answer(answer: Answer, send: Send) -> None:
    await send({"type": "http.response.start", "status": answer.status, "headers": answer.headers})
    await send({"type": "http.response.body", "body": answer.body})


class Lane(Protocol):
    """The command route's fast lane (api/routes/lean.py), as an owner runs what it is handed."""

    async def answer(self, scope: Scope, body: bytes) -> Answer | None: ...


class NotDelivered(Exception):
    """The owner did not get the command: it may be sent elsewhere."""


class Lost(Exception):
    """The command was sent and the owner stopped before answering."""


class Affinity:
    """This worker's side of affinity: its socket server and the owners it knows of."""

    def __init__(self, app: ASGIApp, ownership: Ownership, directory: str) -> None:
        self._app = app
        self._lane: Lane | None = getattr(app, "lane", None)
        self.ownership = ownership
        self._directory = directory
        self._owners: dict[int, Owner] = {}  # lock key → its owner elsewhere, as last found
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="kiroku-affinity")
        self._server: asyncio.AbstractServer | None = None
        self._channels: dict[str, Channel] = {}  # address → the connection to that worker
        self._opening: dict[str, asyncio.Future[Channel]] = {}
        self.serving: set[Served] = set()  # other workers' connections to this one
        self.handoff: Handoff | None = None  # clients' connections given and taken
        self.stopping = False
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
            loop = asyncio.get_running_loop()
            self._server = await loop.create_unix_server(lambda: Served(self), path=address)
            self.handoff = Handoff(directory)
        except BaseException:
            await self.stop()
            raise
        service.games.owns = self.ownership.owns
        return self

    async def stop(self) -> None:
        """Stop taking commands: those already running are answered, any that come later are
        "not the owner" (sent elsewhere), and every worker connected is told so and closes its
        side once its commands are answered, so none is lost on the way; then let go of every
        game, and close the connections to other workers."""
        self.stopping = True
        if self._server is not None:
            self._server.close()
            self._server = None
        for served in list(self.serving):
            served.say_stopping()
        deadline = asyncio.get_running_loop().time() + GOODBYE_SECONDS
        while self.serving and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.005)
        for served in list(self.serving):  # a worker that did not close in time
            served.close()
        if self.handoff is not None:
            self.handoff.close()
            self.handoff = None
        for channel in self._channels.values():
            channel.close()
        self._channels.clear()
        with contextlib.suppress(Exception):
            await self._db(self.ownership.close)
        self._executor.shutdown(wait=False)
        shutil.rmtree(self._directory, ignore_errors=True)

    async def _db(self, call: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    # ------------------------------------------------------------------------- handing over

    def runs_here(self, scope: Scope) -> bool:
        """Does this worker own the command's game? Then it runs it: the common case,
        answered without a wait or a database read."""
        game_id: str = scope["path_params"]["game_id"]
        if not self.ownership.owns(game_id):
            return False
        self.ownership.used(game_id)
        self._ran_here(scope)
        return True

    async def hand_over(self, scope: Scope, body: bytes, send: Send) -> bool:
        """Send this command to its game's owner and relay the answer (True), or leave it to
        this worker (False): it owns the game, or the owner cannot be reached."""
        relayed = await self._relay(scope, body, send)
        if not relayed:
            self._ran_here(scope)
        return relayed

    def _ran_here(self, scope: Scope) -> None:
        if self.handoff is not None:  # its connection's run of relayed commands is over
            self.handoff.ran_here(scope.get(CONNECTION))

    async def _relay(self, scope: Scope, body: bytes, send: Send) -> bool:
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
                answer = await self._forward(owner.address, scope, body)
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
            await send_answer(answer, send)
            if self.handoff is not None:  # later commands on it: straight to the owner
                self.handoff.give(scope.get(CONNECTION), owner.address)
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

    async def _forward(self, address: str, scope: Scope, body: bytes) -> Answer:
        """The owner's answer to this request: status, headers (less those this worker's
        middleware adds again) and body."""
        channel = await self._channel(address)
        head = {
            "game_id": scope["path_params"]["game_id"],
            "http_version": scope.get("http_version", "1.1"),
            "scheme": scope.get("scheme", "http"),
            "path": scope["path"],
            "query_string": scope.get("query_string", b"").decode("latin-1"),
            "root_path": scope.get("root_path", ""),
            "headers": _texts(scope["headers"]),
            "client": list(scope["client"]) if scope.get("client") else None,
            "server": list(scope["server"]) if scope.get("server") else None,
        }
        raw, content = await channel.ask(json.dumps(head).encode(), body)
        if raw == _NOT_OWNER:
            raise NotDelivered(address)
        if raw == _FAILED:
            raise Lost(address)
        try:
            reply = json.loads(raw)
            headers = [
                (k.encode("latin-1"), v.encode("latin-1"))
                for k, v in reply["headers"]
                if k.encode("latin-1").lower() not in _RELAYED_OUT
            ]
            return Answer(int(reply["status"]), headers, content)
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise Lost(address) from error  # not an answer: whether it ran is unknown

    async def _channel(self, address: str) -> Channel:
        """The open connection to the worker at `address`, opened once however many
        commands ask for it at the same moment."""
        channel = self._channels.get(address)
        if channel is not None and not channel.closed:
            return channel
        opening = self._opening.get(address)
        if opening is None:
            opening = asyncio.ensure_future(self._open(address))
            self._opening[address] = opening
            opening.add_done_callback(lambda _done: self._opening.pop(address, None))
        return await asyncio.shield(opening)

    async def _open(self, address: str) -> Channel:
        try:
            _transport, channel = await asyncio.get_running_loop().create_unix_connection(
                Channel, address
            )
        except OSError as error:  # no socket there, or nobody listening
            raise NotDelivered(address) from error
        if self.stopping:
            channel.close()
            raise NotDelivered(address)
        self._channels[address] = channel
        return channel

    # ------------------------------------------------------------------------- serving

    def answer(self, game_id: str) -> bool:
        """Is this worker to run a command of `game_id` handed to it? (Else it answers "not
        the owner", having run nothing.)"""
        if self.stopping or not self.ownership.owns(game_id):
            return False
        self.served += 1
        self.ownership.used(game_id)
        return True

    async def run(self, head: dict[str, Any], body: bytes) -> Answer:
        """The request's answer from this worker's fast lane, or through its whole app when
        the lane leaves it to the declared route, as if it had come here."""
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
        if self._lane is not None:
            answer = await self._lane.answer(
                {**scope, "app": self._app, "path_params": {"game_id": head["game_id"]}}, body
            )
            if answer is not None:
                return answer
        return await self._through_app(scope, body)

    async def _through_app(self, scope: Scope, body: bytes) -> Answer:
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
                log.exception("a command handed over for %s failed", scope["path"])
                raise
        finally:
            done.set()
        assert started is not None
        return Answer(started["status"], list(started.get("headers", [])), b"".join(chunks))


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


def _message(number: int, head: bytes, body: bytes) -> bytes:
    return _HEADER.pack(number, len(head), len(body)) + head + body


class Messages:
    """Messages cut out of what a connection receives, in whatever pieces it comes."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[tuple[int, bytes, bytes]]:
        """The messages `data` completes: (number, head, body) each. Raises ValueError for one
        over `MAX_MESSAGE` (the other side is not a Kiroku worker, or is broken)."""
        buffer = self._buffer
        buffer += data
        found = []
        start = 0
        while len(buffer) - start >= _HEADER.size:
            number, head, body = _HEADER.unpack_from(buffer, start)
            if head + body > MAX_MESSAGE:
                raise ValueError(f"a message of {head + body} bytes")
            begin = start + _HEADER.size
            end = begin + head + body
            if len(buffer) < end:
                break
            found.append(
                (number, bytes(buffer[begin : begin + head]), bytes(buffer[begin + head : end]))
            )
            start = end
        del buffer[:start]
        return found


class Outbox:
    """What a connection sends in one turn of the event loop, in one write: one system call,
    and one wake-up of the other side, for a whole batch of answers or of requests."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport
        self._pending: list[bytes] = []

    def send(self, message: bytes) -> None:
        if not self._pending:
            asyncio.get_running_loop().call_soon(self._flush)
        self._pending.append(message)

    def _flush(self) -> None:
        pending, self._pending = self._pending, []
        if not self._transport.is_closing():
            self._transport.write(b"".join(pending))


class _Link(asyncio.Protocol):
    """A connection between two workers: numbered messages in, written out a turn at a time."""

    def __init__(self) -> None:
        self._transport: asyncio.Transport | None = None
        self._outbox: Outbox | None = None
        self._messages = Messages()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)  # uvloop's are not subclasses
        self._outbox = Outbox(self._transport)

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()


class Channel(_Link):
    """This worker's connection to another one: commands handed over on it, any number at a
    time, each answered by its number."""

    def __init__(self) -> None:
        super().__init__()
        self._numbers = itertools.count()
        self._waiting: dict[int, asyncio.Future[tuple[bytes, bytes]]] = {}
        self.closed = False

    async def ask(self, head: bytes, body: bytes) -> tuple[bytes, bytes]:
        """The answer's head and body. Raises NotDelivered when the connection was closed
        before sending, Lost when it closes before the answer."""
        if self.closed or self._outbox is None:
            raise NotDelivered("closed")
        number = next(self._numbers) % _STOPPING  # 32 bits, never the notice's
        answer: asyncio.Future[tuple[bytes, bytes]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = answer
        self._outbox.send(_message(number, head, body))
        try:
            return await answer
        finally:
            self._waiting.pop(number, None)

    def data_received(self, data: bytes) -> None:
        try:
            answers = self._messages.feed(data)
        except ValueError:
            self.close()
            return
        for number, head, body in answers:
            if number == _STOPPING:
                self.closed = True  # nothing more is sent on it; closed once answered
            answer = self._waiting.pop(number, None)
            if answer is not None and not answer.done():
                answer.set_result((head, body))
        if self.closed and not self._waiting:
            self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        for answer in self._waiting.values():
            if not answer.done():
                answer.set_exception(Lost("the connection closed"))
        self._waiting.clear()

    def close(self) -> None:
        self.closed = True
        super().close()


class Served(_Link):
    """Another worker's connection to this one: each command run as it comes, its answer
    sent back under its number as soon as it is ready."""

    def __init__(self, affinity: Affinity) -> None:
        super().__init__()
        self._affinity = affinity
        self._running: set[asyncio.Task[None]] = set()  # held here until answered

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._affinity.serving.add(self)

    def data_received(self, data: bytes) -> None:
        assert self._outbox is not None
        try:
            requests = self._messages.feed(data)
            for number, raw, body in requests:
                head = json.loads(raw)
                if not self._affinity.answer(head["game_id"]):
                    self._outbox.send(_message(number, _NOT_OWNER, b""))  # nothing was run
                    continue
                task = asyncio.ensure_future(self._run(number, head, body))
                self._running.add(task)
                task.add_done_callback(self._running.discard)
        except (ValueError, KeyError, TypeError):
            self.close()  # not a Kiroku worker, or a broken one: nothing to answer

    async def _run(self, number: int, head: dict[str, Any], body: bytes) -> None:
        assert self._outbox is not None
        try:
            status, headers, content = await self._affinity.run(head, body)
        except Exception:  # logged by `run`; the other worker answers as for a lost owner
            self._outbox.send(_message(number, _FAILED, b""))
            return
        reply = json.dumps({"status": status, "headers": _texts(headers)}).encode()
        self._outbox.send(_message(number, reply, content))

    def say_stopping(self) -> None:
        """Tell the other worker this one stops: it sends nothing more and closes its side
        once what it sent is answered (running commands here, "not the owner" after)."""
        assert self._outbox is not None
        self._outbox.send(_message(_STOPPING, b"{}", b""))

    def connection_lost(self, exc: Exception | None) -> None:
        self._affinity.serving.discard(self)
