"""BCDice benchmark: prints figures, asserts nothing about speed.

  python -m tests.bench.bcdice            (or `make bench`)
  python -m tests.bench.bcdice --quick    (smaller counts)

(a) a chat roll's latency added by BCDice: GameService.execute of a chat roll (`CC<=54` in a
    Cthulhu7th game, `2D6>=7` in DiceBot) against a chat line that is not sent to BCDice, on
    one SQLite game, p50 and p99; and the engine's round trip alone (BCDiceEngine.evaluate
    with the game's stream words);
    and the same pair as CPU time a command (this process and the BCDice process, in rounds
    of a chat roll and a chat line in turn): the CPU a chat roll adds, against the same
    target, which a loaded machine does not move;
(b) the BCDice process's resident memory (VmRSS) after it started, and with the 20 systems
    below loaded and each evaluated once (target: <= 150 MiB).

`--csv PATH` also appends the figures to a CSV file (tests/bench/common.py).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from domain.adapters.bcdice_engine import BCDiceEngine
from domain.application.bootstrap import bootstrap
from domain.application.service import GameService, NewGame
from domain.application.settings import store_env
from domain.model.commands import Say, Start
from domain.model.lifecycle_events import GameOptions
from tests.bench.common import (
    Paired,
    add_csv_option,
    figures,
    paired,
    record,
    report_paired,
    timed_cpu,
)

TARGET_ADDED_MS = 2.0
TARGET_RSS_MIB = 150

# 20 of the systems ココフォリア tables pick most, by BCDice id, with one command of each.
SYSTEMS = {
    "DiceBot": "2D6>=7",
    "Cthulhu7th": "CC<=54",
    "Cthulhu": "CCB<=54",
    "SwordWorld2.5": "K20+5@10",
    "SwordWorld2.0": "K20+5@10",
    "ShinobiGami": "2D6>=5",
    "Insane": "2D6>=5",
    "Emoklore": "3DM<=6",
    "DoubleCross": "5DX+2@10",
    "Nechronica": "2NC",
    "NinjaSlayer2": "N4",
    "MagicaLogia": "2D6>=5",
    "Satasupe": "2D6>=7",
    "Arianrhod": "2D6+5>=10",
    "LogHorizon": "3LH",
    "KanColle": "2D6>=7",
    "Kamigakari": "2D6>=7",
    "StratoShout": "2D6>=7",
    "Alshard": "2D6>=7",
    "GranCrest": "2D6>=7",
}


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.99) - 1]


def cpu_pair(service: GameService, game_id: str, command: str, batch: int) -> Paired:
    """CPU time a chat roll and a chat line take, this process's and BCDice's, in rounds of
    `batch` of each in turn."""
    pid = service.bcdice.pid
    pids = [pid] if pid is not None else []

    def side(text: str) -> tuple[int, float]:
        def work() -> int:
            for i in range(batch):
                service.execute(game_id, "gm", Say(text=text.format(i)))
            return batch

        return timed_cpu(pids, work)

    return paired(lambda: side(command), lambda: side("こんにちは {}"), rounds=6)


def chat_latency(count: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        service = bootstrap(env=store_env(sqlite_path=str(Path(folder) / "bench.db")))
        try:
            for system, command in (("Cthulhu7th", "CC<=54"), ("DiceBot", "2D6>=7")):
                game = service.create_game(
                    NewGame("freeform", "bench", ["A"], GameOptions(), {}, system=system)
                )
                service.execute(game.game_id, "gm", Start())
                timings: dict[str, list[float]] = {"roll": [], "chat": []}
                for i in range(count):
                    for kind, text in (("roll", command), ("chat", f"こんにちは {i}")):
                        started = time.perf_counter()
                        service.execute(game.game_id, "gm", Say(text=text))
                        timings[kind].append((time.perf_counter() - started) * 1000)
                roll50, roll99 = _percentiles(timings["roll"])
                chat50, chat99 = _percentiles(timings["chat"])
                added = roll50 - chat50
                print(
                    f"(a) {system:<10} chat roll {command!r}: p50 {roll50:.2f} ms, p99 "
                    f"{roll99:.2f} ms; a chat line: p50 {chat50:.2f} ms, p99 {chat99:.2f} ms; "
                    f"added p50 {added:.2f} ms"
                )
                record(f"{system}: chat roll {command}, p50", roll50, "ms")
                record(f"{system}: chat roll {command}, p99", roll99, "ms")
                record(f"{system}: chat line, p50", chat50, "ms")
                target = f"<= {TARGET_ADDED_MS:g} ms"
                met = added <= TARGET_ADDED_MS
                record(f"{system}: latency a chat roll adds, p50", added, "ms", target, met)
                pair = cpu_pair(service, game.game_id, command, max(25, count // 5))
                added_cpu = pair.a - pair.b
                report_paired(
                    f"{system}: chat roll ÷ chat line",
                    pair,
                    f"chat roll {command} (this process + BCDice)",
                    "chat line (this process + BCDice)",
                    "",
                    None,
                )
                met = added_cpu <= TARGET_ADDED_MS
                print(
                    f"    CPU a chat roll adds: {added_cpu:.2f} ms (target {target}: "
                    f"{'met' if met else 'MISSED'})"
                )
                record(
                    f"{system}: CPU a chat roll adds (paired rounds)", added_cpu, "ms", target, met
                )
                state = service.state(game.game_id)
                engine = service.bcdice
                rounds = []
                for _ in range(count):
                    started = time.perf_counter()
                    engine.for_command(state, Say(text=command))
                    rounds.append((time.perf_counter() - started) * 1000)
                p50, p99 = _percentiles(rounds)
                print(f"    BCDice round trip alone: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
                record(f"{system}: BCDice round trip alone, p50", p50, "ms")
        finally:
            service.close()


def memory() -> None:
    engine = BCDiceEngine()
    try:
        engine.version()
        assert engine.pid is not None
        print(f"(b) BCDice process after start: {_rss_mib(engine.pid):.1f} MiB")
        record("BCDice process RSS after start", _rss_mib(engine.pid), "MiB")
        started = time.perf_counter()
        for system, command in SYSTEMS.items():
            answer = engine.evaluate(system, command, words=lambda n: [7919 * i for i in range(n)])
            assert answer.result is not None, (system, command)
        loaded = time.perf_counter() - started
        rss = _rss_mib(engine.pid)
        print(
            f"    with {len(SYSTEMS)} systems loaded ({loaded:.1f} s to load and roll each once): "
            f"{rss:.1f} MiB (target <= {TARGET_RSS_MIB} MiB)"
        )
        record(
            f"BCDice process RSS, {len(SYSTEMS)} systems loaded",
            rss,
            "MiB",
            f"<= {TARGET_RSS_MIB} MiB",
            rss <= TARGET_RSS_MIB,
        )
    finally:
        engine.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    add_csv_option(parser)
    args = parser.parse_args()
    with figures("bcdice", args.csv):
        chat_latency(50 if args.quick else 300)
        memory()


if __name__ == "__main__":
    main()
