"""Soak benchmark: many open streams and a steady command load on one worker, for minutes.
Prints figures; asserts nothing about speed.

    python -m tests.bench.soak                      (10 minutes, 200 streams, 20 commands/s)
    python -m tests.bench.soak --minutes 2 --rate 10

One `kiroku serve` worker on a SQLite file; 4 started games of 4 seats; 200 SSE streams over
them (the GM, every seat and spectators, 50 a game), all opened before the load starts; one
sender issuing keyed commands (declarations, open rolls, secret notes) round-robin over the
games at a fixed rate, each timed from send to 201. Every minute: the server's resident memory
(VmRSS) and the commands' p50/p99. At the end: whether every stream received every event of its
game exactly once and in order (by SSE id), after the load stops.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.bench.live import machine, percentile
from tests.serverproc import KirokuServer

SEATS = 4
GAMES = 4


@dataclass
class Stream:
    game: str
    audience: str
    seqs: list[int] = field(default_factory=list)


@dataclass
class Minute:
    rss_kib: int
    latencies_ms: list[float]


@dataclass
class Table:
    game_id: str
    tokens: dict[str, str]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def new_table(http: httpx.AsyncClient, n: int) -> Table:
    seats = [f"P{s}" for s in range(1, SEATS + 1)]
    created = (await http.post("/games", json={"title": f"soak {n}", "seats": seats})).json()
    tokens = {"gm": created["gm_token"]}
    for seat in created["seats"]:
        joined = await http.post(
            f"/games/{created['game_id']}/join", json={"invite": seat["invite"]}
        )
        tokens[joined.json()["actor"]] = joined.json()["token"]
    auth = {"Authorization": f"Bearer {tokens['gm']}"}
    await http.post(f"/games/{created['game_id']}/commands", json={"type": "start"}, headers=auth)
    return Table(created["game_id"], tokens)


async def follow(
    http: httpx.AsyncClient, table: Table, stream: Stream, opened: asyncio.Event
) -> None:
    token = table.tokens.get(stream.audience)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with http.stream("GET", f"/games/{table.game_id}/stream", headers=headers) as response:
        response.raise_for_status()
        buffer = b""
        async for chunk in response.aiter_raw():
            buffer += chunk
            opened.set()
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                if block.startswith(b"id: "):
                    stream.seqs.append(int(block[4 : block.index(b"\n")]))


def command(n: int) -> tuple[str, dict[str, Any]]:
    actor = f"seat:{n % SEATS + 1}"
    kind = n % 3
    if kind == 0:
        return actor, {"type": "declare", "text": f"soak line {n}"}
    if kind == 1:
        return actor, {"type": "roll", "expression": "2d6+1>=8", "entropy": f"s{n}"}
    return actor, {"type": "note", "text": f"secret {n}", "to": ["gm"]}


async def soak(server: KirokuServer, minutes: float, rate: float, streams: int) -> None:
    assert server.process is not None
    pid = server.process.pid
    limits = httpx.Limits(max_connections=streams + 50, max_keepalive_connections=streams + 50)
    async with (
        httpx.AsyncClient(base_url=server.base_url, timeout=None, limits=limits) as readers,
        httpx.AsyncClient(base_url=server.base_url, timeout=30) as sender,
    ):
        tables = [await new_table(sender, n) for n in range(GAMES)]
        audiences = ["gm", *(f"seat:{s}" for s in range(1, SEATS + 1)), "public"]
        followed = [
            (tables[i % GAMES], Stream(tables[i % GAMES].game_id, audiences[i % len(audiences)]))
            for i in range(streams)
        ]
        opened = [asyncio.Event() for _ in followed]
        tasks = [
            asyncio.create_task(follow(readers, table, stream, event))
            for (table, stream), event in zip(followed, opened, strict=True)
        ]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened)), 60)
        print(f"\n{streams} streams open on {GAMES} games; RSS {rss_kib(pid) / 1024:.1f} MiB")

        minutes_seen: list[Minute] = []
        latencies: list[float] = []
        failures = 0
        pending: set[asyncio.Task[None]] = set()

        async def send(n: int) -> None:
            nonlocal failures
            table = tables[n % GAMES]
            actor, body = command(n)
            headers = {"Authorization": f"Bearer {table.tokens[actor]}", "Idempotency-Key": f"k{n}"}
            started = time.perf_counter()
            response = await sender.post(
                f"/games/{table.game_id}/commands", json=body, headers=headers
            )
            if response.status_code != 201:
                failures += 1
            latencies.append((time.perf_counter() - started) * 1000)

        began = time.monotonic()
        next_minute = began + 60
        n = 0
        while time.monotonic() - began < minutes * 60:
            task = asyncio.create_task(send(n))
            pending.add(task)
            task.add_done_callback(pending.discard)
            n += 1
            await asyncio.sleep(max(0.0, began + n / rate - time.monotonic()))
            if time.monotonic() >= next_minute:
                minutes_seen.append(Minute(rss_kib(pid), latencies))
                latencies = []
                next_minute += 60
        await asyncio.gather(*pending)
        if latencies:
            minutes_seen.append(Minute(rss_kib(pid), latencies))

        # Every stream should now reach its game's last event.
        lasts = {}
        for table in tables:
            auth = {"Authorization": f"Bearer {table.tokens['gm']}"}
            page = await sender.get(
                f"/games/{table.game_id}/events", params={"limit": 1}, headers=auth
            )
            lasts[table.game_id] = page.json()["last_seq"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(
            (s.seqs[-1] if s.seqs else 0) < lasts[s.game] for _, s in followed
        ):
            await asyncio.sleep(0.2)
        complete = sum(1 for _, s in followed if s.seqs == list(range(1, lasts[s.game] + 1)))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    print(f"{n} commands sent at {rate:g}/s for {minutes:g} min; {failures} not answered 201")
    print(f"\n  {'minute':>6}  {'commands':>8}  {'p50 ms':>7}  {'p99 ms':>7}  {'RSS MiB':>8}")
    for i, minute in enumerate(minutes_seen, 1):
        values = minute.latencies_ms or [0.0]
        p50, p99 = percentile(values, 0.50), percentile(values, 0.99)
        print(
            f"  {i:>6}  {len(minute.latencies_ms):>8}  {p50:7.2f}  {p99:7.2f}"
            f"  {minute.rss_kib / 1024:8.1f}"
        )
    first, last = minutes_seen[0], minutes_seen[-1]
    print(
        f"\nRSS growth from the end of minute 1 to the end: "
        f"{(last.rss_kib - first.rss_kib) / 1024:+.1f} MiB"
    )
    events = sum(lasts.values())
    print(
        f"streams that received every event of their game exactly once, in order: "
        f"{complete} of {len(followed)} ({events} events in {GAMES} games)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=20.0, help="commands per second")
    parser.add_argument("--streams", type=int, default=200)
    args = parser.parse_args()
    print("Kiroku soak: open streams and a steady command load on one worker")
    machine("sqlite")
    with tempfile.TemporaryDirectory() as folder:
        env = {"KIROKU_REDIS_URL": ""}
        with KirokuServer(db=Path(folder) / "soak.db", workers=1, env=env) as server:
            asyncio.run(soak(server, args.minutes, args.rate, args.streams))


if __name__ == "__main__":
    main()
