"""Replay benchmark: prints figures, asserts nothing about speed.

    python -m tests.bench.replay [--events 100000]

Generates a freeform game of N events in memory through the real decider and sealing (no
store, to keep the run short), then measures: building the replay history (one fold, with
checkpoints every CHECKPOINT_EVERY events); random seeks (target: any seek < 50 ms); step
and back; and the audit of the finished game in events/s. The history and the audit also in
CPU time an event, which a loaded machine does not move.

    python -m tests.bench.replay --events 5000 --csv bench-results/replay.csv
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time

from domain.application.bootstrap import load_rulesets
from domain.model import codec, lifecycle
from domain.model.commands import Declare, End, Note, Roll, Start
from domain.model.envelope import genesis_hash
from domain.model.lifecycle_events import GameOptions
from domain.model.records import Recorded
from replay.audit import audit
from replay.cursor import ReplayCursor
from replay.history import CHECKPOINT_EVERY, History, settle
from tests.bench.common import add_csv_option, figures, record
from tests.decided import decide  # BCDice answers a roll, as the service asks it

GAME = "00000000-0000-4000-8000-00000000beef"


def generate(events: int) -> list[Recorded]:
    load_rulesets()  # as bootstrap() does: the decider is freeform's
    rng = random.Random(3)
    draft = lifecycle.create(
        ruleset="freeform",
        title="Bench",
        seat_names=["A", "B", "C"],
        options=GameOptions(),
        ruleset_options={},
        server_seed="ab" * 32,
        token_hash="g",
        invite_hashes=["1", "2", "3"],
    )
    first = codec.seal(
        draft,
        game_id=GAME,
        seq=1,
        actor="gm",
        at="2026-11-22T00:00:00Z",
        prev_hash=genesis_hash(GAME),
    )
    records = [first]
    state = lifecycle.initial_state(first)

    def apply(command: object, actor: str) -> None:
        nonlocal state
        for draft in decide(state, command, actor):  # type: ignore[arg-type]
            recorded = codec.seal(
                draft,
                game_id=GAME,
                seq=state.version + 1,
                actor=actor,
                at="2026-11-22T00:00:00Z",
                prev_hash=state.head,
            )
            state = lifecycle.evolve(state, recorded)
            records.append(recorded)

    apply(Start(), "gm")
    while len(records) < events - 10:
        pick = rng.random()
        if pick < 0.1:
            apply(Note(text="psst", to=["seat:2"]), "seat:1")
        elif pick < 0.5:
            apply(Roll(expression="2D6+1>=8"), "seat:2")
        else:
            apply(Declare(text="I act"), "seat:3")
    apply(End(), "gm")
    return records


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100_000)
    add_csv_option(parser)
    args = parser.parse_args()
    with figures("replay", args.csv):
        run(args)


def run(args: argparse.Namespace) -> None:
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    started = time.perf_counter()
    records = generate(args.events)
    print(f"generated {len(records):,} events in {time.perf_counter() - started:.1f} s")

    started, cpu = time.perf_counter(), time.process_time()
    history = History(records)
    built, cpu = time.perf_counter() - started, time.process_time() - cpu
    settle()  # as `kiroku replay` does after loading
    print(
        f"history (one fold, checkpoint every {CHECKPOINT_EVERY}): {built:.2f} s "
        f"= {len(records) / built:,.0f} events/s; CPU {cpu * 1e6 / len(records):.1f} µs an event"
    )
    record("history, one fold", len(records) / built, "events/s")
    record("history, one fold: CPU an event", cpu * 1e6 / len(records), "µs")

    rng = random.Random(7)
    cursor = ReplayCursor(history, "seat:2")
    timings = []
    for _ in range(200):
        seq = rng.randint(1, history.last_seq)
        started = time.perf_counter()
        cursor.seek(seq)
        timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    worst = timings[-1]
    record("random seek, p50", statistics.median(timings), "ms")
    record("random seek, p99", timings[int(len(timings) * 0.99) - 1], "ms")
    record("random seek, max", worst, "ms", "any seek < 50 ms", worst < 50)
    print(
        f"random seek incl. view and changes, 200 seeks: p50 {statistics.median(timings):.1f} ms, "
        f"p99 {timings[int(len(timings) * 0.99) - 1]:.1f} ms, max {timings[-1]:.1f} ms "
        f"(target: any seek < 50 ms)"
    )

    started = time.perf_counter()
    for _ in range(100):
        cursor.step()
    for _ in range(100):
        cursor.back()
    step = (time.perf_counter() - started) * 1000 / 200
    print(f"step/back: {step:.1f} ms per step")
    record("step/back", step, "ms")

    envelopes = [r.envelope.model_dump(mode="json") for r in records]
    started, cpu = time.perf_counter(), time.process_time()
    report = audit(GAME, envelopes)  # type: ignore[arg-type]
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    record("audit of the finished game", len(envelopes) / elapsed, "events/s")
    record("audit of the finished game: CPU an event", cpu * 1e6 / len(envelopes), "µs")
    print(
        f"audit ({report.verdict}, {report.verification.secrets.checked_draws:,} draws): "  # type: ignore[union-attr]
        f"{elapsed:.2f} s = {len(envelopes) / elapsed:,.0f} events/s"
    )


if __name__ == "__main__":
    main()
