"""The table page on a game of 10,000 events (tests/longgame.py, written straight into the
server's store): it comes live on the latest lines, scrolling up reaches line 1 with every line
once and in order, the DOM stays a window, a live line appends, tabs and search filter, and
neither seat 2 nor a spectator receives a byte of seat 1's notes to the GM."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from domain.application.settings import store_env
from tests.browser.audience import Audience
from tests.longgame import SECRET, LongGame, store_long_game
from tests.serverproc import KirokuServer

EVENTS = 10_000
TIMEOUT = 30_000
MAX_DOM_LINES = 300  # loglist.js's window

# Scroll the log to its top until line 1 is in it; every DOM snapshot on the way must be
# consecutive seqs (each line once, in order) and within the window.
SCROLL_TO_FIRST = """async () => {
  const log = document.getElementById("log");
  const seen = new Set();
  let broken = null, most = 0;
  for (let step = 0; step < 3000; step++) {
    const seqs = [...log.children].map((item) => Number(item.dataset.seq));
    most = Math.max(most, seqs.length);
    seqs.forEach((seq, k) => {
      if (k && seq !== seqs[k - 1] + 1 && broken === null) broken = [seqs[k - 1], seq];
      seen.add(seq);
    });
    if (seqs[0] === 1) break;
    log.scrollTop = 0;
    log.dispatchEvent(new Event("scroll"));
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  const all = [...seen].sort((a, b) => a - b);
  return { count: all.length, first: all[0], last: all[all.length - 1], broken, most };
}"""


@pytest.fixture(scope="module")
def long_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[KirokuServer, LongGame]]:
    db = tmp_path_factory.mktemp("long") / "kiroku.db"
    game = store_long_game(store_env(sqlite_path=str(db)), EVENTS)
    with KirokuServer(db=db) as server:
        yield server, game


def test_a_long_game_opens_live_and_scrolls_back_to_line_1(
    browser: Any, long_server: tuple[KirokuServer, LongGame]
) -> None:
    server, game = long_server
    ben = Audience.open(browser, "seat:2")
    public = Audience.open(browser, "public")
    try:
        ben.page.goto(f"{server.base_url}/g/{game.game_id}/join#invite={game.invites[2]}")
        ben.page.click("text=Take my seat")
        page = ben.page
        expect(page.locator("#connection")).to_have_attribute("data-state", "live", timeout=TIMEOUT)
        api = httpx.Client(base_url=server.base_url, timeout=10)
        gm = {"Authorization": f"Bearer {game.gm_token}"}
        # Ben's SeatJoined and SessionOpened follow the stored game.
        last = api.get(f"/games/{game.game_id}/events?limit=1", headers=gm).json()["last_seq"]
        assert last > EVENTS
        expect(page.locator(f"#seq-{last}")).to_be_visible(timeout=TIMEOUT)  # opens on the latest
        assert page.locator("#log li").count() <= MAX_DOM_LINES

        walked = page.evaluate(SCROLL_TO_FIRST)
        assert walked == {
            "count": last,
            "first": 1,
            "last": last,
            "broken": None,
            "most": walked["most"],
        }, walked
        assert walked["most"] <= MAX_DOM_LINES
        expect(page.locator("#seq-1")).to_contain_text("created")

        # A live line appends, at the end, once, while the reader is up at line 1 ...
        said = api.post(
            f"/games/{game.game_id}/commands", json={"type": "say", "text": "今来た行"}, headers=gm
        )
        assert said.status_code == 201, said.text
        # ... and shows at the end of the log once the reader comes back down (the tab "All").
        page.click("#tabs button:text-is('All')")
        expect(page.locator("#log li", has_text="今来た行")).to_have_count(1, timeout=TIMEOUT)
        assert page.locator("#log li").count() <= MAX_DOM_LINES

        # Tabs and search filter the data: 雑談 (Chat on this English page) only, then a search.
        page.click("#tabs button:text-is('Chat')")
        tabs = page.locator("#log li").evaluate_all("items => items.map(i => i.dataset.tab)")
        assert tabs and set(tabs) <= {"雑談"}
        page.click("#tabs button:text-is('All')")
        page.fill("#log-search", "I act")
        expect(page.locator("#log li").first).to_contain_text("I act")
        texts = page.locator("#log li .text").all_inner_texts()
        assert texts and all("I act" in t for t in texts)
        page.fill("#log-search", "")

        public.page.goto(f"{server.base_url}/g/{game.game_id}")
        expect(public.page.locator("#connection")).to_have_attribute(
            "data-state", "live", timeout=TIMEOUT
        )
        expect(public.page.locator("#log li").last).to_be_visible()
        for audience in (ben, public):
            assert SECRET not in audience.received(), audience.name
            assert not audience.errors, audience.errors
    finally:
        ben.close()
        public.close()


def test_long_game_fixture_is_in_the_store(long_server: tuple[KirokuServer, LongGame]) -> None:
    server, game = long_server
    head = httpx.get(f"{server.base_url}/games/{game.game_id}/events?after=0&limit=1").json()
    assert head["last_seq"] >= EVENTS
    # The markers the leak check looks for are there, for the GM.
    gm = {"Authorization": f"Bearer {game.gm_token}"}
    page = httpx.get(
        f"{server.base_url}/games/{game.game_id}/events?after=0&limit=100", headers=gm
    ).text
    assert SECRET in page
