"""Real Chromium (Debian's /usr/bin/chromium, driven by Playwright) against a real server.

No browser is ever downloaded: Playwright is pointed at the system's Chromium. Outside CI the
tests skip with a message when it is missing; with CI=true they must run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.conftest import require_service
from tests.serverproc import KirokuServer

CHROMIUM = os.environ.get("KIROKU_CHROMIUM", "/usr/bin/chromium")
# As root, in a sandbox with no network but loopback: no sandbox, no background traffic.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


# Per module: Playwright's sync API keeps an event loop running in this thread while it is
# open, and later tests call asyncio.run.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require_service("Chromium", Path(CHROMIUM).exists(), f"{CHROMIUM}; apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[KirokuServer]:
    with KirokuServer(db=tmp_path / "kiroku.db") as running:
        yield running


def shown_in_docs(name: str) -> bool:
    """Whether the README or a docs page shows the picture `name` (docs/images/name)."""
    pages = [IMAGES.parents[1] / "README.md", *IMAGES.parent.rglob("*.md")]
    return any(f"images/{name}" in page.read_text(encoding="utf-8") for page in pages)


def screenshot_path(name: str) -> Path:
    """docs/images/ when KIROKU_SCREENSHOTS is set (to refresh the docs' pictures) and a page
    shows it, otherwise a scratch file, so a test run leaves the work tree as it was and
    docs/images holds no picture nobody shows (tests/docs/test_paths.py)."""
    if os.environ.get("KIROKU_SCREENSHOTS") and shown_in_docs(name):
        IMAGES.mkdir(parents=True, exist_ok=True)
        return IMAGES / name
    scratch = Path(os.environ.get("TMPDIR", "/tmp")) / "kiroku-screenshots"
    scratch.mkdir(parents=True, exist_ok=True)
    return scratch / name


@contextmanager
def read_in_japanese(audience: Any, ready: str) -> Iterator[None]:
    """The audience's page in Japanese for the docs' pictures, then in English again: the
    language switch's cookie (api/pages/__init__.py, `choose_language`) set and the page
    reloaded (what it shows is the server's; its address keeps its place), until `ready` shows.
    The tests that take them read the English chrome."""
    from playwright.sync_api import expect

    page = audience.page
    parts = urlsplit(page.url)
    origin = f"{parts.scheme}://{parts.netloc}"
    for language in ("ja", "en"):
        audience.context.add_cookies([{"name": "kiroku_lang", "value": language, "url": origin}])
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator(ready).first).to_be_visible(timeout=20_000)
        if language == "ja":
            yield


def pane_picture(audience: Any, name: str) -> None:
    """The ruleset pane with every control it shows: the window made tall enough to hold it
    (the page scrolls the pane inside its column), then as it was."""
    page = audience.page
    size = page.viewport_size
    page.set_viewport_size({"width": 1280, "height": 2400})
    page.locator("#ruleset-pane").screenshot(path=screenshot_path(name))
    if size is not None:
        page.set_viewport_size(size)
