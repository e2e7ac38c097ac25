"""Replay page benchmark: seek latency in Chromium, beside issue #32's target; asserts nothing.

    python -m tests.bench.replaypage [--sizes 1000,10000,100000] [--seeks 60]

For each size, a game (tests/longgame.py) is written straight into a fresh SQLite store and a
server started on it; the replay page is opened as a spectator and the reader seeks to random
seqs (typed in the seq box, as a reader does): each seek is timed in the page, from the change
to the frame shown (both requests answered and drawn). The first size is the baseline; the
bytes a seek transferred are printed too (what a seek costs the network).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

from domain.application.settings import store_env
from tests.bench.common import add_csv_option, figures, record
from tests.bench.tablepage import _settle
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.longgame import store_long_game
from tests.serverproc import KirokuServer

SEEK = """async (seq) => {
  const title = document.getElementById("event-title");
  const box = document.getElementById("seq-input");
  const started = performance.now();
  box.value = String(seq);
  box.dispatchEvent(new Event("change"));
  while (!title.textContent.startsWith(`Event #${seq} `)) {
    await new Promise((r) => setTimeout(r, 1));
  }
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  return performance.now() - started;
}"""


def measure(browser: Any, events: int, seeks: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "kiroku.db"
        game = store_long_game(store_env(sqlite_path=str(db)), events)
        with KirokuServer(db=db) as server:
            _settle(server.base_url, game.game_id)
            page = browser.new_page()
            sizes: list[int] = []
            page.on(
                "response",
                lambda r: (
                    sizes.append(int(r.headers.get("content-length") or 0))
                    if "/replay?" in r.url
                    else None
                ),
            )
            page.goto(f"{server.base_url}/g/{game.game_id}/replay")
            page.wait_for_selector("#event-title:has-text('Event #')", timeout=600_000)
            rng = random.Random(5)
            for _ in range(3):  # the server's history of the game is built on the first seek
                page.evaluate(SEEK, rng.randint(1, game.events))
            sizes.clear()
            timings = sorted(page.evaluate(SEEK, rng.randint(1, game.events)) for _ in range(seeks))
            page.close()
    return {
        "p50": statistics.median(timings),
        "p99": timings[min(len(timings) - 1, int(len(timings) * 0.99))],
        "bytes": statistics.mean(sizes) if sizes else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--seeks", type=int, default=60)
    add_csv_option(parser)
    args = parser.parse_args()
    with figures("replaypage", args.csv):
        run(args)


def run(args: argparse.Namespace) -> None:
    sizes = [int(s) for s in args.sizes.split(",")]
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        measure(browser, sizes[0], 5)  # a warm-up
        results = {size: measure(browser, size, args.seeks) for size in sizes}
        browser.close()
    base = results[sizes[0]]
    for size, r in results.items():
        ratio = r["p99"] / base["p99"]
        verdict = "met" if ratio <= 2 else "MISSED"
        record(f"{size:,} events: seek p50", r["p50"], "ms")
        record(f"{size:,} events: seek p99", r["p99"], "ms")
        record(f"{size:,} events: seek p99 ÷ the first size's", ratio, "×", "<= 2", ratio <= 2)
        record(f"{size:,} events: a seek's frame", r["bytes"] / 1024, "KiB")
        print(
            f"{size:>7,} events: seek p50 {r['p50']:.0f} ms, p99 {r['p99']:.0f} ms "
            f"({ratio:.2f}× the first size's p99; target ≤ 2×: {verdict}); "
            f"frame {r['bytes'] / 1024:.1f} KiB a seek"
        )


if __name__ == "__main__":
    main()
