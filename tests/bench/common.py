"""What every benchmark shares: the machine it ran on, percentiles, the CPU time processes
used, paired rounds of two operations, and the CSV of its figures (`--csv PATH`).

Each benchmark prints its figures and, given `--csv PATH`, also appends one row a figure to
PATH (the header written when the file is new): benchmark, figure, value, unit, target,
verdict (`met`, `missed` or empty when the figure has no target), the machine in one line
(with its load average when the figure was taken) and the time (UTC, ISO 8601). `make bench`
writes them under bench-results/, one file a benchmark, a run's rows after the previous run's.

Paired CPU time (`paired`): two operations A and B in rounds, A B A B ..., each round's CPU
time a operation taken from the operating system's accounting of the processes that do the
work (this process, a server's, BCDice's); the verdict goes by the median of the rounds'
ratios. A machine that slows down slows both sides of a round, and CPU time does not count
the time a process waits for a core another process holds: on a shared machine the ratio
holds where wall-clock rates swing by a third.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import datetime
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

FIELDS = ("benchmark", "figure", "value", "unit", "target", "verdict", "machine", "timestamp")
_TICK = os.sysconf("SC_CLK_TCK")


# ----------------------------------------------------------------------------- the machine


@cache
def cpu_model() -> str:
    with contextlib.suppress(OSError):
        for row in Path("/proc/cpuinfo").read_text().splitlines():
            if row.startswith("model name"):
                return row.split(":", 1)[1].strip()
    return platform.processor() or "?"


def machine_summary() -> str:
    """The machine in one line, with the load average of the last minute now."""
    try:
        load = f"load {os.getloadavg()[0]:.1f}"
    except OSError:
        load = "load ?"
    return (
        f"{platform.system()} {platform.machine()}; {cpu_model()} × {os.cpu_count()}; "
        f"{platform.python_implementation()} {sys.version.split()[0]}; {load}"
    )


def machine(store_kind: str) -> None:
    """The machine, printed at the head of a run."""
    from importlib import metadata

    print("machine")
    print(f"  platform   {platform.platform()}")
    print(f"  cpu        {cpu_model()} ({os.cpu_count()} logical CPUs)")
    print(f"  python     {sys.version.split()[0]} ({platform.python_implementation()})")
    versions = ", ".join(f"{p} {metadata.version(p)}" for p in ("uvicorn", "httpx", "redis"))
    print(f"  packages   {versions}")
    print(f"  store      {store_kind}; server and clients share this machine, over loopback")


def percentile(values: list[float], q: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=1000, method="inclusive")[round(q * 1000) - 1]


# ----------------------------------------------------------------------------- the CSV


@dataclass
class Figures:
    """The figures of one run of one benchmark, as CSV rows."""

    benchmark: str
    rows: list[dict[str, str]] = field(default_factory=list)

    def add(
        self, figure: str, value: float, unit: str, target: str = "", met: bool | None = None
    ) -> None:
        self.rows.append(
            {
                "benchmark": self.benchmark,
                "figure": figure,
                "value": f"{value:.6g}",
                "unit": unit,
                "target": target,
                "verdict": "" if met is None else ("met" if met else "missed"),
                "machine": machine_summary(),
                "timestamp": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            }
        )

    def write(self, path: Path) -> None:
        """Appends the rows to `path` (its header first when the file is new)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        new = not path.exists() or path.stat().st_size == 0
        with path.open("a", newline="", encoding="utf-8") as out:
            writer = csv.DictWriter(out, fieldnames=FIELDS)
            if new:
                writer.writeheader()
            writer.writerows(self.rows)


_CURRENT: list[Figures] = []


def record(figure: str, value: float, unit: str, target: str = "", met: bool | None = None) -> None:
    """One figure of the running benchmark (kept for its CSV; nothing when none is open)."""
    if _CURRENT:
        _CURRENT[-1].add(figure, value, unit, target, met)


def add_csv_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--csv",
        type=Path,
        metavar="PATH",
        help="also append one row a figure to this CSV file (created with its header)",
    )


@contextlib.contextmanager
def figures(benchmark: str, path: Path | None) -> Iterator[Figures]:
    """The run's figures, written to `path` when the run ends (also when it fails: the rows
    taken until then)."""
    run = Figures(benchmark)
    _CURRENT.append(run)
    try:
        yield run
    finally:
        _CURRENT.remove(run)
        if path is not None and run.rows:
            run.write(path)
            print(f"\n{len(run.rows)} figures appended to {path}")


# ----------------------------------------------------------------------------- CPU time


def cpu_seconds(pids: Iterable[int]) -> float:
    """User + system CPU seconds these processes have used so far (Linux /proc; a process
    gone counts nothing). In clock ticks: sum enough work for a tick (10 ms) not to matter."""
    total = 0
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / _TICK


def own_cpu() -> float:
    """This process's CPU seconds so far, every thread (time.process_time)."""
    return time.process_time()


@dataclass(frozen=True)
class Paired:
    """CPU time a operation of A and of B over rounds run A B A B ..., and their ratios."""

    a_ms: list[float]  # a round's CPU milliseconds a operation
    b_ms: list[float]

    @property
    def ratios(self) -> list[float]:
        """A ÷ B, round by round."""
        return [a / b if b else float("inf") for a, b in zip(self.a_ms, self.b_ms, strict=True)]

    @property
    def ratio(self) -> float:
        return statistics.median(self.ratios)

    @property
    def a(self) -> float:
        return statistics.median(self.a_ms)

    @property
    def b(self) -> float:
        return statistics.median(self.b_ms)


Side = Callable[[], tuple[int, float]]  # runs a round: (operations, CPU seconds they took)


def paired(a: Side, b: Side, rounds: int) -> Paired:
    """`rounds` rounds of A then B (odd rounds B then A: neither side always goes first)."""
    a_ms: list[float] = []
    b_ms: list[float] = []
    for round_ in range(rounds):
        for side in (a, b) if round_ % 2 == 0 else (b, a):
            count, seconds = side()
            (a_ms if side is a else b_ms).append(seconds * 1000 / count)
    return Paired(a_ms, b_ms)


def timed_cpu(pids: Iterable[int], work: Callable[[], int], own: bool = True) -> tuple[int, float]:
    """Runs `work` (which returns how many operations it did): (operations, the CPU seconds
    of this process, when `own`, and of `pids` meanwhile)."""
    pids = list(pids)
    before = (own_cpu() if own else 0.0) + cpu_seconds(pids)
    count = work()
    return count, (own_cpu() if own else 0.0) + cpu_seconds(pids) - before


def report_paired(
    name: str,
    result: Paired,
    a_label: str,
    b_label: str,
    target: str,
    met: Callable[[float], bool] | None,
) -> None:
    """Prints and records a pair: A's and B's CPU time a operation and the ratio A ÷ B."""
    verdict = None if met is None else met(result.ratio)
    shown = "" if verdict is None else ("met" if verdict else "MISSED")
    rounds = ", ".join(f"{r:.2f}" for r in result.ratios)
    print(f"  {name}: CPU time a operation, {len(result.a_ms)} rounds A B A B ...")
    print(f"    A {a_label:<44} {result.a:9.3f} ms (median of rounds)")
    print(f"    B {b_label:<44} {result.b:9.3f} ms")
    print(f"    A ÷ B {f'(target {target})' if target else '':<40} {result.ratio:9.2f}  {shown}")
    print(f"    rounds: {rounds}")
    record(f"{name}: CPU a operation, {a_label}", result.a, "ms")
    record(f"{name}: CPU a operation, {b_label}", result.b, "ms")
    record(
        f"{name}: CPU ratio A ÷ B, median of {len(result.a_ms)} rounds",
        result.ratio,
        "×",
        target,
        verdict,
    )
