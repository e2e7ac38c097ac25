"""What follows the player, in real Chromium: a seat imports a ココフォリア clipboard character
with the pages' own module (static/seatsettings.js); it becomes a speaker with its colour and
palette, and a second browser of the same seat (another context, its own invite) has them.

This drives the module on its own (a second copy beside the one the table page mounts in
its pane); tests/browser/test_table_follow.py drives the table page's own."""

from __future__ import annotations

import json
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.api.test_seat_settings import CLIPBOARD
from tests.browser.audience import Audience
from tests.browser.conftest import screenshot_path
from tests.browser.test_i18n import create_game
from tests.browser.test_table import TIMEOUT
from tests.serverproc import KirokuServer

MOUNT = """async (gameId) => {
  const { seatStore, characterTools } = await import("/static/seatsettings.js");
  window.kirokuStore = await seatStore(gameId);
  document.body.append(characterTools(gameId, window.kirokuStore));
}"""


def sign_in(audience: Audience, link: str) -> None:
    audience.page.goto(link)
    audience.page.click("#join-form button")
    audience.page.wait_for_url("**/g/*", timeout=TIMEOUT)
    expect(audience.page.locator("#chat")).to_be_visible(timeout=TIMEOUT)


def test_an_imported_character_follows_the_seat(browser: Any, server: KirokuServer) -> None:
    gm = Audience.open(browser, "gm", locale="ja-JP")
    phone = Audience.open(browser, "seat:1", locale="ja-JP")
    laptop = Audience.open(browser, "seat:1 on another device", locale="ja-JP")
    try:
        created = create_game(gm.page, server.base_url)
        game_id = created["table"].removeprefix("/g/")
        sign_in(phone, created["seat1"])
        token = created["gm"].split("#token=")[1]
        second = httpx.post(
            f"{server.base_url}/games/{game_id}/seats/1/invite",
            headers={"Authorization": f"Bearer {token}"},
        ).json()["link"]
        sign_in(laptop, second)

        page = phone.page
        page.evaluate(MOUNT, game_id)
        page.click("body > details.character-tools summary")
        expect(page.locator("body > details.character-tools summary")).to_have_text(
            "キャラクター（ココフォリア）"
        )
        page.fill(
            "body > details.character-tools textarea.ccfolia-input",
            json.dumps(CLIPBOARD, ensure_ascii=False),
        )
        page.click("body > details.character-tools button.primary")
        expect(page.locator("body > details.character-tools ul.characters li")).to_contain_text(
            "フジキド・ケンジ", timeout=TIMEOUT
        )
        expect(page.locator("body > details.character-tools ul.characters .speaker")).to_have_css(
            "color", "rgb(178, 34, 34)"
        )
        panel = page.locator("body > details.character-tools")
        panel.screenshot(path=str(screenshot_path("ccfolia-import-ja.png")))
        assert page.evaluate("window.kirokuStore.read('speakers', [])") == ["フジキド・ケンジ"]
        # the chat box's own writes (a palette line, a colour) reach the server too
        page.evaluate(
            """() => { const s = window.kirokuStore;
                 s.write('palette:フジキド・ケンジ', [...s.read('palette:フジキド・ケンジ', []),
                   '2D6 挨拶']); }"""
        )
        page.wait_for_timeout(1000)  # the store saves a moment after the last write

        # the same seat's other browser reads it all from the server
        laptop.page.evaluate(MOUNT, game_id)
        other = laptop.page.evaluate(
            """() => ({ speakers: window.kirokuStore.read('speakers', []),
                 color: window.kirokuStore.read('color:フジキド・ケンジ', null),
                 palette: window.kirokuStore.read('palette:フジキド・ケンジ', []) })"""
        )
        assert other == {
            "speakers": ["フジキド・ケンジ"],
            "color": "#b22222",
            "palette": ["{カラテ}B6>=4 カラテ攻撃", "{ニューロン}B6>=4 回避", "2D6 挨拶"],
        }
        laptop.page.click("body > details.character-tools summary")
        expect(
            laptop.page.locator("body > details.character-tools ul.characters li")
        ).to_contain_text("フジキド・ケンジ")
        # the GM's settings are the GM's own: nothing of the seat's
        gm.page.goto(server.base_url + created["table"])
        expect(gm.page.locator("#chat")).to_be_visible(timeout=TIMEOUT)
        gm.page.evaluate(MOUNT, game_id)
        assert gm.page.evaluate("window.kirokuStore.read('speakers', [])") == []
        assert "挨拶" not in gm.received()
        for audience in (gm, phone, laptop):
            assert not audience.errors, audience.errors
    finally:
        for audience in (gm, phone, laptop):
            audience.close()
