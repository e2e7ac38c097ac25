"""Kiroku write-path benchmark: every figure of the write path in one paired run, each printed
beside its target. It asserts nothing; the README's performance section quotes it.

    python -m tests.bench.write_path              (or `make bench`)
    python -m tests.bench.write_path --quick      (shorter runs, smaller games)
    python -m tests.bench.write_path --no-callgrind --no-postgres

The load comes from `wrk` (a separate C process, installed by `make bench`), never from
Python clients sharing the server's cores. In one run, on one disk:

  (a) the store's ceilings: the disk's fsync rate; raw `eventsourcing` one-event puts/s and
      batched puts/s (32 per transaction) on a SQLite file; `GameService.execute`/s;
  (b) HTTP roll commands/s, p50/p99: `kiroku serve` (1 worker, SQLite file) with 1 game × 4
      connections and 16 games × 64 connections (each game started on a connection of its
      own, each wrk connection keeping to one game); the ratio to raw one-event puts;
  (c) PostgreSQL (127.0.0.1:5432/test, a fresh schema): 1 and 4 workers, 1 game × 4
      connections and 16 games × 64;
  (d) instructions per command (callgrind, ASGI called directly, no network) for the HTTP
      route and for `GameService.execute` alone, and the framework glue's share;
  (e) the cost of a command at 1k, 10k and 100k events (median and worst of 200); at each
      size, round by round, the worst command while a due snapshot is written against the
      worst just before, for bucket rows (what is written now), bucket rows with every bucket
      written, and the one-row form before them; the memory a cached event costs, with the
      RSS it implies for 1,000 active 10k-event games (estimated: `--rss` measures it);
  (f) other requests' p99 while `/verify` of the 100k-event game runs again and again, the
      long reads' process at niceness +0 and +10 (the default) in turn;
  (g) PostgreSQL behind the shipped HAProxy (deploy/haproxy.cfg): 1, 2 and 4 `kiroku serve`
      instances in rotated order, each round on a fresh schema, 1 game × 4 connections and
      16 games × 64, the GM signing by bearer token and by session cookie; 2 ÷ 1 per round.

Verdicts that a loaded machine does not move, as CPU time a operation in rounds of the two
sides in turn (tests/bench/common.py): (b) a raw one-event put's CPU (this process) against a
command's (the server's processes, wrk's rounds on 16 games), their ratio against (b)'s target;
(e) a command's CPU at the largest size against one at the smallest, two games side by side,
their ratio against the growth target; (d) is instruction counts already.

`--csv PATH` also appends the figures to a CSV file.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from domain.application.bootstrap import bootstrap
from domain.application.service import GameService, Outcome
from domain.application.settings import (
    DEFAULT_CACHE_EVENTS,
    store_env,
)
from domain.model.commands import Declare, Roll
from tests.bench.common import (
    add_csv_option,
    cpu_seconds,
    figures,
    paired,
    record,
    report_paired,
    timed_cpu,
)
from tests.bench.core import (
    ROLL,
    RawApp,
    RawEvent,
    RawPutter,
    line,
    machine,
    new_game,
    raw_put,
    sample_record,
    service_rolls,
)
from tests.serverproc import KirokuServer, group_members, haproxy, haproxy_binary

REPO = Path(__file__).resolve().parents[2]
POSTGRES_URL = os.environ.get(
    "KIROKU_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
BODY = json.dumps({"type": "roll", "expression": ROLL})


@dataclass(frozen=True)
class Sizes:
    wrk_seconds: int
    raw: int
    execute: int
    growth: tuple[int, ...]
    probes: int


FULL = Sizes(8, 3000, 1500, (1_000, 10_000, 100_000), 200)
QUICK = Sizes(3, 500, 300, (1_000, 6_000), 60)  # (f): over longreads.BIG_EVENTS


# ----------------------------------------------------------------------------- (a) ceilings


def fsync_rate(directory: str, seconds: float = 1.5) -> float:
    """Appends of 512 bytes, each followed by fsync, per second, in `directory`."""
    path = Path(directory) / "fsync.probe"
    count, block = 0, b"x" * 512
    with path.open("wb") as file:
        end = time.perf_counter() + seconds
        start = time.perf_counter()
        while time.perf_counter() < end:
            file.write(block)
            file.flush()
            os.fsync(file.fileno())
            count += 1
        elapsed = time.perf_counter() - start
    path.unlink()
    return count / elapsed


def raw_batched(path: str, payload: str, count: int, batch: int = 32) -> float:
    """EventStore.put of `batch` events per transaction: what a group commit writes."""
    app = RawApp(env=store_env(sqlite_path=path))
    try:
        originator = uuid.uuid4()
        events = [
            RawEvent(
                originator_id=originator,
                originator_version=version,
                timestamp=RawEvent.create_timestamp(),
                record=payload,
            )
            for version in range(1, count + 1)
        ]
        start = time.perf_counter()
        for first in range(0, count, batch):
            app.events.put(events[first : first + batch])
        return time.perf_counter() - start
    finally:
        app.close()


def execute_rate(path: str, count: int) -> float:
    return count / service_rolls(path, count)


# ----------------------------------------------------------------------------- HTTP with wrk


@dataclass(frozen=True)
class WrkRun:
    rate: float
    p50_ms: float
    p99_ms: float
    errors: int
    server_cpu_ms: float | None = None  # CPU of the server's processes per command
    postgres_cpu_ms: float | None = None  # of every PostgreSQL process on the machine
    wrk_cpu_ms: float | None = None  # of wrk itself
    count: int = 0  # commands wrk sent

    def __str__(self) -> str:
        bad = f", {self.errors} non-2xx/errors" if self.errors else ""
        cpu = ""
        if self.server_cpu_ms is not None:
            cpu = f"; CPU a command: server {self.server_cpu_ms:.2f} ms"
            if self.postgres_cpu_ms:
                cpu += f", PostgreSQL {self.postgres_cpu_ms:.2f} ms"
            if self.wrk_cpu_ms is not None:
                cpu += f", wrk {self.wrk_cpu_ms:.2f} ms"
        return f"p50 {self.p50_ms:.1f} ms, p99 {self.p99_ms:.1f} ms{bad}{cpu}"


SERVERS: dict[str, int] = {}  # base URL → the served process group (`served`)


def postgres_pids() -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == "postgres":
                    pids.append(int(entry.name))
    return pids


def http_games(base: str, count: int) -> list[tuple[str, str]]:
    """`count` started games: (game id, GM token) each, each created and started on a
    connection of its own, as each table's host has one."""
    games = []
    for _ in range(count):
        with httpx.Client(base_url=base, timeout=60) as client:
            response = client.post("/games", json={"title": "bench", "seats": ["A"]})
            assert response.status_code == 201, response.text
            created = response.json()
            game_id, token = created["game_id"], created["gm_token"]
            started = client.post(
                f"/games/{game_id}/commands",
                json={"type": "start"},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert started.status_code == 201, started.text
            games.append((game_id, token))
    return games


def _ms(value: str, unit: str) -> float:
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def signed(
    base: str, games: list[tuple[str, str]], signing: str = "bearer"
) -> list[tuple[str, dict[str, str]]]:
    """Each game's headers for the GM's commands: its bearer token, or (`cookie`) the session
    cookie a page gets for it, with the header a page's scripts add."""
    if signing == "bearer":
        return [(g, {"Authorization": f"Bearer {t}"}) for g, t in games]
    out = []
    with httpx.Client(base_url=base, timeout=60) as client:
        for game_id, token in games:
            opened = client.post(
                f"/games/{game_id}/session", headers={"Authorization": f"Bearer {token}"}
            )
            assert opened.status_code == 201, opened.text
            cookie = f"kiroku_{game_id}={opened.cookies[f'kiroku_{game_id}']}"
            out.append((game_id, {"Cookie": cookie, "X-Kiroku": "1"}))
            client.cookies.clear()
    return out


def wrk(
    base: str, games: list[tuple[str, dict[str, str]]], connections: int, seconds: int
) -> WrkRun:
    """Roll commands over `connections` keep-alive connections, each connection keeping to one
    of `games` (each with the headers that sign its commands: `signed`) as a player's does
    (wrk's threads take the games in turn, each thread's connections its game)."""

    def lua(headers: dict[str, str]) -> str:
        return "{" + ", ".join(f'["{k}"]="{v}"' for k, v in headers.items()) + "}"

    entries = ",\n".join(f'{{path="/games/{g}/commands", h={lua(h)}}}' for g, h in games)
    script = textwrap.dedent(
        """
        local games = {%s}
        local body = '%s'
        local threads = 0
        function setup(thread)
          thread:set("number", threads)
          threads = threads + 1
        end
        function init(args)
          game = games[(number %% #games) + 1]
        end
        request = function()
          local headers = {["Content-Type"] = "application/json"}
          for k, v in pairs(game.h) do headers[k] = v end
          return wrk.format("POST", game.path, headers, body)
        end
        """
    ) % (entries, BODY)
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as file:
        file.write(script)
    server = group_members(SERVERS[base]) if base in SERVERS else []
    postgres = postgres_pids()
    try:
        threads = max(min(2, connections), len(games))  # a thread for each game
        command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"]
        command += ["-s", file.name, base]
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = cpu_seconds(server), cpu_seconds(postgres), children.ru_utime + children.ru_stime
        out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60).stdout
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (
            cpu_seconds(server) - cpu[0],
            cpu_seconds(postgres) - cpu[1],
            children.ru_utime + children.ru_stime - cpu[2],
        )
    finally:
        os.unlink(file.name)
    sent = re.search(r"(\d+) requests in", out)
    count = int(sent.group(1)) if sent else 0
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    found = dict(re.findall(r"^\s+(50|99)%\s+([\d.]+\w+)", out, re.M))
    p = {k: _ms(*re.match(r"([\d.]+)(\w+)", v).groups()) for k, v in found.items()}  # type: ignore[union-attr]
    bad = sum(
        int(n)
        for n in re.findall(r"(?:Non-2xx or 3xx responses|errors: .*?timeout) ?:? (\d+)", out)
    )
    per = (lambda seconds: seconds * 1000 / count) if count and server else None
    return WrkRun(
        rate,
        p.get("50", 0.0),
        p.get("99", 0.0),
        bad,
        per(cpu[0]) if per else None,
        per(cpu[1]) if per and postgres else None,
        per(cpu[2]) if per else None,
        count,
    )


@contextmanager
def served(workers: int = 1, **store: Any) -> Iterator[str]:
    server = KirokuServer(workers=workers, startup_timeout=120, **store).start()
    assert server.process is not None
    SERVERS[server.base_url] = server.process.pid
    try:
        yield server.base_url
    finally:
        SERVERS.pop(server.base_url, None)
        server.stop()


def http_runs(base: str, seconds: int, signing: str = "bearer") -> tuple[WrkRun, WrkRun]:
    """1 game × 4 connections, then 16 games × 64, the GM signing by bearer token or cookie."""
    one = signed(base, http_games(base, 1), signing)
    sixteen = signed(base, http_games(base, 16), signing)
    wrk(base, one, 4, 1)  # warm up
    return wrk(base, one, 4, seconds), wrk(base, sixteen, 64, seconds)


def paired_puts(db: Callable[[str], str], sizes: Sizes) -> None:
    """(b) in CPU time: a raw one-event put (this process) against a command through HTTP
    (the server's processes; wrk's CPU not counted), 16 games × 64, rounds of each in turn."""
    rounds, seconds = (4, sizes.wrk_seconds) if sizes is QUICK else (6, 3)
    putter = RawPutter(db("paired-raw"), sample_record())
    try:
        with served(db=db("paired-http")) as base:
            games = signed(base, http_games(base, 16))
            wrk(base, games, 64, 1)  # warm up

            def commands() -> tuple[int, float]:
                run = wrk(base, games, 64, seconds)
                assert run.server_cpu_ms is not None and run.count, run
                return run.count, run.server_cpu_ms * run.count / 1000

            pair = paired(lambda: putter.round(sizes.raw // 2), commands, rounds)
    finally:
        putter.close()
    report_paired(
        "(b) raw put ÷ command",
        pair,
        "EventStore.put, one event (this process)",
        "roll command, HTTP, 16 games × 64 (the server)",
        ">= 0.75",
        lambda ratio: ratio >= 0.75,
    )


# ----------------------------------------------------------------------------- (d) callgrind

CALLGRIND_SCRIPT = textwrap.dedent(
    """
    import asyncio, gc, json, sys, tempfile
    from pathlib import Path
    from api.app import create_app
    from domain.model.commands import Roll
    from domain.application.settings import DEFAULT_CACHE_EVENTS, store_env
    from domain.application.bootstrap import bootstrap
    from domain.application.service import GameService
    from tests.bench.core import ROLL, new_game

    mode, count = sys.argv[1], int(sys.argv[2])
    service = bootstrap(env=store_env(sqlite_path=str(Path(tempfile.mkdtemp()) / "cg.db")))
    game_id, token = new_game(service)
    app = create_app(service)
    gc.collect()
    gc.freeze()  # as `kiroku serve` does once started: no full collection of start-up objects
    body = json.dumps({"type": "roll", "expression": ROLL}).encode()
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": f"/games/{game_id}/commands", "raw_path": b"",
        "query_string": b"",
        "root_path": "", "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80),
        "headers": [(b"host", b"bench"), (b"authorization", f"Bearer {token}".encode()),
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode())],
    }

    async def one() -> None:
        async def receive():
            return {"type": "http.request", "body": body, "more_body": False}
        status = []
        async def send(message):
            if message["type"] == "http.response.start":
                status.append(message["status"])
        await app(dict(scope), receive, send)
        assert status == [201], status

    async def http(n: int) -> None:
        for _ in range(n):
            await one()

    command = Roll(expression=ROLL)
    if mode == "asgi":
        asyncio.run(http(10 + count))
    else:
        for _ in range(10 + count):
            service.execute(game_id, "seat:1", command)
    service.close()
    """
)


def instructions(mode: str, count: int) -> int | None:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as file:
        file.write(CALLGRIND_SCRIPT)
    try:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
        command += [sys.executable, file.name, mode, str(count)]
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=900,
            env={**os.environ, "PYTHONPATH": str(REPO), "PYTHONHASHSEED": "0"},
        )
    finally:
        os.unlink(file.name)
    found = re.search(r"Collected : (\d+)", done.stderr)
    return int(found.group(1)) if found else None


def per_command_instructions(mode: str, few: int = 10, many: int = 80) -> float | None:
    """Instructions of `many - few` more commands, per command: start-up cancels out."""
    low, high = instructions(mode, few), instructions(mode, many)
    if low is None or high is None:
        return None
    return (high - low) / (many - few)


# ----------------------------------------------------------------------------- (e) growth


def grow(service: GameService, game_id: str, to: int) -> None:
    """Append a table's mix until the game has `to` events (batched through the writer): a
    third secret rolls (kept unrevealed in the state), a third open rolls, a third lines."""
    missing = to - service.state(game_id).version
    futures: list[Future[Outcome]] = []
    for n in range(missing):
        if n % 3 == 2:
            futures.append(service.submit(game_id, "gm", Declare(text=f"line {n}")))
        else:
            command = Roll(expression="2d6", secret=n % 3 == 0)
            futures.append(service.submit(game_id, "seat:1", command))
        if len(futures) >= 256:
            for future in futures:
                future.result()
            futures = []
    for future in futures:
        future.result()


def probe(service: GameService, game_id: str, count: int) -> list[float]:
    command = Roll(expression=ROLL)
    for _ in range(20):  # warm up
        service.execute(game_id, "seat:1", command)
    latencies = []
    for _ in range(count):
        start = time.perf_counter()
        service.execute(game_id, "seat:1", command)
        latencies.append(time.perf_counter() - start)
    return latencies


def paired_growth(
    service: GameService, big: str, baseline: int, count: int, rounds: int = 6
) -> None:
    """(e) in CPU time: a command to the big game against one to a game of `baseline` events
    beside it in the same process, rounds of `count` each in turn (this process's CPU: the
    writer's and the snapshots' threads included)."""
    small, _ = new_game(service)
    grow(service, small, baseline)
    service.games.snapshots.flush()
    command = Roll(expression=ROLL)
    size = service.state(big).version

    def side(game_id: str) -> tuple[int, float]:
        def work() -> int:
            for _ in range(count):
                service.execute(game_id, "seat:1", command)
            service.games.snapshots.flush()
            return count

        return timed_cpu([], work)

    side(small), side(big)  # warm up
    pair = paired(lambda: side(big), lambda: side(small), rounds)
    report_paired(
        f"(e) {size:,} ÷ {baseline:,} events",
        pair,
        f"a command at {size:,} events",
        f"a command at {baseline:,} events",
        "<= 1.3",
        lambda ratio: ratio <= 1.3,
    )


class OneRowSnapshots:
    """The snapshot form before bucket rows, kept here only to pair against: the whole state
    in one row, its text made a bucket of secrets at a time and reusing the text of every
    bucket unchanged since the game's previous snapshot."""

    def __init__(self, games: Any) -> None:
        self.games = games
        self._texts: dict[int, tuple[object, str]] = {}

    def __call__(self, state: Any) -> None:
        from domain.adapters.snapshots import _SECRETS
        from domain.adapters.store import StateSnapshot
        from domain.model import codec, lifecycle
        from domain.model.seqmap import SeqMap

        data = lifecycle.snapshot_of(state.model_copy(update={"unrevealed": SeqMap()}))
        data.pop("unrevealed", None)
        texts: dict[int, tuple[object, str]] = {}
        parts = []
        for _, bucket in state.unrevealed.bucket_items():
            kept = self._texts.get(id(bucket))
            if kept is not None and kept[0] is bucket:
                part = kept[1]
            else:
                part = _SECRETS.dump_json(bucket).decode()[1:-1]  # without its braces
            texts[id(bucket)] = (bucket, part)
            parts.append(part)
        self._texts = texts
        text = codec.dumps(data)[:-1] + ',"unrevealed":{' + ",".join(parts) + "}}"
        self.games.log.snapshots.put(
            [
                StateSnapshot(
                    originator_id=uuid.UUID(state.game_id),
                    originator_version=state.version,
                    timestamp=StateSnapshot.create_timestamp(),
                    state=text,
                )
            ]
        )


def snapshot_stalls(
    service: GameService, game_id: str, rounds: int = 2
) -> list[tuple[str, float, float, float]]:
    """Commands while the game's due snapshot is written (on the snapshot thread), against
    20 commands just before it with none in flight, round by round. Before each round the
    game grows by one snapshot interval of its mix (a third secret rolls) with snapshots held
    back, so each snapshot writes what a real one does: the changes of one interval. Three
    ways in turn: the form before this one (the whole state in one row), bucket rows with
    every bucket written (a process's first snapshot of a game it did not load from bucket
    rows), and bucket rows as they are written (the changed buckets). Returns (which, worst
    command during a snapshot, worst just before, the longest a snapshot took)."""
    from domain.adapters.snapshots import snapshot_interval

    command = Roll(expression=ROLL)
    games = service.games
    snapshots = games.snapshots
    bucket_rows = games.snapshots.write
    ways: list[tuple[str, Any, int]] = [
        ("one row (before)", OneRowSnapshots(games), 1),  # a round first to warm its texts
        ("every bucket", bucket_rows, 0),
        ("bucket rows", bucket_rows, 0),
    ]
    results = []
    try:
        for label, write, warm in ways:
            worst_during, worst_quiet, took = 0.0, 0.0, 0.0
            for round_ in range(warm + rounds):
                due: list[Any] = []
                snapshots.write = due.append  # type: ignore[method-assign,assignment]
                for _ in range(8):  # the interval may double on the way
                    state = service.state(game_id)
                    interval = snapshot_interval(state)
                    grow(service, game_id, state.version - state.version % interval + interval)
                    snapshots.flush()
                    if due:
                        break
                snapshots.write = write  # type: ignore[method-assign]
                quiet = []
                for _ in range(20):
                    start = time.perf_counter()
                    service.execute(game_id, "seat:1", command)
                    quiet.append(time.perf_counter() - start)
                if label == "every bucket":
                    games.cache.set_rows(game_id, {})
                began = time.perf_counter()
                snapshots.submit(due[-1])
                during = []
                while snapshots.busy:
                    start = time.perf_counter()
                    service.execute(game_id, "seat:1", command)
                    during.append(time.perf_counter() - start)
                snapshots.flush()
                if round_ < warm:
                    continue
                took = max(took, time.perf_counter() - began)
                worst_during = max([worst_during, *during])
                worst_quiet = max([worst_quiet, *quiet])
            results.append((label, worst_during, worst_quiet, took))
    finally:
        snapshots.write = bucket_rows  # type: ignore[method-assign]
    return results


def rss_kib(pid: int | str = "self") -> int:
    for row in Path(f"/proc/{pid}/status").read_text().splitlines():
        if row.startswith("VmRSS:"):
            return int(row.split()[1])
    return 0


RSS_SCRIPT = textwrap.dedent(
    """
    import gc, sys
    from domain.application.settings import DEFAULT_CACHE_EVENTS, store_env
    from domain.application.bootstrap import bootstrap
    from domain.application.service import GameService
    from tests.bench.write_path import rss_kib
    service = bootstrap(env=store_env(sqlite_path=sys.argv[1]))
    service.state(sys.argv[3])  # imports and a small game: the baseline
    gc.collect()
    before = rss_kib()
    state = service.state(sys.argv[2])
    gc.collect()
    print(before, rss_kib(), state.version)
    """
)


def cached_event_bytes(db: str, big: str, small: str) -> tuple[float, int]:
    """Memory one cached event costs (from loading the big game in a fresh process), and the
    process's RSS before it."""
    done = subprocess.run(
        [sys.executable, "-c", RSS_SCRIPT, db, big, small],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
    )
    before, after, events = (int(x) for x in done.stdout.split())
    return (after - before) * 1024 / events, before


# ----------------------------------------------------------------------------- --rss


def generated_games(db: str, count: int, events: int) -> list[tuple[str, str]]:
    """`count` started games of `events` events each, stored in `db`: (game id, seat token).

    Each game is played by the service's own code — `lifecycle.decide`, sealed as the writer
    seals, in the mix `grow` appends (a third secret rolls kept unrevealed, a third open rolls,
    a third lines) — in memory, then stored at once the way an import is (`GameRepository.add`:
    folded again, written 1,000 events to a transaction, its due snapshot written as bucket
    rows). Only the per-command round trip to the store is left out, to make 10 million events
    in minutes."""
    from domain.application.writer import seal
    from domain.model import lifecycle

    service = bootstrap(env=store_env(sqlite_path=db))
    made = []
    try:
        for _ in range(count):
            game_id, token = new_game(service)
            start = state = service.state(game_id)
            records = []
            for n in range(events - state.version):
                if n % 3 == 2:
                    command: Any = Declare(text=f"line {n}")
                    actor = "gm"
                else:
                    command, actor = Roll(expression="2d6", secret=n % 3 == 0), "seat:1"
                drafts = lifecycle.decide(state, command, actor)
                sealed = seal(game_id, state, drafts, _actor(actor))
                for recorded in sealed:
                    state = lifecycle.evolve(state, recorded)
                records.extend(sealed)
            service.games.add(start, records)
            service.games.snapshots.flush()
            service.games.forget(game_id)
            made.append((game_id, token))
    finally:
        service.close()
    return made


def _actor(actor: str) -> Callable[[Any], str]:
    return lambda _draft: actor


def stored_games(db: str, count: int, events: int, processes: int) -> list[tuple[str, str]]:
    """The games of `db` (made by `generated_games` in `processes` processes the first time;
    listed beside it in `db`.games.json and reused after)."""
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    listing = Path(db + ".games.json")
    if listing.exists() and Path(db).exists():
        kept = json.loads(listing.read_text())
        if kept["events"] == events and len(kept["games"]) >= count:
            return [(game[0], game[1]) for game in kept["games"][:count]]
    Path(db).unlink(missing_ok=True)
    began = time.perf_counter()
    shares = [count // processes + (i < count % processes) for i in range(processes)]
    with ProcessPoolExecutor(processes, mp_context=get_context("spawn")) as pool:
        parts = pool.map(generated_games, [db] * processes, shares, [events] * processes)
        games = [game for part in parts for game in part]
    listing.write_text(json.dumps({"events": events, "games": games}))
    took = time.perf_counter() - began
    print(f"  made {len(games):,} games of {events:,} events in {took:.0f} s ({db})")
    return games


def tree_rss_kib(pid: int) -> dict[int, int]:
    """RSS of a process and of every process under it, by pid."""
    return {member: rss_kib(member) for member in group_members(pid)}


def rss_run(db: str, games: list[tuple[str, str]], passes: int, clients: int) -> None:
    """`kiroku serve` (1 worker, the default cache bound) on `db`; `clients` client threads
    send one roll command to each game in turn, `passes` times over, so every game is active
    (a command to a game not cached loads it: its latest snapshot and the events after it),
    while the server's RSS is sampled every quarter second."""
    import queue as queues

    server = KirokuServer(db=db, startup_timeout=120).start()
    latencies: list[float] = []
    failed: list[int] = []
    try:
        assert server.process is not None
        pid = server.process.pid

        def roll(client: httpx.Client, game_id: str, token: str) -> httpx.Response:
            headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
            return client.post(f"/games/{game_id}/commands", content=BODY, headers=headers)

        with httpx.Client(base_url=server.base_url, timeout=120) as client:
            assert roll(client, *games[0]).status_code == 201
        start = tree_rss_kib(pid)
        samples: list[int] = []
        stop = threading.Event()
        work: queues.SimpleQueue[tuple[str, str]] = queues.SimpleQueue()
        for _ in range(passes):
            for game in games:
                work.put(game)

        def sample() -> None:
            while not stop.wait(0.25):
                samples.append(sum(tree_rss_kib(pid).values()))

        def send() -> None:
            with httpx.Client(base_url=server.base_url, timeout=120) as client:
                for _ in range(len(games) * passes):  # bounded: at most every command
                    try:
                        game_id, token = work.get_nowait()
                    except queues.Empty:
                        return
                    began = time.perf_counter()
                    status = roll(client, game_id, token).status_code
                    latencies.append(time.perf_counter() - began)
                    if status != 201:
                        failed.append(status)

        sampler = threading.Thread(target=sample)
        sampler.start()
        began = time.perf_counter()
        senders = [threading.Thread(target=send) for _ in range(clients)]
        try:
            for sender in senders:
                sender.start()
            for sender in senders:
                sender.join()
        finally:
            stop.set()
            sampler.join()
        took = time.perf_counter() - began
        end = tree_rss_kib(pid)
    finally:
        server.stop()
    latencies.sort()
    line(
        f"{len(games):,} games, each {passes} command(s), {clients} clients",
        f"{len(latencies) / took:>12,.0f}/s",
        f"p50 {latencies[len(latencies) // 2] * 1000:.0f} ms, "
        f"p99 {latencies[int(len(latencies) * 0.99)] * 1000:.0f} ms, "
        f"{len(failed)} refused or failed, in {took:.0f} s",
    )
    line("server RSS after one command", f"{sum(start.values()) / 1024:>10,.0f} MiB")
    peak, final = max(samples, default=0), sum(end.values())
    line(
        "server RSS, peak while the games are active",
        f"{peak / 1024:>10,.0f} MiB",
        _verdict(peak / 1024 < 300),
    )
    line("server RSS at the end", f"{final / 1024:>10,.0f} MiB", f"{len(end)} process(es)")


# ----------------------------------------------------------------------------- the run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.write_path", description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-callgrind", action="store_true")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--sections", default="abcdefg", help="which of (a)–(g) to run")
    parser.add_argument(
        "--proxy-rounds", type=int, default=3, help="(g): rounds of 1, 2 and 4 instances"
    )
    parser.add_argument(
        "--pg-rounds",
        type=int,
        default=3,
        help="(c): pairs of 1 and 4 workers, in turn (the verdicts take their median)",
    )
    parser.add_argument(
        "--rss",
        action="store_true",
        help="instead: the server's RSS with many active games (--rss-games of --rss-events)",
    )
    parser.add_argument("--rss-games", type=int, default=1000)
    parser.add_argument("--rss-events", type=int, default=10_000)
    parser.add_argument(
        "--rss-db",
        default=str(Path(tempfile.gettempdir()) / "kiroku-bench-rss.db"),
        help="the store of those games, made the first time (about 10 GB) and reused",
    )
    parser.add_argument("--rss-processes", type=int, default=2, help="processes making them")
    parser.add_argument("--rss-passes", type=int, default=1, help="commands to each game")
    parser.add_argument("--rss-clients", type=int, default=4, help="client threads sending them")
    add_csv_option(parser)
    args = parser.parse_args(argv)
    os.environ.setdefault("KIROKU_LIMITS", "off")  # wrk's few connections send thousands
    with figures("write_path", args.csv):
        run(args)


def run(args: argparse.Namespace) -> None:
    if args.rss:
        machine()
        print(f"\n(rss) {args.rss_games:,} active games of {args.rss_events:,} events")
        games = stored_games(args.rss_db, args.rss_games, args.rss_events, args.rss_processes)
        rss_run(args.rss_db, games, args.rss_passes, args.rss_clients)
        return
    sections = set(args.sections)
    sizes = QUICK if args.quick else FULL
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (make bench installs it as root: apt-get install wrk)")
    began = time.perf_counter()
    machine()
    print("  load       wrk, 2 threads, on the same 2 cores as the server")
    with tempfile.TemporaryDirectory(prefix="kiroku-bench-", dir=REPO) as tmp:

        def db(name: str) -> str:
            return str(Path(tmp) / f"{name}.db")

        print("\n(a) the store's ceilings on this disk")
        payload = sample_record()
        one = sizes.raw / raw_put(db("raw1"), payload, sizes.raw)  # (b) is compared with it
        fsyncs = fsync_rate(tmp)
        line("fsync of 512 bytes", f"{fsyncs:>12,.0f}/s")
        record("(a) fsync of 512 bytes", fsyncs, "/s")
        payload = sample_record()
        # The disk's rate wanders by a tenth from one run to the next: the median of three
        # runs (after the warm-up above) is what (b) is compared with.
        puts = sorted(sizes.raw / raw_put(db(f"raw1-{n}"), payload, sizes.raw) for n in range(3))
        one = puts[1]
        line(
            "raw eventsourcing put, one event per put",
            f"{one:>12,.0f}/s",
            f"median of 3 runs of {sizes.raw:,} events ({puts[0]:,.0f}–{puts[2]:,.0f})",
        )
        record("(a) raw eventsourcing put, one event per put, median of 3", one, "events/s")
        if "a" in sections:  # else (b) only needs the raw rate above
            batched = sizes.raw / raw_batched(db("raw32"), payload, sizes.raw)
            line("raw eventsourcing put, 32 events per put", f"{batched:>12,.0f}/s", "events/s")
            record("(a) raw eventsourcing put, 32 events per put", batched, "events/s")
            executed = execute_rate(db("execute"), sizes.execute)
            line(
                "GameService.execute (one caller, no HTTP)",
                f"{executed:>12,.0f}/s",
                f"{executed / one:.2f} × raw one-event puts",
            )
            record("(a) GameService.execute, one caller", executed, "commands/s")

        if "b" in sections:
            print("\n(b) HTTP roll commands, `kiroku serve`, 1 worker, SQLite file")
            for signing in ("bearer", "cookie"):  # one server each, in turn
                with served(db=db(f"http-{signing}")) as base:
                    single, many = http_runs(base, sizes.wrk_seconds, signing)
                line(f"{signing}: 1 game × 4 connections", f"{single.rate:>12,.0f}/s", str(single))
                line(f"{signing}: 16 games × 64 connections", f"{many.rate:>12,.0f}/s", str(many))
                record(f"(b) {signing}: 1 game × 4 connections", single.rate, "commands/s")
                record(f"(b) {signing}: 16 games × 64 connections", many.rate, "commands/s")
                if many.server_cpu_ms is not None:
                    record(
                        f"(b) {signing}: 16 games, server CPU a command", many.server_cpu_ms, "ms"
                    )
                ratio = many.rate / one
                record(f"(b) {signing}: 16 games ÷ raw puts", ratio, "×", ">= 0.75", ratio >= 0.75)
                record(
                    f"(b) {signing}: 16 games, p99", many.p99_ms, "ms", "< 50 ms", many.p99_ms < 50
                )
                line(
                    "  ÷ raw one-event puts (target ≥ 0.75)",
                    f"{ratio:>14.2f}",
                    _verdict(ratio >= 0.75),
                )
                line(
                    "  p99 (target < 50 ms)",
                    f"{many.p99_ms:>11.1f} ms",
                    _verdict(many.p99_ms < 50),
                )
            paired_puts(db, sizes)

        if "c" in sections and not args.no_postgres and _postgres_ok():
            print("\n(c) HTTP roll commands, `kiroku serve`, PostgreSQL (fresh schema)")
            rates: dict[int, tuple[WrkRun, WrkRun]] = {}
            pairs: list[tuple[float, float]] = []  # 4 ÷ 1: one game, 16 games
            pg_p99s: list[float] = []  # 4 workers, one game
            for round_ in range(args.pg_rounds):
                for workers in (1, 4) if round_ % 2 == 0 else (4, 1):
                    with _pg_schema() as url, served(workers=workers, database_url=url) as base:
                        rates[workers] = http_runs(base, sizes.wrk_seconds)
                    s, m = rates[workers]
                    line(f"{workers} worker(s), 1 game × 4", f"{s.rate:>12,.0f}/s", str(s))
                    line(f"{workers} worker(s), 16 games × 64", f"{m.rate:>12,.0f}/s", str(m))
                pairs.append(
                    (rates[4][0].rate / rates[1][0].rate, rates[4][1].rate / rates[1][1].rate)
                )
                pg_p99s.append(rates[4][0].p99_ms)
            # The verdicts go by the median pair (one pair swings by a tenth or more here).
            one = statistics.median(a for a, _ in pairs)
            sixteen = statistics.median(b for _, b in pairs)
            each = f"median of {len(pairs)} pairs: " if len(pairs) > 1 else ""
            record("(c) PostgreSQL 4 workers ÷ 1, one game, median", one, "×", ">= 1", one >= 1)
            worst = max(pg_p99s)
            record("(c) PostgreSQL 4 workers, one game, p99", worst, "ms", "< 100 ms", worst < 100)
            record(
                "(c) PostgreSQL 4 workers ÷ 1, 16 games, median", sixteen, "×", "> 1", sixteen > 1
            )
            line(
                "  4 workers ÷ 1, one game (target ≥ 1)",
                f"{one:>14.2f}",
                f"{_verdict(one >= 1)}; {each}" + ", ".join(f"{a:.2f}" for a, _ in pairs),
            )
            line(
                "  4 workers, one game, p99 (target < 100 ms)",
                f"{max(pg_p99s):>11.1f} ms",
                f"{_verdict(max(pg_p99s) < 100)}; the worst of {len(pg_p99s)} run(s)",
            )
            line(
                "  4 workers ÷ 1, 16 games (target > 1)",
                f"{sixteen:>14.2f}",
                f"{_verdict(sixteen > 1)}; {each}" + ", ".join(f"{b:.2f}" for _, b in pairs),
            )
        else:
            print("\n(c) PostgreSQL: skipped")

        if "d" in sections and not args.no_callgrind and shutil.which("valgrind"):
            print("\n(d) instructions per roll command (callgrind; the runs of 80 and 10 commands)")
            route = per_command_instructions("asgi")
            alone = per_command_instructions("execute")
            if route and alone:
                line("POST /commands, ASGI called directly", f"{route / 1e6:>11.2f} M")
                line("GameService.execute", f"{alone / 1e6:>11.2f} M")
                glue = 1 - alone / route
                record("(d) instructions, POST /commands through ASGI", route, "instructions")
                record("(d) instructions, GameService.execute", alone, "instructions")
                record("(d) framework glue share", glue * 100, "%", "<= 30 %", glue <= 0.30)
                line(
                    "  framework glue share (target ≤ 30 %)",
                    f"{glue * 100:>12.0f} %",
                    _verdict(glue <= 0.30),
                )
        else:
            print("\n(d) callgrind: skipped")

        if "g" in sections and not args.no_postgres and _postgres_ok() and haproxy_binary():
            behind_proxy(args.proxy_rounds, sizes.wrk_seconds)
        else:
            print("\n(g) PostgreSQL behind HAProxy: skipped")

        if "e" not in sections:  # (f) reads the game (e) grows
            return
        print("\n(e) a command's cost as the game grows (200 rolls at each size, SQLite file)")
        service = bootstrap(env=store_env(sqlite_path=db("growth")))
        try:
            game_id, seat_token = new_game(service)
            small, _ = new_game(service)
            medians: dict[int, float] = {}
            for size in sizes.growth:
                grow(service, game_id, size)
                service.games.snapshots.flush()
                latencies = probe(service, game_id, sizes.probes)
                medians[size] = statistics.median(latencies)
                line(
                    f"at {size:,} events",
                    f"{medians[size] * 1000:>11.2f} ms",
                    f"worst {max(latencies) * 1000:.1f} ms",
                )
                record(f"(e) a command at {size:,} events, median", medians[size] * 1000, "ms")
                for which, during, alone, took in snapshot_stalls(service, game_id):
                    if which == "bucket rows":
                        record(
                            f"(e) worst command during a snapshot at {size:,} events",
                            during * 1000,
                            "ms",
                            "<= 20 ms",
                            during <= 0.020,
                        )
                    line(
                        f"  worst command, snapshot: {which}",
                        f"{during * 1000:>11.1f} ms",
                        f"just before {alone * 1000:.1f} ms; the snapshot took {took * 1000:.0f} ms"
                        + (
                            "; target ≤ 20 ms: " + _verdict(during <= 0.020)
                            if which == "bucket rows"
                            else ""
                        ),
                    )
            first, last = sizes.growth[0], sizes.growth[-1]
            growth = medians[last] / medians[first]
            line(
                f"  {last:,} ÷ {first:,} (target ≤ 1.3)",
                f"{growth:>14.2f}",
                _verdict(growth <= 1.3) + " (wall time of one probe a size)",
            )
            record(
                f"(e) {last:,} ÷ {first:,}, wall time of one probe",
                growth,
                "×",
                "<= 1.3",
                growth <= 1.3,
            )
            paired_growth(service, game_id, first, sizes.probes)
        finally:
            service.close()
        per_event, base_kib = cached_event_bytes(db("growth"), game_id, small)
        line(
            "memory per cached event",
            f"{per_event:>12,.0f} B",
            f"process baseline {base_kib / 1024:.0f} MiB",
        )
        record("(e) memory per cached event", per_event, "B")
        bound = DEFAULT_CACHE_EVENTS
        estimate = base_kib / 1024 + min(1000 * 10_000, bound) * per_event / 2**20
        line(
            "RSS, 1,000 active 10k-event games (target < 300 MiB)",
            f"{estimate:>10,.0f} MiB",
            f"estimated: cache bound {bound:,} events; {_verdict(estimate < 300)}",
        )
        record(
            "(e) RSS, 1,000 active 10k-event games (estimated)",
            estimate,
            "MiB",
            "< 300 MiB",
            estimate < 300,
        )

        if "f" not in sections:
            return
        size = sizes.growth[-1]
        print(
            f"\n(f) other requests (1 game × 4) while /verify of the {size:,}-event game loops in "
            f"the long reads' process, that process at niceness +0 and "
            f"+{DEFAULT_LONG_READ_NICE} (the default) in turn, {LONG_READ_ROUNDS} rounds"
        )
        p99s: dict[int, list[float]] = {0: [], DEFAULT_LONG_READ_NICE: []}
        for round_ in range(LONG_READ_ROUNDS):
            order = (0, DEFAULT_LONG_READ_NICE)
            for nice in order if round_ % 2 == 0 else order[::-1]:
                quiet, busy, verifies = beside_verify(
                    db("growth"), game_id, seat_token, nice, sizes.wrk_seconds
                )
                p99s[nice].append(busy.p99_ms)
                line(
                    f"  round {round_ + 1}, +{nice}: commands alone",
                    f"{quiet.rate:>8,.0f}/s",
                    str(quiet),
                )
                line(
                    f"  round {round_ + 1}, +{nice}: beside /verify",
                    f"{busy.rate:>8,.0f}/s",
                    f"{busy}; {verifies} verifies",
                )
        for nice, values in p99s.items():
            median = statistics.median(values)
            line(
                f"median p99 beside /verify, +{nice}",
                f"{median:>11.1f} ms",
                f"target < 50 ms: {_verdict(median < 50)}",
            )
            record(f"(f) median p99 beside /verify, +{nice}", median, "ms", "< 50 ms", median < 50)
    print(f"\ntotal benchmark time {time.perf_counter() - began:.0f} s")
    print("(a noisy machine: quote medians of several runs and ratios within one run)")


DEFAULT_LONG_READ_NICE = 10  # KIROKU_LONG_READ_NICE's default (domain/application/settings.py)
LONG_READ_ROUNDS = 3


def beside_verify(
    path: str, game_id: str, seat_token: str, nice: int, seconds: int
) -> tuple[WrkRun, WrkRun, int]:
    """(f) One server on `path`, its long reads' process at `nice`: rolls of another game
    alone, then while `/verify` of `game_id` loops; and how many verifies ran. The server
    has not read the big game before: the long reads' process loads it to authenticate the
    first reader (the worker only asks the store how long it is), inside the figures."""
    with served(db=path, env={"KIROKU_LONG_READ_NICE": str(nice)}) as base:
        others = signed(base, http_games(base, 1))
        quiet = wrk(base, others, 4, seconds)
        stop = threading.Event()
        verified = [0]

        def verify_loop() -> None:
            with httpx.Client(base_url=base, timeout=300) as client:
                seat = {"Authorization": f"Bearer {seat_token}"}
                while not stop.is_set():
                    client.get(f"/games/{game_id}/verify", headers=seat)
                    verified[0] += 1

        looping = threading.Thread(target=verify_loop)
        looping.start()
        time.sleep(0.5)
        busy = wrk(base, others, 4, seconds)
        stop.set()
        looping.join()
    return quiet, busy, verified[0]


@contextmanager
def instances(count: int, database_url: str) -> Iterator[str]:
    """`count` instances of `kiroku serve` (one worker each) on one store, behind HAProxy."""
    servers = [KirokuServer(database_url=database_url, startup_timeout=120) for _ in range(count)]
    try:
        for server in servers:  # one after the other: the first creates the tables
            server.start()
        with haproxy([s.port for s in servers]) as base:
            yield base
    finally:
        for server in servers:
            server.stop()


def behind_proxy(rounds: int, seconds: int) -> None:
    print("\n(g) HTTP roll commands, PostgreSQL, N `kiroku serve` behind the shipped HAProxy")
    ratios: dict[str, list[tuple[float, float]]] = {"bearer": [], "cookie": []}
    p99s: list[float] = []
    for round_ in range(rounds):
        order = [(1, 2, 4), (2, 4, 1), (4, 1, 2)][round_ % 3]
        rates: dict[tuple[int, str], tuple[WrkRun, WrkRun]] = {}
        for count in order:
            with _pg_schema() as url, instances(count, url) as base:
                for signing in ("bearer", "cookie"):
                    single, many = http_runs(base, seconds, signing)
                    rates[(count, signing)] = (single, many)
                    label = f"round {round_ + 1}, {count} instance(s), {signing}"
                    line(f"{label}, 1 game × 4", f"{single.rate:>12,.0f}/s", str(single))
                    line(f"{label}, 16 games × 64", f"{many.rate:>12,.0f}/s", str(many))
                    if count == 2:
                        p99s += [single.p99_ms, many.p99_ms]
        for signing, pairs in ratios.items():
            one, two = rates[(1, signing)], rates[(2, signing)]
            pairs.append((two[0].rate / one[0].rate, two[1].rate / one[1].rate))
            four = rates[(4, signing)]
            line(
                f"  round {round_ + 1}, {signing}: 4 ÷ 1 (no target)",
                f"{four[0].rate / one[0].rate:>8.2f} {four[1].rate / one[1].rate:>5.2f}",
                "one game, 16 games",
            )
    for signing, pairs in ratios.items():
        game = statistics.median(a for a, _ in pairs)
        sixteen = statistics.median(b for _, b in pairs)
        each = ", ".join(f"{a:.2f}/{b:.2f}" for a, b in pairs)
        record(f"(g) {signing}: 2 ÷ 1 instances, one game", game, "×", ">= 0.95", game >= 0.95)
        record(f"(g) {signing}: 2 ÷ 1 instances, 16 games", sixteen, "×", ">= 1.2", sixteen >= 1.2)
        line(
            f"  {signing}: 2 ÷ 1, one game (target ≥ 0.95)",
            f"{game:>14.2f}",
            f"{_verdict(game >= 0.95)}; median of rounds (one/16): {each}",
        )
        line(
            f"  {signing}: 2 ÷ 1, 16 games (target ≥ 1.2)",
            f"{sixteen:>14.2f}",
            _verdict(sixteen >= 1.2),
        )
    line("  2 instances, p99 (target < 50 ms)", f"{max(p99s):>11.1f} ms", _verdict(max(p99s) < 50))
    record("(g) 2 instances, worst p99", max(p99s), "ms", "< 50 ms", max(p99s) < 50)


def _verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def _postgres_ok() -> bool:
    try:
        import psycopg

        with psycopg.connect(POSTGRES_URL, connect_timeout=2):
            return True
    except Exception:
        return False


@contextmanager
def _pg_schema() -> Iterator[str]:
    import psycopg

    schema = f"kiroku_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{POSTGRES_URL}?schema={schema}"
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


if __name__ == "__main__":
    main()
