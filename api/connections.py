"""A client's connection handed to the worker that owns its game (with affinity).

A worker that relays a command to its game's owner (api/affinity.py) would relay every later
command on the same connection too: each one read, sent, answered and sent back by two
processes, and the owner's loop busier for it than if the client had reached it directly.
So once a connection's commands have gone to one owner `SETTLE` times in a row, when the
relayed answer is sent and the connection is idle — nothing of a next request read yet,
nothing left to write — the worker gives the connection itself to the owner: its descriptor,
over a datagram Unix socket beside the owner's command socket (SCM_RIGHTS), and lets go of
it. The owner adopts it as if it had accepted it, and the client's later requests on it reach
the owner directly, as on one worker. The client sees nothing: the same TCP connection,
answered by another worker of the same `kiroku serve` (`SERVER_ENV`: never a process of
another server on the host). A connection whose commands go to games of several owners in
turn (a bot for many tables) stays where it is, its commands relayed.

This extends uvicorn's httptools protocol (`HandingProtocol`, which `kiroku serve` runs with
affinity) by what it takes to see that a connection is idle; a connection that is not idle,
not plain HTTP/1.1 kept alive, or that the owner's socket does not take, stays where it is.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import functools
import logging
import os
import socket
from collections.abc import Callable
from typing import Any, cast

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

log = logging.getLogger(__name__)

CONNECTION = "kiroku.connection"  # the scope's key for the connection a request came on
# Set by `kiroku serve` for its workers: connections move between workers of one server only
# (one listening socket, one configuration), never to another server on the same host.
SERVER_ENV = "KIROKU_SERVER_ID"
_TAG = b"kiroku-connection"  # what a handed connection's datagram says, beside its descriptor
# Relayed commands in a row to one owner before the connection follows them: a client whose
# commands go to games of several owners (a bot for many tables) is not handed back and forth.
SETTLE = 3

# The protocol this worker's server builds for a connection it accepts, set by the first one:
# what an adopted connection is served with.
_serving: Callable[[], asyncio.Protocol] | None = None


def _inbox_path(directory: str) -> str:
    """A worker's socket for connections, beside its command socket (api/affinity.py)."""
    return os.path.join(directory, f"connections-{os.environ.get(SERVER_ENV, 'none')}.sock")


class HandingProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol, telling whether its connection is idle and letting go of
    it (`Handoff.give`). Each request's scope carries it under `CONNECTION`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        global _serving
        if _serving is None:
            _serving = functools.partial(type(self), *args, **kwargs)
        self._begun = 0  # requests whose first byte was read
        self._answered = 0  # requests whose answer was written
        self._relayed_to: str | None = None  # the owner the last relayed command went to
        self._in_a_row = 0  # … and how many went there in a row

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._begun += 1
        cast(dict[str, Any], self.scope)[CONNECTION] = self

    def on_response_complete(self) -> None:
        self._answered += 1
        super().on_response_complete()

    def relayed(self, owner_address: str | None) -> int:
        """Count a command relayed to that owner (None: run here); how many in a row went
        there."""
        if owner_address is not None and owner_address == self._relayed_to:
            self._in_a_row += 1
        else:
            self._relayed_to, self._in_a_row = owner_address, int(owner_address is not None)
        return self._in_a_row

    def idle(self) -> bool:
        """Every request read so far is answered and written, and the client keeps the
        connection open: nothing of it is in this process but the socket."""
        transport = self.transport
        return (
            transport is not None
            and not transport.is_closing()
            and self.scheme == "http"
            and self._begun == self._answered
            and not self.pipeline
            and self.cycle is not None
            and self.cycle.response_complete
            and self.cycle.keep_alive
            and transport.get_write_buffer_size() == 0
        )

    def descriptor(self) -> int | None:
        """A copy of the idle connection's descriptor, reading paused; None if not idle."""
        if not self.idle():
            return None
        raw = self.transport.get_extra_info("socket")
        if raw is None:
            return None
        self.transport.pause_reading()
        try:
            return os.dup(raw.fileno())
        except OSError:
            self.transport.resume_reading()
            return None

    def wait_for_the_next_request(self) -> None:
        """An adopted connection is kept alive as uvicorn keeps one between requests: closed
        if no request comes within its keep-alive timeout."""
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

    def keep(self) -> None:
        """The copy was not taken: go on serving the connection here."""
        self.transport.resume_reading()

    def let_go(self) -> None:
        """The copy was taken: close this process's descriptor only (a close, unlike a
        shutdown, ends nothing while another process holds the connection)."""
        if self.timeout_keep_alive_task is not None:
            self.timeout_keep_alive_task.cancel()
            self.timeout_keep_alive_task = None
        self.transport.close()


class Handoff:
    """This worker's datagram socket for connections handed to it, and its side of giving."""

    def __init__(self, directory: str) -> None:
        self.path = _inbox_path(directory)
        self._loop = asyncio.get_running_loop()
        self._inbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._outbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._adopting: set[asyncio.Task[Any]] = set()
        try:
            self._inbox.bind(self.path)
            self._inbox.setblocking(False)
            self._outbox.setblocking(False)
            self._loop.add_reader(self._inbox.fileno(), self._receive)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._loop.remove_reader(self._inbox.fileno())
        self._inbox.close()
        self._outbox.close()

    def give(self, connection: Any, owner_address: str) -> bool:
        """Hand `connection` (a request's `CONNECTION`) to the worker whose command socket is
        `owner_address`, once `SETTLE` commands in a row went there, if it is idle and that
        worker's socket takes it."""
        if not isinstance(connection, HandingProtocol):
            return False
        if connection.relayed(owner_address) < SETTLE:
            return False
        descriptor = connection.descriptor()
        if descriptor is None:
            return False
        path = _inbox_path(os.path.dirname(owner_address))
        try:
            rights = array.array("i", [descriptor])
            self._outbox.sendmsg([_TAG], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, rights)], 0, path)
        except OSError:  # gone, or its queue full: serve the connection here
            connection.keep()
            return False
        finally:
            os.close(descriptor)  # the datagram holds its own while it is on its way
        connection.let_go()
        return True

    def ran_here(self, connection: Any) -> None:
        """A command on `connection` ran in this worker: its run of relayed ones is over."""
        if isinstance(connection, HandingProtocol):
            connection.relayed(None)

    def _receive(self) -> None:
        while True:
            try:
                message, descriptors, _flags, _address = socket.recv_fds(self._inbox, 64, 8)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                log.exception("reading a handed connection failed")
                return
            for descriptor in descriptors:
                self._adopt(descriptor, message == _TAG)

    def _adopt(self, descriptor: int, tagged: bool) -> None:
        try:
            connection = socket.socket(fileno=descriptor)
        except OSError:
            os.close(descriptor)
            return
        if (
            not tagged
            or _serving is None
            or connection.type != socket.SOCK_STREAM
            or connection.family not in (socket.AF_INET, socket.AF_INET6)
        ):
            connection.close()  # not a client's connection from a worker of this server
            return
        connection.setblocking(False)
        task = self._loop.create_task(self._serve(connection))
        self._adopting.add(task)
        task.add_done_callback(self._adopting.discard)

    async def _serve(self, connection: socket.socket) -> None:
        assert _serving is not None
        try:
            _transport, protocol = await self._loop.connect_accepted_socket(_serving, connection)
        except Exception:
            log.warning("a handed connection could not be served", exc_info=True)
            connection.close()
            return
        # the transport owns the socket now
        if isinstance(protocol, HandingProtocol):  # idle between requests, as it was given
            protocol.wait_for_the_next_request()
