"""What follows the player, on the table page itself, in real Chromium (one context per
person): a ココフォリア character imported in one browser of a seat is a speaker with its
palette in every browser of that seat and in no other seat's; the table's ログ出力 downloads
the session log as this audience may see it so far."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.api.test_seat_settings import CLIPBOARD
from tests.browser.audience import Audience
from tests.browser.test_i18n import NAMES, TITLE, create_game
from tests.browser.test_seat_settings_page import sign_in
from tests.browser.test_table import TIMEOUT, say
from tests.serverproc import KirokuServer

FUJIKIDO = CLIPBOARD["data"]["name"]
BEN_NOTE_TO_GM = "BEN_SECRET_NOTE_TO_GM_5e3"
FIRST_LINE = re.compile(r'<p style="color:#[0-9a-f]{6};">(.*?)</p>', re.S)


def seat_two_link(audience: Audience) -> str:
    """The create page's second seat link (create_game returns the first and the GM's)."""
    link: str = audience.page.locator("#links input.link").nth(1).input_value()
    return link


def test_an_imported_character_follows_the_seat_to_its_other_browser(
    browser: Any, server: KirokuServer
) -> None:
    gm = Audience.open(browser, "gm", locale="ja-JP")
    phone = Audience.open(browser, "seat:1", locale="ja-JP")
    laptop = Audience.open(browser, "seat:1 on another device", locale="ja-JP")
    other = Audience.open(browser, "seat:2", locale="ja-JP")
    audiences = (gm, phone, laptop, other)
    try:
        created = create_game(gm.page, server.base_url)
        game_id = created["table"].removeprefix("/g/")
        ben = seat_two_link(gm)
        token = created["gm"].split("#token=")[1]
        sign_in(phone, created["seat1"])
        sign_in(other, ben)

        # seat 1's first browser imports the character from the table's own pane
        page = phone.page
        panel = page.locator("#my-pane details.character-tools")
        panel.locator("summary").click()
        page.fill("#my-pane textarea.ccfolia-input", json.dumps(CLIPBOARD, ensure_ascii=False))
        panel.locator("button.primary").click()
        expect(panel.locator("button.primary")).to_have_text("キャラクターを読み込む")
        expect(panel.locator("ul.characters li")).to_contain_text(FUJIKIDO, timeout=TIMEOUT)
        # it is the chosen speaker, in its colour, with its palette
        expect(page.locator("#speaker")).to_have_value(FUJIKIDO)
        expect(page.locator("#color")).to_have_value("#b22222")
        palette = page.locator("#palette .palette-command")
        expect(palette).to_have_text(["{カラテ}B6>=4 カラテ攻撃", "{ニューロン}B6>=4 回避"])
        # a palette line saved from the chat box goes to the server as well
        page.fill("#chat-text", "2D6 挨拶")
        page.click("#palette .palette-save")
        expect(palette).to_have_count(3)
        page.wait_for_timeout(1000)  # the store saves a moment after the last write

        # the same seat's other browser (a new link once the seat has joined) has it all
        second = httpx.post(
            f"{server.base_url}/games/{game_id}/seats/1/invite",
            headers={"Authorization": f"Bearer {token}"},
        ).json()["link"]
        sign_in(laptop, second)
        speaker = laptop.page.locator("#speaker")
        expect(speaker.locator("option")).to_have_text([NAMES[0], FUJIKIDO], timeout=TIMEOUT)
        speaker.select_option(FUJIKIDO)
        expect(laptop.page.locator("#color")).to_have_value("#b22222")
        expect(laptop.page.locator("#palette .palette-command")).to_have_text(
            ["{カラテ}B6>=4 カラテ攻撃", "{ニューロン}B6>=4 回避", "2D6 挨拶"]
        )

        # another seat (and its reload) has nothing of seat 1's
        other.page.reload()
        expect(other.page.locator("#chat")).to_be_visible(timeout=TIMEOUT)
        expect(other.page.locator("#speaker option")).to_have_text([NAMES[1]])
        other.page.locator("#my-pane details.character-tools summary").click()
        expect(other.page.locator("#my-pane ul.characters li")).to_have_count(0)
        assert FUJIKIDO not in other.page.inner_text("body")
        for audience in audiences:
            assert not audience.errors, audience.errors
    finally:
        for audience in audiences:
            audience.close()


def export(audience: Audience, tmp_path: Path) -> str:
    """Click the table's ログ出力 and read the file it downloads."""
    page = audience.page
    button = page.locator("#log-export")
    expect(button).to_have_text("ログ出力")
    with page.expect_download(timeout=TIMEOUT) as caught:
        button.click()
    download = caught.value
    assert download.suggested_filename.endswith(".html")
    path = tmp_path / f"{audience.name}.html"
    download.save_as(path)
    return path.read_text(encoding="utf-8")


def test_log_export_on_the_table_downloads_what_this_seat_may_see(
    browser: Any, server: KirokuServer, tmp_path: Path
) -> None:
    gm = Audience.open(browser, "gm", locale="ja-JP")
    aki = Audience.open(browser, "seat1", locale="ja-JP")
    ben = Audience.open(browser, "seat2", locale="ja-JP")
    audiences = (gm, aki, ben)
    try:
        created = create_game(gm.page, server.base_url)
        game_id = created["table"].removeprefix("/g/")
        ben_link = seat_two_link(gm)
        token = created["gm"].split("#token=")[1]
        started = httpx.post(
            f"{server.base_url}/games/{game_id}/commands",
            json={"type": "start"},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert started.status_code < 300, started.text
        sign_in(aki, created["seat1"])
        sign_in(ben, ben_link)
        say(aki, "ドーモ、皆さん")
        say(ben, BEN_NOTE_TO_GM, to="gm")
        expect(ben.page.locator("#log li", has_text=BEN_NOTE_TO_GM)).to_be_visible()
        expect(aki.page.locator("#log li", has_text="ドーモ、皆さん")).to_be_visible()

        html = export(aki, tmp_path)
        first = FIRST_LINE.search(html)
        assert first is not None, html[:2000]
        assert TITLE in first.group(1)  # the game's first line: 「…」を作成した
        assert "ドーモ、皆さん" in html
        assert BEN_NOTE_TO_GM not in html  # another seat's note to the GM stays out
        # the marker is in the log: the note's own seat exports it
        assert BEN_NOTE_TO_GM in export(ben, tmp_path)
        for audience in audiences:
            assert not audience.errors, audience.errors
    finally:
        for audience in audiences:
            audience.close()


def test_the_chosen_recipient_survives_a_refresh(browser: Any, server: KirokuServer) -> None:
    """A seat picks "GM only", then someone joins (the page redraws its recipients): the
    choice stays, so the whisper typed next is still a whisper."""
    gm = Audience.open(browser, "gm", locale="ja-JP")
    aki = Audience.open(browser, "seat1", locale="ja-JP")
    ben = Audience.open(browser, "seat2", locale="ja-JP")
    try:
        created = create_game(gm.page, server.base_url)
        ben_link = seat_two_link(gm)
        sign_in(aki, created["seat1"])
        aki.page.select_option("#to", "gm")
        sign_in(ben, ben_link)  # a seat taken: every page refreshes the game and its seats
        expect(aki.page.locator("#log li", has_text=f"{NAMES[1]}が席2に着いた")).to_be_visible(
            timeout=TIMEOUT
        )
        expect(aki.page.locator("#to")).to_have_value("gm")
        say(aki, "AKI_WHISPER_TO_GM", to="gm")
        expect(aki.page.locator("#log li", has_text="AKI_WHISPER_TO_GM")).to_be_visible(
            timeout=TIMEOUT
        )
        say(aki, "AKI_TO_EVERYONE")  # once this reaches Ben, the whisper would have too
        expect(ben.page.locator("#log li", has_text="AKI_TO_EVERYONE")).to_be_visible(
            timeout=TIMEOUT
        )
        expect(ben.page.locator("#log li", has_text="AKI_WHISPER_TO_GM")).to_have_count(0)
    finally:
        for audience in (gm, aki, ben):
            audience.close()
