"""A table without a referee in real Chromium: the creator picks "No referee" on the home
page, gets a host link and the host pane (the GM pane without secret powers), and never
receives a seat's secret; a seat's whisper to the host reaches it."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.browser.test_table import TIMEOUT, join, line, open_home, say
from tests.serverproc import KirokuServer

AKI_SECRET = "AKI_SECRET_ROLL_h0st"
AKI_TO_BEN = "AKI_WHISPER_TO_BEN_h0st"
AKI_TO_HOST = "AKI_WHISPER_TO_HOST_h0st"


def test_a_host_runs_a_table_without_seeing_its_secrets(browser: Any, server: KirokuServer) -> None:
    host = Audience.open(browser, "host")
    aki = Audience.open(browser, "seat:1")
    ben = Audience.open(browser, "seat:2")
    try:
        page = host.page
        open_home(page, server.base_url)
        # each ruleset's default: 超人ロック has no referee, Ninja Slayer's GM sees everything
        page.select_option("select[name=ruleset]", "chojin_locke")
        expect(page.locator("input[name=referee][value=host]")).to_be_checked()
        page.select_option("select[name=ruleset]", "ninja_slayer")
        expect(page.locator("input[name=referee][value=gm]")).to_be_checked()
        expect(page.locator("input[name=referee][value=host]")).to_be_disabled()
        page.select_option("select[name=ruleset]", "freeform")
        page.check("input[name=referee][value=host]")
        expect(page.locator("#host-seat-label")).to_be_visible()
        page.fill("input[name=title]", "No referee")
        seats = page.locator("input[name=seat]")
        seats.nth(0).fill("Aki")
        seats.nth(1).fill("Ben")
        page.click("text=Create the game")
        expect(page.locator("#created")).to_be_visible(timeout=TIMEOUT)
        expect(page.locator("#open-table")).to_have_text("Open the table as host")
        links = page.locator("input.link")
        urls = [links.nth(i).input_value() for i in range(links.count())]
        assert len(urls) == 3 and "#token=" in urls[2]
        expect(page.get_by_label("Host link")).to_have_value(urls[2])
        page.click("#open-table")
        expect(page.locator("#gm-pane-title")).to_have_text("Host", timeout=TIMEOUT)
        expect(page.locator("#host-note")).to_be_visible()
        expect(page.locator("#blind")).to_be_hidden()

        join(aki, urls[0])
        join(ben, urls[1])
        expect(aki.page.locator("#blind")).to_be_hidden()
        page.click("text=Start the game")
        expect(line(aki, "The game starts")).to_have_count(1, timeout=TIMEOUT)
        # a seat that has joined gets no new link from the host: it would open its secrets
        expect(page.locator("#gm-pane .seats li")).to_have_count(2)
        expect(page.locator("#gm-pane button", has_text="New link")).to_have_count(0)

        say(aki, f"2D6 {AKI_SECRET}", secret=True)
        say(aki, AKI_TO_BEN, to="seat:2")
        say(aki, AKI_TO_HOST, to="host")
        expect(line(ben, AKI_TO_BEN)).to_have_count(1, timeout=TIMEOUT)
        expect(line(host, AKI_TO_HOST)).to_have_count(1, timeout=TIMEOUT)
        expect(line(host, "シークレットダイス")).to_have_count(1)
        page.reload()  # every read again: log, view, stream catch-up
        expect(line(host, AKI_TO_HOST)).to_have_count(1, timeout=TIMEOUT)

        received = host.received()
        assert AKI_SECRET not in received and AKI_TO_BEN not in received
        assert AKI_TO_HOST in received
        assert AKI_TO_HOST not in ben.received()
        for audience in (host, aki, ben):
            assert not audience.errors, audience.errors
    finally:
        for audience in (host, aki, ben):
            audience.close()
