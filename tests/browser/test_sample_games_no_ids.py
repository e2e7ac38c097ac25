"""Every shipped sample game, read in real Chromium in Japanese and in English: no internal id
(seat:N, snake_case ids, event type names, `None`, `null`, `(2,)`) in any visible text.

Each sample is imported (`kiroku import`, as a user would) into the server's store. A finished
game may be replayed through anyone's eyes, so one context per language opens the replay as the
spectators, the GM (or host) and each seat, and reads it at points spread over the whole game
and at its end (where the log holds every line); the table page is read as a spectator too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.browser.test_i18n import VISIBLE_TEXTS
from tests.samples import SAMPLES, import_sample
from tests.serverproc import KirokuServer

TIMEOUT = 15_000
POINTS = 6  # moments of the game read through each pair of eyes, besides its end
SAMPLE_FILES = [pytest.param(path, id=path.stem) for path in sorted(SAMPLES.glob("*.jsonl"))]
INTERNAL = re.compile(
    r"seat:\d"  # an actor id
    r"|\bNone\b|\bnull\b|\bundefined\b|\bNaN\b|\[object Object\]"  # a Python or JS repr
    r"|\(\d+,\)"  # a Python tuple
    r"|\b[a-z]+_[a-z0-9_]+\b"  # a snake_case id: ninja_slayer, save_ends, mech_d20
    r"|\b[a-z_0-9]+\.[A-Z][A-Za-z]+\b"  # an event or command type: chojin_locke.SilhouetteChosen
    r"|\b(?!Page(?:Up|Down)\b|DiceBot\b|BCDice\b)(?:[A-Z][a-z]+){2,}\b"  # a bare event type
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KirokuServer]:
    db = tmp_path_factory.mktemp("samples") / "kiroku.db"
    for sample in sorted(SAMPLES.glob("*.jsonl")):
        import_sample(sample, db)
    with KirokuServer(db=db) as running:
        yield running


def header(sample: Path) -> dict[str, Any]:
    first: dict[str, Any] = json.loads(sample.read_text(encoding="utf-8").splitlines()[0])
    return first


def ids_in(page: Any, where: str) -> list[str]:
    return [f"{where}: {text}" for text in page.evaluate(VISIBLE_TEXTS) if INTERNAL.search(text)]


def audiences(page: Any) -> list[str]:
    values: list[str] = page.locator("#perspective option").evaluate_all(
        "options => options.map((o) => o.value)"
    )
    return values


@pytest.mark.parametrize("locale", ["ja-JP", "en-US"])
@pytest.mark.parametrize("sample", SAMPLE_FILES)
def test_no_internal_id_in_a_whole_sample_game(
    browser: Any, server: KirokuServer, sample: Path, locale: str
) -> None:
    game = header(sample)
    gid, last = game["game_id"], game["events"]
    reader = Audience.open(browser, "public", locale=locale)
    found: list[str] = []
    try:
        page = reader.page
        page.goto(f"{server.base_url}/g/{gid}")
        expect(page.locator("#log li").first).to_be_attached(timeout=TIMEOUT)
        page.wait_for_timeout(500)  # the panes draw from the view
        found += ids_in(page, "table")

        page.goto(f"{server.base_url}/g/{gid}/replay")
        expect(page.locator("#replay[data-ready=true]")).to_be_attached(timeout=TIMEOUT)
        points = sorted({*range(1, last, max(1, last // POINTS)), last})
        for audience in audiences(page):
            for seq in points:
                page.evaluate("(hash) => { location.hash = hash; }", f"at={seq}&as={audience}")
                current = page.locator(f"#log li.current[data-seq='{seq}']")
                expect(current).to_be_attached(timeout=TIMEOUT)
                expect(page.locator("#perspective")).to_have_value(audience)
                found += ids_in(page, f"replay #{seq} as {audience}")
        assert not reader.errors, reader.errors
    finally:
        reader.close()
    unique = sorted(set(found))
    texts = sorted({f.split(": ", 1)[1] for f in unique})
    assert unique == [], "\n".join(texts[:80])
