"""A クトゥルフ7版 (BCDice Cthulhu7th) table in real Chromium: the game is created from the home
page's system picker, a seat rolls `CC<=54` and the secret `SCC<=54` from the chat box; the
GM reads the secret result, the other seat only 「シークレットダイス」; after the end the session
log verifies itself (every face re-derived from the revealed seed)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.browser.test_session_log import embedded, rehash
from tests.browser.test_table import TIMEOUT, join, line, open_home, say
from tests.serverproc import KirokuServer


def test_a_cthulhu7th_table_rolls_bcdice_s_commands(
    browser: Any, server: KirokuServer, tmp_path: Path
) -> None:
    gm = Audience.open(browser, "gm")
    aki = Audience.open(browser, "seat:1")
    ben = Audience.open(browser, "seat:2")
    try:
        page = gm.page
        open_home(page, server.base_url)
        page.fill("input[name=title]", "狂気山脈")
        seats = page.locator("input[name=seat]")
        seats.nth(0).fill("Aki")
        seats.nth(1).fill("Ben")
        page.fill("#system-search", "新クトゥルフ")
        expect(page.locator("#system")).to_have_value("Cthulhu7th")
        page.click("text=Create the game")
        expect(page.locator("#created")).to_be_visible(timeout=TIMEOUT)
        links = page.locator("input.link")
        urls = [links.nth(i).input_value() for i in range(links.count())]
        page.click("#open-table")
        expect(page.locator("#gm-pane")).to_be_visible(timeout=TIMEOUT)
        # the system in the top bar, its help a click away
        expect(page.locator("#game-system")).to_contain_text(
            "新クトゥルフ神話TRPG", timeout=TIMEOUT
        )
        page.click("#game-system")
        expect(page.locator("#system-help-text")).to_contain_text("CC(x)<=")

        join(aki, urls[0])
        join(ben, urls[1])
        expect(aki.page.locator(".palette-command", has_text="CC<=50")).to_have_count(1)
        page.click("text=Start the game")
        expect(line(aki, "The game starts")).to_have_count(1, timeout=TIMEOUT)

        say(aki, "CC<=54 目星")
        rolled = re.compile(
            r"\(1D100<=54\) ボーナス・ペナルティダイス\[0\] ＞ \d+ ＞ \d+ ＞ .+ 目星"
        )
        for audience in (gm, aki, ben):
            expect(line(audience, "目星")).to_have_text(rolled, timeout=TIMEOUT)

        say(aki, "SCC<=54 聞き耳")
        expect(line(gm, "聞き耳")).to_contain_text("ボーナス・ペナルティダイス", timeout=TIMEOUT)
        expect(line(aki, "聞き耳")).to_contain_text("ボーナス・ペナルティダイス", timeout=TIMEOUT)
        expect(line(ben, "シークレットダイス")).to_have_count(1, timeout=TIMEOUT)
        assert "聞き耳" not in ben.received()

        say(aki, "こんにちは CC")  # not a command: a chat line
        expect(line(ben, "こんにちは CC")).to_have_count(1, timeout=TIMEOUT)

        page.once("dialog", lambda dialog: dialog.accept())
        page.click("text=End the game")
        expect(line(ben, "聞き耳").first).to_contain_text(
            "ボーナス・ペナルティダイス", timeout=TIMEOUT
        )
    finally:
        for audience in (gm, aki, ben):
            audience.context.close()

    game_id = urls[0].split("/g/")[1].split("/")[0]
    # the file in English (it is written in its exporter's language, Japanese by default)
    english = {"Accept-Language": "en"}
    html = httpx.get(
        f"{server.base_url}/games/{game_id}/log.html", headers=english, timeout=20
    ).text
    path = tmp_path / "log.html"
    path.write_text(html, encoding="utf-8")
    reader = browser.new_page()
    try:
        reader.goto(path.as_uri())
        verdict = reader.locator("#verdict")
        expect(verdict).to_have_attribute("data-state", "ok", timeout=20_000)
        assert "draws from the revealed seed" in verdict.inner_text()
        # a face changed in a roll's result (not in its draw), the chain recomputed around
        # it: the verifier names the roll
        header, envelopes = embedded(html)
        event = next(e for e in envelopes if e["type"] == "DiceRolled" and e["public"]["roll"])
        faces = event["public"]["roll"]["result"]["faces"]
        faces[0] = faces[0] % 10 + 1
        path.write_text(rehash(header, envelopes, html), encoding="utf-8")
        reader.goto("about:blank")
        reader.goto(path.as_uri())
        expect(verdict).to_have_attribute("data-state", "bad", timeout=20_000)
        expect(verdict).to_have_attribute("data-seq", str(event["seq"]))
        assert "the roll's faces are not the faces drawn for it" in verdict.inner_text()
    finally:
        reader.close()
