"""A small Server-Sent Events client for the stream tests (and its own tests).

`Follower` reads one `/games/{id}/stream` in an asyncio task and keeps everything: the raw
bytes as they came off the wire (for leak checks), each message with its arrival time, and
the comments (heartbeats). Cancelling the task is how a client disconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import httpx

OPEN_TIMEOUT = 10.0


@dataclass(frozen=True)
class SseMessage:
    id: str | None
    event: str | None
    data: str
    received: float = 0.0  # time.monotonic() when its last byte arrived

    @property
    def seq(self) -> int:
        assert self.id is not None
        return int(self.id)

    def json(self) -> dict[str, Any]:
        return json.loads(self.data)


@dataclass
class SseParser:
    """Incremental parser for the subset Kiroku sends: LF line ends, one data line."""

    _buffer: bytes = b""
    comments: list[str] = field(default_factory=list)
    retry: int | None = None

    def feed(self, chunk: bytes, received: float = 0.0) -> list[SseMessage]:
        self._buffer += chunk
        messages: list[SseMessage] = []
        while b"\n\n" in self._buffer:
            block, self._buffer = self._buffer.split(b"\n\n", 1)
            fields: dict[str, list[str]] = {}
            for line in block.decode("utf-8").split("\n"):
                if line.startswith(":"):
                    self.comments.append(line[1:].strip())
                    continue
                name, _, value = line.partition(":")
                fields.setdefault(name, []).append(value.removeprefix(" "))
            if "retry" in fields:
                self.retry = int(fields["retry"][-1])
            if "data" in fields:
                messages.append(
                    SseMessage(
                        id=fields.get("id", [None])[-1],
                        event=fields.get("event", [None])[-1],
                        data="\n".join(fields["data"]),
                        received=received,
                    )
                )
        return messages


class Follower:
    """One client following a game's stream; use as `async with Follower(...) as follower`."""

    def __init__(
        self, client: httpx.AsyncClient, game_id: str, headers: dict[str, str] | None = None
    ) -> None:
        self.client = client
        self.path = f"/games/{game_id}/stream"
        self.headers = headers or {}
        self.status: int | None = None
        self.raw = bytearray()
        self.messages: list[SseMessage] = []
        self.parser = SseParser()
        self.ended = False  # the server closed the stream
        self.error: BaseException | None = None
        self._opened = asyncio.Event()
        self._news = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def seqs(self) -> list[int]:
        return [m.seq for m in self.messages]

    @property
    def last_seq(self) -> int:
        return self.messages[-1].seq if self.messages else 0

    async def open(self, params: dict[str, Any] | None = None) -> Follower:
        self._task = asyncio.create_task(self._read(params or {}))
        await asyncio.wait_for(self._opened.wait(), OPEN_TIMEOUT)
        if self.error is not None:
            raise self.error
        return self

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def __aenter__(self) -> Follower:
        return await self.open()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def _read(self, params: dict[str, Any]) -> None:
        try:
            async with self.client.stream(
                "GET", self.path, headers=self.headers, params=params
            ) as response:
                self.status = response.status_code
                if response.status_code != 200:
                    self.raw += await response.aread()
                    self._opened.set()
                    return
                async for chunk in response.aiter_raw():
                    self.raw += chunk
                    self.messages += self.parser.feed(chunk, time.monotonic())
                    self._opened.set()  # after the first chunk: the server has subscribed
                    self._news.set()
                self.ended = True
        except Exception as error:  # surfaced by open() or wait_for()
            self.error = error
        finally:
            self._opened.set()
            self._news.set()

    async def wait_for(self, seq: int, timeout: float = 10.0) -> None:
        """Until a message with id >= seq has arrived; fails with what did arrive."""
        await self.wait_until(lambda f: f.last_seq >= seq, timeout, f"seq {seq}")

    async def wait_until(
        self, predicate: Callable[[Follower], bool], timeout: float = 10.0, what: str = "it"
    ) -> None:
        deadline = time.monotonic() + timeout
        while not predicate(self):
            if self.error is not None or self.ended:
                raise AssertionError(f"stream ended ({self.error!r}) at {self.seqs}, before {what}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"waited {timeout}s for {what}; got {self.seqs}")
            self._news.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._news.wait(), remaining)


# ------------------------------------------------------------------------------ the parser


def test_parser_joins_chunks_split_anywhere() -> None:
    wire = (
        b"retry: 1000\n\n"
        b": keep-alive\n\n"
        b'id: 7\nevent: Declared\ndata: {"seq":7,"text":"a: b"}\n\n'
        b'id: 8\nevent: NoteWritten\ndata: {"seq":8}\n\n'
    )
    for size in (1, 3, 17, len(wire)):
        parser = SseParser()
        messages = []
        for start in range(0, len(wire), size):
            messages += parser.feed(wire[start : start + size])
        assert [(m.id, m.event, m.json()["seq"]) for m in messages] == [
            ("7", "Declared", 7),
            ("8", "NoteWritten", 8),
        ]
        assert messages[0].json()["text"] == "a: b"
        assert parser.comments == ["keep-alive"]
        assert parser.retry == 1000


def test_parser_keeps_an_unfinished_message_back() -> None:
    parser = SseParser()
    assert parser.feed(b'id: 1\nevent: X\ndata: {"seq":1}\n') == []
    assert [m.seq for m in parser.feed(b"\n")] == [1]
