"""Kiroku core benchmark: prints figures, asserts nothing about speed.

    python -m tests.bench.core            (or `make bench`)
    python -m tests.bench.core --quick    (smaller counts, for a smoke run)

In one run, on temporary SQLite files:
  (a) raw `eventsourcing` appends/s: an eventsourcing Application on SQLite appending events of
      the size of a real Kiroku roll record, one event per put (as GameService does);
  (b) roll commands/s through HTTP: a real `kiroku serve` (uvicorn, one worker) driven by `wrk`
      (when installed) and by a few concurrent keep-alive httpx clients (Python on the same
      cores: they cost more CPU a roll than the server); also the same app in-process over
      ASGI, and GameService.execute with no HTTP at all; and the ratio (b)/(a) (target >= 0.5),
      of wrk's rate when it is installed;
  (c) cold load of a 10,000-event game in a fresh GameService (target < 0.2 s);
  (d) chain verification in events/s (target >= 50,000): domain.model.verification.verify_chain on
      in-memory envelopes, and GameService.verify end to end;
and the verdicts also as CPU time, which a loaded machine does not move: (b') a raw put's CPU
(this process) against a roll's through HTTP (the server's processes), in rounds of each in
turn, their ratio against (b)'s target; (c) and (d) the CPU time of the load and a event's.

`--csv PATH` also appends the figures to a CSV file (tests/bench/common.py).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import httpx
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, DomainEvent, event

from api.app import create_app
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService, NewGame
from domain.application.settings import store_env
from domain.model import codec, lifecycle
from domain.model.audience import GM
from domain.model.commands import Declare, End, Roll, Start
from domain.model.lifecycle_events import GameOptions
from domain.model.verification import verify_chain
from tests.bench.common import (
    add_csv_option,
    figures,
    paired,
    record,
    report_paired,
    timed_cpu,
)
from tests.serverproc import KirokuServer, group_members

REPO = Path(__file__).resolve().parents[2]
ROLL = "2D6+1>=8"


@dataclass
class Sizes:
    raw_appends: int
    http_rolls: int
    http_clients: int
    asgi_rolls: int
    service_rolls: int
    game_events: int


FULL = Sizes(5000, 3000, 4, 1000, 2000, 10_000)
QUICK = Sizes(500, 300, 4, 200, 200, 1_000)


def per_second(count: int, seconds: float) -> str:
    return f"{count / seconds:>12,.0f}/s"


def line(label: str, figure: str, detail: str = "") -> None:
    print(f"  {label:<52} {figure:>14}  {detail}".rstrip())


def machine() -> None:
    cpu = platform.processor() or "?"
    try:
        for row in Path("/proc/cpuinfo").read_text().splitlines():
            if row.startswith("model name"):
                cpu = row.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = ", ".join(
        f"{name} {metadata.version(name)}"
        for name in ("eventsourcing", "fastapi", "uvicorn", "pydantic", "rfc8785", "httpx")
    )
    import sqlite3

    import psycopg

    versions += f", psycopg {psycopg.__version__} ({psycopg.pq.__impl__} libpq)"
    print("Kiroku core benchmark")
    print(f"  platform   {platform.platform()}")
    print(f"  cpu        {cpu} ({os.cpu_count()} logical CPUs)")
    print(f"  python     {sys.version.split()[0]} ({platform.python_implementation()})")
    print(f"  sqlite     {sqlite3.sqlite_version}")
    print(f"  packages   {versions}")


# ------------------------------------------------------------------------ helpers


def new_game(service: GameService, client_seed: str = "bench-client-seed") -> tuple[str, str]:
    """A started freeform game with one joined seat: (game_id, seat token)."""
    created = service.create_game(
        NewGame(
            ruleset="freeform",
            title="bench",
            seat_names=["Alice"],
            options=GameOptions(),
            ruleset_options={},
        )
    )
    _, token = service.join(created.game_id, created.seats[0].invite, client_seed)
    service.execute(created.game_id, GM, Start())
    return created.game_id, token


def sample_record() -> str:
    """The stored text of a real roll event, so raw appends carry the same bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        service = bootstrap(env=store_env(sqlite_path=str(Path(tmp) / "sample.db")))
        try:
            game_id, _ = new_game(service)
            outcome = service.execute(game_id, "seat:1", Roll(expression=ROLL))
            return codec.encode(outcome.records[0])
        finally:
            service.close()


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def cpu_timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """(this process's CPU seconds, value)."""
    start = time.process_time()
    value = fn()
    return time.process_time() - start, value


def percentiles(latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p50 = ordered[len(ordered) // 2]
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"


# ------------------------------------------------------------------------ (a) raw eventsourcing


@dataclass(frozen=True)
class RawEvent(DomainEvent):
    record: str


class RawApp(Application[UUID]):
    name = "RawBench"


class Tally(Aggregate):
    @event("Noted")
    def note(self, record: str) -> None:
        self.last = record


def raw_put(path: str, payload: str, count: int) -> float:
    """EventStore.put of one event at a time: exactly the call GameService._put makes."""
    app = RawApp(env=store_env(sqlite_path=path))
    try:
        originator = uuid4()
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
        for item in events:
            app.events.put([item])
        return time.perf_counter() - start
    finally:
        app.close()


class RawPutter:
    """One-event EventStore.put in rounds, on one store: (b')'s baseline."""

    def __init__(self, path: str, payload: str) -> None:
        self.app = RawApp(env=store_env(sqlite_path=path))
        self.originator, self.payload, self.version = uuid4(), payload, 0

    def round(self, count: int) -> tuple[int, float]:
        """`count` puts: (count, this process's CPU seconds)."""
        events = [
            RawEvent(
                originator_id=self.originator,
                originator_version=self.version + n,
                timestamp=RawEvent.create_timestamp(),
                record=self.payload,
            )
            for n in range(1, count + 1)
        ]
        self.version += count
        start = time.process_time()
        for item in events:
            self.app.events.put([item])
        return count, time.process_time() - start

    def close(self) -> None:
        self.app.close()


def raw_save(path: str, payload: str, count: int) -> float:
    """The canonical eventsourcing path: one aggregate event, then Application.save."""
    app = RawApp(env=store_env(sqlite_path=path))
    try:
        tally = Tally()
        app.save(tally)
        start = time.perf_counter()
        for _ in range(count):
            tally.note(payload)
            app.save(tally)
        return time.perf_counter() - start
    finally:
        app.close()


# ------------------------------------------------------------------------ (b) rolls through HTTP


async def drive(
    client_factory: Callable[[], httpx.AsyncClient],
    game_id: str,
    token: str,
    total: int,
    clients: int,
) -> tuple[float, list[float]]:
    """`clients` keep-alive clients post roll commands until `total` have been acknowledged."""
    tickets = itertools.count()
    latencies: list[float] = []
    headers = {"Authorization": f"Bearer {token}"}
    body = {"type": "roll", "expression": ROLL}

    async def worker() -> None:
        async with client_factory() as client:
            while next(tickets) < total:
                sent = time.perf_counter()
                response = await client.post(
                    f"/games/{game_id}/commands", json=body, headers=headers
                )
                latencies.append(time.perf_counter() - sent)
                if response.status_code != 201:
                    raise RuntimeError(f"roll failed: {response.status_code} {response.text}")

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(clients)))
    return time.perf_counter() - start, latencies


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http_game(base: str) -> tuple[str, str]:
    with httpx.Client(base_url=base, timeout=30) as client:
        created = client.post("/games", json={"title": "bench", "seats": ["Alice"]}).json()
        game_id = created["game_id"]
        joined = client.post(
            f"/games/{game_id}/join",
            json={"invite": created["seats"][0]["invite"], "client_seed": "bench-client-seed"},
        ).json()
        gm = {"Authorization": f"Bearer {created['gm_token']}"}
        client.post(f"/games/{game_id}/commands", json={"type": "start"}, headers=gm)
        return game_id, joined["token"]


def process_cpu(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux /proc), or None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class HttpRun:
    seconds: float
    latencies: list[float]
    server_cpu: float | None  # seconds of the server process during the timed part
    client_cpu: float  # seconds of this (client) process during the timed part


def http_uvicorn(path: str, total: int, clients: int) -> HttpRun:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--db", path]
    server = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError("kiroku serve did not come up")
            time.sleep(0.1)
        game_id, token = http_game(base)

        def factory() -> httpx.AsyncClient:
            return httpx.AsyncClient(base_url=base, timeout=60)

        asyncio.run(drive(factory, game_id, token, 100, clients))  # warm up
        server_before, client_before = process_cpu(server.pid), time.process_time()
        seconds, latencies = asyncio.run(drive(factory, game_id, token, total, clients))
        server_after, client_after = process_cpu(server.pid), time.process_time()
        server_cpu = (
            None if server_before is None or server_after is None else server_after - server_before
        )
        return HttpRun(seconds, latencies, server_cpu, client_after - client_before)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def http_asgi(path: str, total: int, clients: int) -> tuple[float, list[float]]:
    service = bootstrap(env=store_env(sqlite_path=path))
    try:
        game_id, token = new_game(service)
        app = create_app(service)

        def factory() -> httpx.AsyncClient:
            transport = httpx.ASGITransport(app=app)
            return httpx.AsyncClient(transport=transport, base_url="http://bench", timeout=60)

        asyncio.run(drive(factory, game_id, token, 50, clients))  # warm up
        return asyncio.run(drive(factory, game_id, token, total, clients))
    finally:
        service.close()


def service_rolls(path: str, total: int) -> float:
    service = bootstrap(env=store_env(sqlite_path=path))
    try:
        game_id, _ = new_game(service)
        command = Roll(expression=ROLL)
        for _ in range(20):
            service.execute(game_id, "seat:1", command)
        start = time.perf_counter()
        for _ in range(total):
            service.execute(game_id, "seat:1", command)
        return time.perf_counter() - start
    finally:
        service.close()


# ------------------------------------------------------------------------ (c) cold load, (d) verify


def build_game(env: dict[str, str], events: int) -> tuple[str, float]:
    """A game of exactly `events` events: three rolls to one declaration, through the service."""
    service = bootstrap(env=env)
    try:
        start = time.perf_counter()
        game_id, _ = new_game(service)  # 3 events
        roll, declare = Roll(expression=ROLL), Declare(text="I move to the gate.")
        for n in range(events - 3):
            service.execute(game_id, "seat:1", declare if n % 4 == 3 else roll)
        return game_id, time.perf_counter() - start
    finally:
        service.close()


def cold_load(env: dict[str, str], game_id: str) -> tuple[float, float, int]:
    """(seconds for state() in a fresh service, seconds including its construction, version)."""
    start = time.perf_counter()
    service = bootstrap(env=env)
    try:
        opened = time.perf_counter()
        state = service.state(game_id)
        done = time.perf_counter()
        return done - opened, done - start, state.version
    finally:
        service.close()


def full_replay(env: dict[str, str], game_id: str) -> tuple[float, int]:
    """Fold every event from the start, ignoring snapshots (what snapshots save us)."""
    service = bootstrap(env=env)
    try:
        start = time.perf_counter()
        state = None
        for recorded in service.records(game_id):
            state = (
                lifecycle.initial_state(recorded)
                if state is None
                else lifecycle.evolve(state, recorded)
            )
        assert state is not None
        return time.perf_counter() - start, state.version
    finally:
        service.close()


def envelopes_of(env: dict[str, str], game_id: str) -> list[dict[str, Any]]:
    service = bootstrap(env=env)
    try:
        return [
            codec.raw_envelope(stored.state)
            for stored in service.log.recorder.select_events(UUID(game_id))
        ]
    finally:
        service.close()


def service_verify(env: dict[str, str], game_id: str) -> tuple[float, Any]:
    service = bootstrap(env=env)
    try:
        return timed(lambda: service.verify(game_id))
    finally:
        service.close()


def report_cold(env: dict[str, str], game_id: str, label: str, target: str) -> None:
    runs = [cpu_timed(lambda: cold_load(env, game_id)) for _ in range(5)]
    median = statistics.median(r[1][0] for r in runs)
    with_open = statistics.median(r[1][1] for r in runs)
    cpu = statistics.median(r[0] for r in runs)
    events = runs[0][1][2]
    line(
        f"{label} ({events:,} events)",
        f"{runs[0][1][0] * 1000:11.1f} ms",
        f"{target}; median of 5: {median * 1000:.1f} ms, "
        f"{with_open * 1000:.1f} ms with bootstrap() ({cpu * 1000:.1f} ms of CPU)",
    )
    record(
        f"{label}, {events:,} events: median of 5", median * 1000, "ms", "< 200 ms", median < 0.2
    )
    record(
        f"{label}, {events:,} events: CPU time with bootstrap(), median of 5",
        cpu * 1000,
        "ms",
        "< 200 ms",
        cpu < 0.2,
    )


def report_verify(env: dict[str, str], game_id: str, label: str) -> None:
    runs = [cpu_timed(lambda: service_verify(env, game_id)) for _ in range(3)]
    report = runs[0][1][1]
    best = min(seconds for _, (seconds, _) in runs)
    cpu = min(cpu for cpu, _ in runs)
    events = report.chain.events
    line(
        label,
        per_second(events, best),
        f"{events:,} events, ok={report.ok}, best of 3: {best * 1000:.0f} ms "
        f"({cpu * 1e6 / events:.1f} µs of CPU an event)",
    )
    record(f"{label}: best of 3", events / best, "events/s")
    record(f"{label}: CPU an event, best of 3", cpu * 1e6 / events, "µs")


# ------------------------------------------------------------------------ main


def section_raw(db: Callable[[str], str], sizes: Sizes) -> float:
    payload = sample_record()
    count = sizes.raw_appends
    print(f"\n(a) raw eventsourcing appends, SQLite file, {len(payload)}-byte roll records")
    put_s = raw_put(db("raw-put"), payload, count)
    save_s = raw_save(db("raw-save"), payload, count)
    line("EventStore.put, one event per put", per_second(count, put_s), f"{count:,} events")
    line("Aggregate + Application.save, one event", per_second(count, save_s), f"{count:,} events")
    record("(a) EventStore.put, one event per put", count / put_s, "events/s")
    record("(a) Aggregate + Application.save, one event", count / save_s, "events/s")
    return count / put_s


def section_rolls(db: Callable[[str], str], sizes: Sizes, raw_rate: float) -> None:
    clients = sizes.http_clients
    print(f"\n(b) roll commands ({ROLL!r}) on one game, SQLite file")
    http_rate = wrk_rolls(db("wrk"), clients, seconds=3 if sizes is QUICK else 8)
    run = http_uvicorn(db("http"), sizes.http_rolls, clients)
    label = f"HTTP: kiroku serve, 1 worker, {clients} keep-alive clients"
    measured_by = "wrk"
    if http_rate is None:  # no wrk: the Python clients' own rate
        http_rate, measured_by = sizes.http_rolls / run.seconds, "httpx"
    else:
        label = f"HTTP: the same, {clients} httpx clients (same cores)"
    line(
        label,
        per_second(sizes.http_rolls, run.seconds),
        f"{sizes.http_rolls:,} rolls, {percentiles(run.latencies)}",
    )
    record(f"(b) {label}", sizes.http_rolls / run.seconds, "rolls/s")
    if run.server_cpu is not None:
        record("(b) CPU a roll, server process", run.server_cpu / sizes.http_rolls * 1000, "ms")
        line(
            "  CPU per roll: server process / httpx clients",
            f"{run.server_cpu / sizes.http_rolls * 1000:8.2f} ms",
            f"/ {run.client_cpu / sizes.http_rolls * 1000:.2f} ms; server busy "
            f"{run.server_cpu / run.seconds:.0%} of one core",
        )
    record("(b) CPU a roll, httpx clients", run.client_cpu / sizes.http_rolls * 1000, "ms")
    seconds, latencies = http_asgi(db("asgi"), sizes.asgi_rolls, clients)
    record(f"(b) in-process ASGI, {clients} clients", sizes.asgi_rolls / seconds, "rolls/s")
    line(
        f"in-process ASGI (httpx.ASGITransport), {clients} clients",
        per_second(sizes.asgi_rolls, seconds),
        f"{sizes.asgi_rolls:,} rolls, {percentiles(latencies)}",
    )
    seconds = service_rolls(db("service"), sizes.service_rolls)
    record("(b) GameService.execute, no HTTP", sizes.service_rolls / seconds, "rolls/s")
    line(
        "GameService.execute, no HTTP, one thread",
        per_second(sizes.service_rolls, seconds),
        f"{sizes.service_rolls:,} rolls",
    )
    line(
        "ratio (b) HTTP rolls / (a) EventStore.put",
        f"{http_rate / raw_rate:14.2f}",
        f"target >= 0.5 (the HTTP rate {measured_by} drove)",
    )
    record(
        f"(b) ratio HTTP rolls ({measured_by}) / raw puts",
        http_rate / raw_rate,
        "×",
        ">= 0.5",
        http_rate / raw_rate >= 0.5,
    )


def section_paired(db: Callable[[str], str], sizes: Sizes) -> None:
    """(b') a raw put's CPU time (this process) against a roll's through HTTP (the server's
    processes, the clients' CPU not counted), in rounds of each in turn."""
    count, rounds = max(100, sizes.http_rolls // 3), 4 if sizes is QUICK else 8
    print(f"\n(b') CPU time: raw puts and HTTP rolls, {rounds} rounds of {count:,} each in turn")
    putter = RawPutter(db("paired-raw"), sample_record())
    try:
        with KirokuServer(db=db("paired-http"), startup_timeout=120) as server:
            assert server.process is not None
            pgid, base = server.process.pid, server.base_url
            game_id, token = http_game(base)

            def factory() -> httpx.AsyncClient:
                return httpx.AsyncClient(base_url=base, timeout=60)

            def rolls() -> int:
                asyncio.run(drive(factory, game_id, token, count, sizes.http_clients))
                return count

            rolls()  # warm up
            pair = paired(
                lambda: putter.round(count),
                lambda: timed_cpu(group_members(pgid), rolls, own=False),
                rounds,
            )
    finally:
        putter.close()
    report_paired(
        "(b') raw put ÷ HTTP roll",
        pair,
        "EventStore.put, one event (this process)",
        "roll through HTTP (the server's processes)",
        ">= 0.5",
        lambda ratio: ratio >= 0.5,
    )


def wrk_rolls(path: str, connections: int, seconds: int) -> float | None:
    """Roll commands/s on one game driven by `wrk` (a C process: the load costs the shared
    cores almost nothing, where httpx clients cost more than the server), or None without it."""
    if shutil.which("wrk") is None:
        return None
    from tests.bench import write_path  # it imports this module: imported when used

    with write_path.served(workers=1, db=path) as base:
        games = write_path.signed(base, write_path.http_games(base, 1))
        write_path.wrk(base, games, connections, 1)  # warm up
        run = write_path.wrk(base, games, connections, seconds)
    line(
        f"HTTP: kiroku serve, 1 worker, wrk, {connections} connections",
        f"{run.rate:>12,.0f}/s",
        str(run),
    )
    record(f"(b) HTTP: kiroku serve, 1 worker, wrk, {connections} connections", run.rate, "rolls/s")
    record("(b) p99, wrk", run.p99_ms, "ms")
    return run.rate


def section_game(db: Callable[[str], str], sizes: Sizes) -> None:
    print(f"\n(c) cold load of a {sizes.game_events:,}-event game (snapshot every 100 events)")
    env = store_env(sqlite_path=db("big"))
    game_id, build_s = build_game(env, sizes.game_events)
    line("built through GameService.execute", per_second(sizes.game_events, build_s))
    record("(c) game built through GameService.execute", sizes.game_events / build_s, "events/s")
    report_cold(env, game_id, "fresh GameService, first state()", "target < 0.2 s")
    seconds, version = full_replay(env, game_id)
    line(f"for comparison: fold all {version:,} events, no snapshot", f"{seconds * 1000:11.1f} ms")

    print("\n(d) chain verification (target >= 50,000 events/s)")
    envelopes = envelopes_of(env, game_id)
    best = min(timed(lambda: verify_chain(game_id, envelopes))[0] for _ in range(3))
    cpu = min(cpu_timed(lambda: verify_chain(game_id, envelopes))[0] for _ in range(3))
    status = verify_chain(game_id, envelopes)
    cpu_us = cpu * 1e6 / len(envelopes)
    line(
        "domain.model.verification.verify_chain, in memory",
        per_second(len(envelopes), best),
        f"{status.events:,} events, ok={status.ok}, best of 3: {best * 1000:.0f} ms",
    )
    line(
        "  the same, CPU time an event (target <= 20 µs)",
        f"{cpu_us:11.1f} µs",
        "met" if cpu_us <= 20 else "MISSED",
    )
    rate = len(envelopes) / best
    record("(d) verify_chain in memory, best of 3", rate, "events/s", ">= 50,000", rate >= 50_000)
    record("(d) verify_chain in memory: CPU an event", cpu_us, "µs", "<= 20 µs", cpu_us <= 20)
    report_verify(env, game_id, "GameService.verify, game running (chain)")

    service = bootstrap(env=env)
    try:
        for _ in range(99):
            service.execute(game_id, "seat:1", Roll(expression=ROLL))
    finally:
        service.close()
    print("\n(c') cold load, worst case: the latest snapshot plus 99 later events")
    report_cold(env, game_id, "fresh GameService, first state()", "target < 0.2 s")

    service = bootstrap(env=env)
    try:
        service.execute(game_id, GM, End(summary="bench over"))
    finally:
        service.close()
    print("\n(d') verification once the game has ended")
    report_verify(env, game_id, "GameService.verify (chain, seed, draws, rolls)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.core", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small counts, for a smoke run")
    add_csv_option(parser)
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    # A few clients send thousands of commands: the per-player limits would refuse them (429),
    # here and in the servers started below, which inherit it.
    os.environ.setdefault("KIROKU_LIMITS", "off")
    began = time.perf_counter()
    machine()
    with tempfile.TemporaryDirectory(prefix="kiroku-bench-") as tmp, figures("core", args.csv):

        def db(name: str) -> str:
            return str(Path(tmp) / f"{name}.db")

        raw_rate = section_raw(db, sizes)
        section_rolls(db, sizes, raw_rate)
        section_paired(db, sizes)
        section_game(db, sizes)
    print(f"\ntotal benchmark time {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
