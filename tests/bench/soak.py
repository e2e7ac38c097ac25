"""Soak: mixed play on one worker for minutes, and whether its figures stay flat (issue 34).
Prints figures and a verdict; asserts nothing about speed.

    make soak                                          (10 minutes)
    python -m tests.bench.soak --minutes 10
    python -m tests.bench.soak --minutes 3 --interval 20   (a short try: 3 × 20 s)

One `kiroku serve` worker on a SQLite file; 16 tables of 4 seats in play at any time, as on a
server where tables come and go: each game is played to 400 commands, then its GM ends it and
a new table sits down in its place (the clients that followed it leave once they have its last
event; new ones follow the new game). Before the first interval the games are played to ages
spread evenly over that length (0, 25, 50 … 375 commands), as in the steady state, so that one
game ends about every 20 seconds. The game cache and the replay's warm histories are bounded at
5,000 events (`--cache-events`, `--replay-events`; the defaults, 150,000 and 100,000, would not
fill in ten minutes): more than the games in play hold (about 3,300 events), so ended games are
let go, and full by the second interval. Flat then means nothing grows beyond its bound. Then,
for the intervals:

- commands from all 16 games at a steady rate (declarations, open rolls, secret notes; keyed),
  each timed from send to 201;
- 100 SSE clients (the GM, seats and spectators spread over the games), each connection
  living a few seconds to half a minute before it drops and reconnects with Last-Event-ID;
- replays (`/replay?at=…` as a random audience) and session log exports (`/log.html`) at a
  lower rate.

Every other table signs in as a browser does: each of its seats and its GM exchanges the token
for a session cookie (`POST /games/{id}/session`) and sends its commands (with the page's
`X-Kiroku` header), streams and reads with that cookie alone; the other tables use bearer
tokens, as scripts and bots do.

Every interval (a minute by default) it prints the resident memory (VmRSS) of the server and
of the processes it started (BCDice's engine, the long reads' lanes of api/longreads.py and
their forkserver), the open file descriptors of them all, the commands' p50/p99 (and the p99
by the server's own histogram, `/metrics`: its time, without what this process took on the
shared cores), and the p99 stream lag (from a command's 201 to its event reaching each stream
that was open then). Flat: the last interval within 10 % of the second for each (the first is
warm-up). At the end: whether every client, across all its reconnections, received every
event of its game exactly once and in order.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from api.web import CSRF_HEADER, session_cookie
from tests.bench.common import add_csv_option, figures, machine, percentile, record
from tests.serverproc import KirokuServer

SEATS = 4
GAMES = 16
CLIENTS = 100
GAME_LENGTH = 400  # commands a game takes before its GM ends it and a new table sits down
FLAT = 0.10
# A latency within this of the second interval's counts as flat whatever the ratio: a 3 ms
# p99 becoming 3.4 ms is noise on a shared machine, not growth.
LATENCY_SLACK_MS = 2.0


@dataclass
class Client:
    game: str
    audience: str
    received: list[int] = field(default_factory=list)
    arrivals: dict[int, float] = field(default_factory=dict)
    open_since: list[tuple[float, float]] = field(default_factory=list)  # (opened, closed)
    connections: int = 0


@dataclass
class Interval:
    rss_kib: int  # the server's and its child processes'
    children_kib: int  # of which its child processes'
    fds: int
    latencies_ms: list[float]
    lags_ms: list[float] = field(default_factory=list)
    served_p99_ms: float = 0.0  # by the server's own histogram (/metrics)
    replays: int = 0
    exports: int = 0


@dataclass
class Table:
    game_id: str
    tokens: dict[str, str]
    sessions: dict[str, str] = field(default_factory=dict)  # a browser table's cookies

    def auth(self, actor: str) -> dict[str, str]:
        """What `actor`'s requests carry: its session cookie (and the page's header) at a
        browser table, else its bearer token; nothing for the public."""
        if actor in self.sessions:
            cookie = f"{session_cookie(self.game_id)}={self.sessions[actor]}"
            return {"Cookie": cookie, CSRF_HEADER: "1"}
        if actor in self.tokens:
            return {"Authorization": f"Bearer {self.tokens[actor]}"}
        return {}


def rss_kib(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:  # gone since it was listed
        return 0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def descendants(pid: int) -> list[int]:
    """The processes `pid` started, and theirs."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            children = Path(f"/proc/{pid}/task/{task}/children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            found += [child, *descendants(child)]
    return found


def open_fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def measured(pid: int, latencies: list[float]) -> Interval:
    """The server's and its child processes' memory and descriptors now."""
    children = descendants(pid)
    theirs = sum(rss_kib(child) for child in children)
    fds = sum(open_fds(p) for p in (pid, *children))
    return Interval(rss_kib(pid) + theirs, theirs, fds, latencies)


async def served_by_bound(http: httpx.AsyncClient) -> dict[float, float]:
    """The server's own count of commands answered within each bound of its latency histogram
    (`kiroku_command_seconds`, received to answered, all rulesets): what the server spent,
    without the time the soak's own process took to send and read on the shared cores."""
    counts: dict[float, float] = {}
    for family in text_string_to_metric_families((await http.get("/metrics")).text):
        if family.name == "kiroku_command_seconds":
            for sample in family.samples:
                if sample.name.endswith("_bucket"):
                    bound = float(sample.labels["le"])  # "+Inf" reads as inf
                    counts[bound] = counts.get(bound, 0.0) + sample.value
    return counts


def served_p99_ms(before: dict[float, float], after: dict[float, float]) -> float:
    """The least bound (ms) within which 99 % of the interval's commands were served."""
    deltas = {bound: after[bound] - before.get(bound, 0.0) for bound in after}
    total = deltas.get(float("inf"), 0.0)
    for bound in sorted(deltas):
        if total and deltas[bound] >= 0.99 * total:
            return bound * 1000
    return 0.0


async def new_table(http: httpx.AsyncClient, n: int) -> Table:
    seats = [f"P{s}" for s in range(1, SEATS + 1)]
    created = (await http.post("/games", json={"title": f"soak {n}", "seats": seats})).json()
    tokens = {"gm": created["gm_token"]}
    for seat in created["seats"]:
        joined = await http.post(
            f"/games/{created['game_id']}/join", json={"invite": seat["invite"]}
        )
        tokens[joined.json()["actor"]] = joined.json()["token"]
    table = Table(created["game_id"], tokens)
    if n % 2:  # a browser table: every seat and the GM signed in by cookie
        for actor, token in tokens.items():
            signed = await http.post(
                f"/games/{table.game_id}/session", headers={"Authorization": f"Bearer {token}"}
            )
            signed.raise_for_status()
            table.sessions[actor] = signed.cookies[session_cookie(table.game_id)]
        http.cookies.clear()  # each request carries its own actor's cookie
    started = await http.post(
        f"/games/{table.game_id}/commands", json={"type": "start"}, headers=table.auth("gm")
    )
    started.raise_for_status()
    return table


async def follow(
    http: httpx.AsyncClient,
    table: Table,
    client: Client,
    stop: asyncio.Event,
    finals: dict[str, int],
) -> None:
    """Connect, read for a while, drop; reconnect after the last seq received; until `stop`,
    or until the game has ended (`finals`: its last seq) and every event of it has arrived."""
    rng = random.Random(hash((client.game, client.audience, id(client))))

    def done() -> bool:
        final = finals.get(client.game)
        return stop.is_set() or (
            final is not None and bool(client.received) and client.received[-1] >= final
        )

    while not done():
        headers = table.auth(client.audience)
        if client.received:
            headers["Last-Event-ID"] = str(client.received[-1])
        lifetime = rng.uniform(5, 30)
        opened = time.monotonic()
        client.connections += 1
        try:
            async with asyncio.timeout(lifetime):
                async with http.stream(
                    "GET", f"/games/{table.game_id}/stream", headers=headers
                ) as response:
                    response.raise_for_status()
                    buffer = b""
                    async for chunk in response.aiter_raw():
                        now = time.monotonic()
                        buffer += chunk
                        while b"\n\n" in buffer:
                            block, buffer = buffer.split(b"\n\n", 1)
                            if block.startswith(b"id: "):
                                seq = int(block[4 : block.index(b"\n")])
                                client.received.append(seq)
                                client.arrivals.setdefault(seq, now)
                        if done():
                            return
        except TimeoutError:
            pass  # the client drops: a phone locked, a tab closed
        finally:
            client.open_since.append((opened, time.monotonic()))
        await asyncio.sleep(rng.uniform(0.1, 2.0))


def command(n: int) -> tuple[str, dict[str, Any]]:
    actor = f"seat:{n % SEATS + 1}"
    kind = n % 3
    if kind == 0:
        return actor, {"type": "declare", "text": f"soak line {n}"}
    if kind == 1:
        return actor, {"type": "roll", "expression": "2d6+1>=8", "entropy": f"s{n}"}
    return actor, {"type": "note", "text": f"secret {n}", "to": ["gm"]}


def verdict(name: str, second: float, last: float, slack: float = 0.0) -> str:
    if second <= 0:
        record(f"{name}, last interval", last, "", "flat: within 10 % of the second interval")
        return f"{name}: {second:g} → {last:g}"
    change = (last - second) / second
    flat = abs(change) <= FLAT or abs(last - second) <= slack
    record(
        f"{name}, last interval ÷ second", last / second, "×", "flat: within 10 % (0.9–1.1)", flat
    )
    return f"{name}: {second:.1f} → {last:.1f} ({change:+.1%}) {'flat' if flat else 'NOT flat'}"


@dataclass(frozen=True)
class Mix:
    minutes: float
    interval: float
    rate: float  # commands a second over all games
    clients: int = CLIENTS
    reads: bool = True  # replays and log exports


async def warm_up(http: httpx.AsyncClient, tables: list[Table]) -> list[int]:
    """Play the games to ages spread evenly over a game's length (0, 25, 50 … 375 commands),
    as a server's tables are in the steady state, side by side; how many each got."""
    played = [i * GAME_LENGTH // len(tables) for i in range(len(tables))]

    async def play(table: Table, count: int) -> None:
        for n in range(count):
            actor, body = command(n)
            response = await http.post(
                f"/games/{table.game_id}/commands", json=body, headers=table.auth(actor)
            )
            response.raise_for_status()

    await asyncio.gather(*(play(table, count) for table, count in zip(tables, played, strict=True)))
    return played


async def soak(server: KirokuServer, mix: Mix) -> None:
    minutes, interval, rate, clients_count, reads = (
        mix.minutes,
        mix.interval,
        mix.rate,
        mix.clients,
        mix.reads,
    )
    assert server.process is not None
    pid = server.process.pid
    limits = httpx.Limits(
        max_connections=clients_count + 50, max_keepalive_connections=clients_count + 50
    )
    stop = asyncio.Event()
    async with (
        httpx.AsyncClient(base_url=server.base_url, timeout=None, limits=limits) as readers,
        httpx.AsyncClient(base_url=server.base_url, timeout=60) as sender,
        httpx.AsyncClient(base_url=server.base_url, timeout=120) as reader,
    ):
        tables = [await new_table(sender, n) for n in range(GAMES)]
        started = time.monotonic()
        played = await warm_up(sender, tables)
        print(
            f"warm-up: {sum(played)} commands in {time.monotonic() - started:.0f} s;"
            f" RSS {measured(pid, []).rss_kib / 1024:.1f} MiB"
        )
        every_table = list(tables)  # the ended ones too
        audiences = ["gm", *(f"seat:{s}" for s in range(1, SEATS + 1)), "public"]
        finals: dict[str, int] = {}  # an ended game's last seq
        clients: list[Client] = []
        tasks: list[asyncio.Task[None]] = []

        def seat_clients(index: int) -> None:
            """The clients following table `index`: every GAMES-th of the 100."""
            for i in range(index, clients_count, GAMES):
                client = Client(tables[index].game_id, audiences[(i // GAMES) % len(audiences)])
                clients.append(client)
                tasks.append(
                    asyncio.create_task(follow(readers, tables[index], client, stop, finals))
                )

        for index in range(GAMES):
            seat_clients(index)
        print(
            f"\n{clients_count} clients following {GAMES} games;"
            f" RSS {measured(pid, []).rss_kib / 1024:.1f} MiB"
        )

        intervals: list[Interval] = []
        latencies: list[float] = []
        acked: list[tuple[str, int, float]] = []  # (game, seq, when its 201 arrived)
        counts = {"replays": 0, "exports": 0, "failures": 0, "dropped": 0}
        refusals: Counter[str] = Counter()  # what the answers that were not 200/201 said

        def refused(what: str, response: httpx.Response) -> None:
            counts["failures"] += 1
            try:
                code = response.json().get("code", "")
            except ValueError:
                code = ""
            refusals[f"{what} {response.status_code} {code}".rstrip()] += 1

        pending: set[asyncio.Task[None]] = set()

        in_flight: dict[str, set[asyncio.Task[None]]] = {t.game_id: set() for t in tables}
        rotations = [0]

        async def rotate(index: int) -> None:
            """The GM ends table `index` once its commands are answered; a new one sits down."""
            ended = tables[index]
            await asyncio.gather(*in_flight.pop(ended.game_id))
            answer = await sender.post(
                f"/games/{ended.game_id}/commands", json={"type": "end"}, headers=ended.auth("gm")
            )
            answer.raise_for_status()
            finals[ended.game_id] = answer.json()["last_seq"]
            tables[index] = await new_table(sender, len(every_table))
            every_table.append(tables[index])
            in_flight[tables[index].game_id] = set()
            played[index] = 0
            rotations[0] += 1
            seat_clients(index)

        async def send(n: int) -> None:
            table = tables[n % GAMES]
            actor, body = command(n)
            headers = {**table.auth(actor), "Idempotency-Key": f"k{n}"}
            started = time.perf_counter()
            try:
                response = await sender.post(
                    f"/games/{table.game_id}/commands", json=body, headers=headers
                )
            except httpx.HTTPError:  # e.g. a kept-alive connection the server just closed
                counts["dropped"] += 1
                return
            if response.status_code != 201:
                refused("command", response)
                return
            latencies.append((time.perf_counter() - started) * 1000)
            acked.append((table.game_id, response.json()["last_seq"], time.monotonic()))

        async def read_one(n: int) -> None:
            table = tables[n % GAMES]
            auth = table.auth("gm")
            if n % 5 == 4:  # one in five: the whole session log
                got = await reader.get(f"/games/{table.game_id}/log.html", headers=auth)
                counts["exports"] += got.status_code == 200
            else:
                audience = random.choice(audiences)
                last = max(1, len([a for a in acked if a[0] == table.game_id]))
                params: dict[str, str | int] = {"as": audience, "at": random.randint(1, last)}
                got = await reader.get(
                    f"/games/{table.game_id}/replay", params=params, headers=auth
                )
                counts["replays"] += got.status_code == 200
            if got.status_code != 200:
                refused("read", got)

        async def read(n: int) -> None:
            try:
                await read_one(n)
            except httpx.HTTPError:  # e.g. a kept-alive connection the server just closed
                counts["dropped"] += 1

        served = await served_by_bound(reader)
        began = time.monotonic()
        boundaries: list[float] = []
        next_mark = began + interval
        n = 0
        while time.monotonic() - began < minutes * interval:
            index = n % GAMES
            if played[index] >= GAME_LENGTH:
                await rotate(index)
            sending = asyncio.create_task(send(n))
            in_flight[tables[index].game_id].add(sending)
            sending.add_done_callback(in_flight[tables[index].game_id].discard)
            jobs = [
                sending,
                *([asyncio.create_task(read(n // 10))] if reads and n % 10 == 0 else []),
            ]
            for task in jobs:
                pending.add(task)
                task.add_done_callback(pending.discard)
            played[index] += 1
            n += 1
            await asyncio.sleep(max(0.0, began + n / rate - time.monotonic()))
            if time.monotonic() >= next_mark:
                intervals.append(measured(pid, latencies))
                served, before = await served_by_bound(reader), served
                intervals[-1].served_p99_ms = served_p99_ms(before, served)
                intervals[-1].replays, intervals[-1].exports = counts["replays"], counts["exports"]
                boundaries.append(next_mark)
                latencies = []
                next_mark += interval
        await asyncio.gather(*pending)
        await asyncio.sleep(2)  # the last events reach the streams
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

        # Stream lag, by the interval its command was acknowledged in, for the streams that
        # were connected at that moment.
        starts = [began, *boundaries]
        for game_id, seq, when in acked:
            at = next((i for i, b in enumerate(boundaries) if when < b), None)
            if at is None:
                continue
            for c in clients:
                if c.game != game_id or seq not in c.arrivals:
                    continue
                window = next(((o, e) for o, e in c.open_since if o <= when <= e), None)
                if window is not None and c.arrivals[seq] <= window[1]:  # not a catch-up
                    intervals[at].lags_ms.append(max(0.0, c.arrivals[seq] - when) * 1000)
        assert len(starts) == len(intervals) + 1

        lasts: dict[str, int] = {}
        for table in every_table:
            page = await reader.get(
                f"/games/{table.game_id}/events", params={"limit": 1}, headers=table.auth("gm")
            )
            lasts[table.game_id] = page.json()["last_seq"]

    complete = sum(1 for c in clients if c.received == list(range(1, (c.received or [0])[-1] + 1)))
    reached = sum(1 for c in clients if c.received and c.received[-1] == lasts[c.game])
    connections = sum(c.connections for c in clients)
    print(
        f"{n} commands at {rate:g}/s over {minutes:g} × {interval:g} s; {rotations[0]} games"
        f" ended and replaced; "
        f"{counts['replays']} replays, {counts['exports']} log exports; "
        f"{counts['failures']} not answered 200/201, {counts['dropped']} connections dropped; "
        f"{connections} stream connections"
    )
    if refusals:
        print("  not answered 200/201: " + ", ".join(f"{k} ×{v}" for k, v in refusals.items()))
    unit = "minute" if interval == 60 else f"{interval:g} s"
    print(
        f"\n  {unit:>8}  {'commands':>8}  {'p50 ms':>7}  {'p99 ms':>7}  {'served':>7}"
        f"  {'lag p99':>8}  {'RSS MiB':>8}  {'children':>8}  {'fds':>5}"
    )
    for i, part in enumerate(intervals, 1):
        values = part.latencies_ms or [0.0]
        lag = percentile(part.lags_ms, 0.99) if part.lags_ms else 0.0
        where = f"minute {i}" if interval == 60 else f"interval {i} of {interval:g} s"
        record(f"{where}: command p50", percentile(values, 0.5), "ms")
        record(f"{where}: command p99", percentile(values, 0.99), "ms")
        record(f"{where}: command p99 served, by /metrics (≤ its bucket)", part.served_p99_ms, "ms")
        record(f"{where}: stream lag p99", lag, "ms")
        record(f"{where}: RSS, server and its children", part.rss_kib / 1024, "MiB")
        record(f"{where}: RSS of its children", part.children_kib / 1024, "MiB")
        record(f"{where}: open file descriptors", part.fds, "")
        print(
            f"  {i:>8}  {len(part.latencies_ms):>8}  {percentile(values, 0.5):7.2f}"
            f"  {percentile(values, 0.99):7.2f}  {f'≤{part.served_p99_ms:g}':>7}"
            f"  {lag:8.2f}  {part.rss_kib / 1024:8.1f}"
            f"  {part.children_kib / 1024:8.1f}  {part.fds:>5}"
        )
    if len(intervals) >= 2:
        second, last = intervals[1], intervals[-1]

        def p99(values: list[float]) -> float:
            return percentile(values, 0.99) if values else 0.0

        print("\nflat (the last interval within 10 % of the second):")
        print(
            "  "
            + verdict("RSS MiB (server and children)", second.rss_kib / 1024, last.rss_kib / 1024)
        )
        print("  " + verdict("open fds", second.fds, last.fds))
        print(
            "  "
            + verdict("p99 ms", p99(second.latencies_ms), p99(last.latencies_ms), LATENCY_SLACK_MS)
        )
        print(
            "  " + verdict("lag p99 ms", p99(second.lags_ms), p99(last.lags_ms), LATENCY_SLACK_MS)
        )
    record(
        "clients that received every event exactly once, in order",
        complete,
        "clients",
        f"all {len(clients)}",
        complete == len(clients),
    )
    print(
        f"clients that received every event exactly once, in order, across reconnections: "
        f"{complete} of {len(clients)}; at their game's last event: {reached}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how many intervals")
    parser.add_argument("--interval", type=float, default=60.0, help="seconds in one")
    parser.add_argument("--rate", type=float, default=20.0, help="commands per second")
    parser.add_argument("--clients", type=int, default=CLIENTS, help="SSE clients (0: none)")
    parser.add_argument(
        "--no-reads", action="store_true", help="no replays or log exports (to find what grows)"
    )
    parser.add_argument("--cache-events", type=int, default=5_000, help="KIROKU_CACHE_EVENTS")
    parser.add_argument("--replay-events", type=int, default=5_000, help="KIROKU_REPLAY_EVENTS")
    add_csv_option(parser)
    args = parser.parse_args()
    print("Kiroku soak: mixed play on one worker (16 games, 100 clients coming and going)")
    machine("sqlite")
    print(
        f"  bounds     game cache {args.cache_events:,} events, replay histories"
        f" {args.replay_events:,} events"
    )
    mix = Mix(args.minutes, args.interval, args.rate, args.clients, not args.no_reads)
    with tempfile.TemporaryDirectory() as folder, figures("soak", args.csv):
        env = {
            "KIROKU_REDIS_URL": "",
            "KIROKU_LIMITS": "off",
            "KIROKU_CACHE_EVENTS": str(args.cache_events),
            "KIROKU_REPLAY_EVENTS": str(args.replay_events),
        }
        with KirokuServer(db=Path(folder) / "soak.db", workers=1, env=env) as server:
            asyncio.run(soak(server, mix))


if __name__ == "__main__":
    main()
