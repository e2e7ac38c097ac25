"""Session log benchmark: prints figures, asserts nothing about speed.

    python -m tests.bench.sessionlog [--events 100000] [--no-browser]

Generates the replay benchmark's freeform game (`tests.bench.replay.generate`: about 110,000
events once the end has revealed every note), renders its HTML session log as `kiroku log`
does (every line described, the archive and the verifier embedded) and prints the render time
and the file's size; then opens the file from file:// in Chromium (Debian's, through
Playwright, as the browser tests do) and prints how long the in-page verifier took: chain,
every reveal, the seed and every draw, and every line against its event, in events/s.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from api.pages.sessionlog import disclosure_after, render, session_log
from tests.bench.replay import generate
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    started = time.perf_counter()
    records = generate(args.events)
    print(f"generated {len(records):,} events in {time.perf_counter() - started:.1f} s")

    started = time.perf_counter()
    log = session_log(records, "public", disclosure_after(records))
    described = time.perf_counter() - started
    html, _csp = render(log)
    rendered = time.perf_counter() - started
    size = len(html.encode("utf-8"))
    print(
        f"HTML log: {rendered:.2f} s ({described:.2f} s describing, "
        f"{rendered - described:.2f} s templating) = {len(records) / rendered:,.0f} events/s; "
        f"{size / 2**20:.1f} MiB ({size / len(records):,.0f} bytes an event)"
    )
    if args.no_browser:
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "session.html"
        path.write_text(html, encoding="utf-8")
        verify_in_chromium(path, len(records))


def verify_in_chromium(path: Path, events: int) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        started = time.perf_counter()
        page.goto(path.as_uri(), timeout=600_000)
        loaded = time.perf_counter() - started
        page.wait_for_function("globalThis.kirokuVerification", timeout=600_000)
        total = time.perf_counter() - started
        result = page.evaluate("globalThis.kirokuVerification")
        timing = page.evaluate(
            "(({domInteractive, loadEventEnd}) => ({domInteractive, loadEventEnd}))"
            "(performance.getEntriesByType('navigation')[0])"
        )
        version = browser.version
        browser.close()
    seconds = result["elapsedMs"] / 1000
    print(
        f"Chromium {version}: page loaded in {loaded:.1f} s (HTML parsed in "
        f"{timing['domInteractive'] / 1000:.1f} s, load event at "
        f"{timing['loadEventEnd'] / 1000:.1f} s); verifier "
        f"({'✓' if result['ok'] else '✗ ' + str(result['why'])}, {result['draws']:,} draws) "
        f"{seconds:.2f} s = {events / seconds:,.0f} events/s; opened to verdict {total:.1f} s"
    )


if __name__ == "__main__":
    main()
