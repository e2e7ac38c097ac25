"""Table page benchmark: prints figures beside issue #32's targets, asserts nothing.

    python -m tests.bench.tablepage [--sizes 1000,10000,50000]

For each size, a game (tests/longgame.py) is written straight into a fresh SQLite store, a
server started on it, and the table page opened in Chromium as a spectator: time to "live"
(the connection live and the last line shown), DOM nodes, the page's JS heap, and a tab switch.
The first size is the baseline; each figure is printed beside its growth and target, all in
this one process. The server has read the game (and its views caught up) before the page is
timed: its first read of a long game is the server's cost, not the page's.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from domain.application.settings import store_env
from tests.bench.common import add_csv_option, figures, record
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.longgame import store_long_game
from tests.serverproc import KirokuServer

# In the page, so the driver's own round trips are not counted: a tab switch, and ten
# keystrokes in the log's search box, each until the next frame is drawn (ms, the slowest).
IN_PAGE_TAB_SWITCH = """async () => {
  const next = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const tab = (name) => [...document.querySelectorAll('#tabs button')]
    .find((b) => b.textContent === name);
  const button = tab('雑談');
  const all = tab('All');
  let worst = 0;
  for (const target of [button, all, button, all]) {
    const started = performance.now();
    target.click();
    await next();
    worst = Math.max(worst, performance.now() - started);
  }
  return worst;
}"""
IN_PAGE_KEYSTROKES = """async () => {
  const next = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const box = document.getElementById('log-search');
  let worst = 0;
  const typed = ['l', 'li', 'lin', 'line', 'line ', 'line 1', 'line 12', 'line 1', 'line', ''];
  for (const text of typed) {
    const started = performance.now();
    box.value = text;
    box.dispatchEvent(new Event('input'));
    await next();
    worst = Math.max(worst, performance.now() - started);
  }
  return worst;
}"""
TARGETS = {"live": {10_000: 2.0, 50_000: 3.0}, "heap": {50_000: 2.0}}


def measure(browser: Any, events: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "kiroku.db"
        game = store_long_game(store_env(sqlite_path=str(db)), events)
        with KirokuServer(db=db) as server:
            _settle(server.base_url, game.game_id)
            page = browser.new_page()
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable")
            started = time.perf_counter()
            page.goto(f"{server.base_url}/g/{game.game_id}")
            page.wait_for_selector("#connection[data-state=live]", timeout=600_000)
            page.wait_for_selector(f"#seq-{game.events}", timeout=600_000)
            live = time.perf_counter() - started
            page.wait_for_timeout(300)
            metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            dom = page.evaluate("document.getElementsByTagName('*').length")
            switch = page.evaluate(IN_PAGE_TAB_SWITCH)
            keystroke = page.evaluate(IN_PAGE_KEYSTROKES)
            page.close()
    return {
        "live": live,
        "dom": dom,
        "heap": metrics.get("JSHeapUsedSize", 0) / 2**20,
        "switch": switch,
        "keystroke": keystroke,
    }


def _settle(base_url: str, game_id: str) -> None:
    """The server reads the game once (its first load folds every event) and the views catch
    up, before the page is timed: the page's cost is measured, not the server's first read."""
    import httpx

    with httpx.Client(base_url=base_url, timeout=600) as client:
        client.get(f"/games/{game_id}/events", params={"limit": 1})
        for _ in range(120):
            started = time.perf_counter()
            client.get(f"/games/{game_id}/view")
            if time.perf_counter() - started < 0.05:
                break
            time.sleep(0.5)
        time.sleep(1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000,50000")
    add_csv_option(parser)
    args = parser.parse_args()
    with figures("tablepage", args.csv):
        run([int(s) for s in args.sizes.split(",")])


def run(sizes: list[int]) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        measure(browser, sizes[0])  # a warm-up: the first page of a fresh browser is slower
        results = {}
        for size in sizes:
            results[size] = measure(browser, size)
        browser.close()
    base = results[sizes[0]]
    for size, r in results.items():
        growth = {k: (r[k] / base[k] if base[k] else 0.0) for k in ("live", "dom", "heap")}
        notes = []
        record(f"{size:,} events: time to live", r["live"], "s")
        record(f"{size:,} events: DOM nodes", r["dom"], "nodes")
        record(f"{size:,} events: JS heap", r["heap"], "MiB")
        for key in ("switch", "keystroke"):
            name = {"switch": "tab switch", "keystroke": "keystroke"}[key]
            record(f"{size:,} events: {name}", r[key], "ms", "< 50 ms", r[key] < 50)
        record(f"{size:,} events: dom ÷ the first size's", growth["dom"], "×")
        for key in ("live", "heap"):
            target = TARGETS[key].get(size)
            if target is None:
                record(f"{size:,} events: {key} ÷ the first size's", growth[key], "×")
            else:
                verdict = "met" if growth[key] <= target else "MISSED"
                met = growth[key] <= target
                record(
                    f"{size:,} events: {key} ÷ the first size's",
                    growth[key],
                    "×",
                    f"<= {target:g}",
                    met,
                )
                notes.append(f"{key} target ≤ {target:.0f}× ({verdict})")
        print(
            f"{size:>6,} events: live {r['live']:.2f} s ({growth['live']:.2f}×), "
            f"DOM {r['dom']:,.0f} nodes ({growth['dom']:.2f}×), JS heap {r['heap']:.1f} MiB "
            f"({growth['heap']:.2f}×), tab switch {r['switch']:.0f} ms, keystroke "
            f"{r['keystroke']:.0f} ms (targets < 50 ms)"
            + (f"; {', '.join(notes)}" if notes else "")
        )


if __name__ == "__main__":
    main()
