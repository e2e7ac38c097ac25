"""A short freeform game played in real Chromium: a GM and two seats, each in its own browser
context, plus a spectator. Every context is searched for secrets it may not see."""

from __future__ import annotations

import re
import sqlite3
from typing import Any
from uuid import UUID

import httpx
from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.serverproc import KirokuServer

AKI_SECRET = "AKI_SECRET_ROLL_7c1"
BEN_BLIND = "BEN_BLIND_ROLL_9f2"
AKI_WHISPER = "AKI_WHISPER_TO_GM_4d8"
TIMEOUT = 10_000


def say(audience: Audience, text: str, *, tab: str | None = None, **toggles: Any) -> None:
    page = audience.page
    if tab is not None:
        page.select_option("#tab-select", tab)
    if toggles.get("to"):
        page.select_option("#to", toggles["to"])
    if toggles.get("secret"):
        page.check("#secret")
    if toggles.get("blind"):
        page.check("#blind")
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")
    expect(page.locator("#chat-text")).to_have_value("", timeout=TIMEOUT)
    if toggles.get("to"):
        page.select_option("#to", "")


def line(audience: Audience, text: str) -> Any:
    return audience.page.locator("#log li", has_text=text)


def open_home(page: Any, base_url: str) -> None:
    """The home page, once its script runs: BCDice's system list, which the script fetches
    after it takes over the form, has arrived (and redrawn the form above the referee's
    radios). Before that, a click may land on a moving form, or submit it natively (a GET)."""
    page.goto(base_url + "/")
    expect(page.locator("#system option")).not_to_have_count(1, timeout=TIMEOUT)


def create_by_form(gm: Audience, base_url: str) -> list[str]:
    page = gm.page
    open_home(page, base_url)
    page.fill("input[name=title]", "金曜の卓 <script>alert(1)</script>")
    seats = page.locator("input[name=seat]")
    seats.nth(0).fill("Aki")
    seats.nth(1).fill("Ben")
    page.click("text=Create the game")
    expect(page.locator("#created")).to_be_visible(timeout=TIMEOUT)
    links = page.locator("input.link")
    urls = [links.nth(i).input_value() for i in range(links.count())]
    page.click("#open-table")
    expect(page.locator("#gm-pane")).to_be_visible(timeout=TIMEOUT)
    return urls


def join(audience: Audience, link: str) -> None:
    audience.page.goto(link)
    audience.page.click("text=Take my seat")
    expect(audience.page.locator("#chat")).to_be_visible(timeout=TIMEOUT)
    assert "invite=" not in audience.page.url


def test_a_freeform_game_in_three_browsers(browser: Any, server: KirokuServer) -> None:
    gm = Audience.open(browser, "gm")
    aki = Audience.open(browser, "seat:1")
    ben = Audience.open(browser, "seat:2", viewport={"width": 375, "height": 812})
    spectator = Audience.open(browser, "public")
    try:
        aki_link, ben_link, gm_link = create_by_form(gm, server.base_url)
        assert "#invite=" in aki_link and "#token=" in gm_link
        # A title with markup is shown as text, never run.
        expect(gm.page.locator("#game-title")).to_have_text("金曜の卓 <script>alert(1)</script>")
        join(aki, aki_link)
        join(ben, ben_link)
        gm.page.click("text=Start the game")
        expect(line(aki, "The game starts")).to_have_count(1, timeout=TIMEOUT)

        say(aki, "こんにちは、<b>みなさん</b>")
        say(ben, "雑談です", tab="雑談")
        say(aki, "2D6>=7 忍び足")
        say(aki, f"2D6 {AKI_SECRET}", secret=True)
        say(ben, f"1D100<=50 {BEN_BLIND}", blind=True)
        say(aki, AKI_WHISPER, to="gm")

        # Each reader sees what it should, live.
        for reader in (gm, aki, ben):
            expect(line(reader, "忍び足")).to_have_count(1, timeout=TIMEOUT)
            expect(line(reader, "こんにちは、<b>みなさん</b>")).to_have_count(1)
        expect(line(gm, AKI_SECRET)).to_have_count(1, timeout=TIMEOUT)
        expect(line(gm, BEN_BLIND)).to_have_count(1)
        expect(line(gm, AKI_WHISPER)).to_have_count(1)
        expect(line(aki, AKI_SECRET)).to_have_count(1)
        expect(line(aki, AKI_WHISPER)).to_have_count(1)
        expect(line(ben, "シークレットダイス")).to_have_count(1)
        expect(line(ben, "ブラインドダイス")).to_have_count(1)  # told that it rolled blind
        expect(line(ben, "秘話")).to_have_count(1)
        expect(line(aki, "シークレットダイス")).to_have_count(1)  # Ben's blind roll

        # Tabs filter the log: on 雑談 (Chat on this English page) only Ben's chat line
        # (and phases) stay visible.
        ben.page.get_by_role("tab", name="Chat").click()
        expect(line(ben, "雑談です")).to_be_visible()
        expect(line(ben, "忍び足")).to_be_hidden()
        ben.page.get_by_role("tab", name="All").click()

        # The GM rules on Aki's roll from its line.
        roll = line(gm, "忍び足")
        roll_seq = int(roll.get_attribute("data-seq") or 0)
        roll.locator(".line-action").click()
        gm.page.fill("#line-form textarea[name=text]", "The guard was asleep: +1 stands")
        gm.page.click("#line-form button[value=ok]")
        for reader in (gm, aki, ben):
            ruling = line(reader, "The guard was asleep")
            expect(ruling).to_have_count(1, timeout=TIMEOUT)
            expect(ruling.locator(".concerns")).to_have_attribute("href", f"#seq-{roll_seq}")

        # A spectator reads the public log only.
        spectator.page.goto(f"{server.base_url}/g/{gm.page.url.rsplit('/', 1)[-1]}")
        expect(line(spectator, "忍び足")).to_have_count(1, timeout=TIMEOUT)
        expect(spectator.page.locator("#chat")).to_be_hidden()

        # Before the end nothing sealed reaches a context outside its audience: not its DOM,
        # not a response, not a stream message.
        secrets = {AKI_SECRET: {"gm", "seat:1"}, BEN_BLIND: {"gm"}, AKI_WHISPER: {"gm", "seat:1"}}
        for reader in (gm, aki, ben, spectator):
            received = reader.received()
            for secret, readers in secrets.items():
                assert (secret in received) == (reader.name in readers), (reader.name, secret)
            assert "<b>みなさん</b>" not in reader.page.inner_html("#log")  # text, not markup
            assert not reader.errors, reader.errors

        # The end reveals every secret; each checks against its commitment in the browser.
        gm.page.once("dialog", lambda dialog: dialog.accept("Aki escaped"))
        gm.page.click("text=End the game")
        for reader in (aki, ben, spectator):
            expect(line(reader, "The game ends: Aki escaped")).to_have_count(1, timeout=TIMEOUT)
            expect(line(reader, BEN_BLIND).locator(".verify-mark.ok")).to_have_count(
                1, timeout=TIMEOUT
            )
            expect(line(reader, BEN_BLIND).locator(".revealed-mark")).to_have_text("revealed")
            expect(line(reader, AKI_SECRET).first).to_be_visible()
    finally:
        for audience in (gm, aki, ben, spectator):
            audience.close()


def test_a_dropped_connection_catches_up_without_losing_or_doubling(
    browser: Any, server: KirokuServer
) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    created = api.post("/games", json={"title": "Flaky wifi", "seats": ["Aki"]}).json()
    gm_auth = {"Authorization": f"Bearer {created['gm_token']}"}
    game = created["game_id"]
    aki = Audience.open(browser, "seat:1")
    try:
        join(aki, created["seats"][0]["link"])
        api.post(f"/games/{game}/commands", json={"type": "start"}, headers=gm_auth)
        expect(line(aki, "The game starts")).to_have_count(1, timeout=TIMEOUT)
        expect(aki.page.locator("#connection")).to_have_attribute("data-state", "live")

        aki.context.set_offline(True)
        for n in range(5):
            body = {"type": "say", "text": f"while you were away {n}"}
            api.post(f"/games/{game}/commands", json=body, headers=gm_auth)
        aki.page.wait_for_timeout(500)
        aki.context.set_offline(False)
        expect(line(aki, "while you were away 4")).to_have_count(1, timeout=20_000)
        say(aki, "back again")

        last = api.get(f"/games/{game}/events", headers=gm_auth).json()["last_seq"]
        seqs = [
            int(s)
            for s in aki.page.locator("#log li").evaluate_all(
                "items => items.map(i => i.dataset.seq)"
            )
        ]
        assert seqs == list(range(1, last + 1))  # every line once, in order
        aki.page.reload()
        expect(line(aki, "back again")).to_have_count(1, timeout=TIMEOUT)
        assert aki.page.locator("#log li").count() == last
    finally:
        aki.close()


def test_markup_from_players_is_text(browser: Any, server: KirokuServer) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    created = api.post(
        "/games", json={"title": "<img src=x onerror=alert(1)>", "seats": ["<i>Aki</i>"]}
    ).json()
    aki = Audience.open(browser, "seat:1")
    try:
        join(aki, created["seats"][0]["link"])
        say(aki, "<script>document.title='pwned'</script>")
        expect(line(aki, "<script>document.title='pwned'</script>")).to_have_count(1)
        assert aki.page.locator("#log script, #log img, #log i").count() == 0
        assert "pwned" not in aki.page.title()
        assert re.search(r"&lt;script&gt;", aki.page.inner_html("#log"))
    finally:
        aki.close()


def test_the_table_notices_events_deleted_from_the_end(
    browser: Any, server: KirokuServer, tmp_path: Any
) -> None:
    """The page keeps the last head it saw; on its next load it asks /verify whether the log
    still holds it, and says so when the end of the log was cut off."""
    api = httpx.Client(base_url=server.base_url, timeout=10)
    created = api.post("/games", json={"title": "Cut short", "seats": ["Aki"]}).json()
    game, gm_auth = created["game_id"], {"Authorization": f"Bearer {created['gm_token']}"}
    aki = Audience.open(browser, "seat:1")
    try:
        join(aki, created["seats"][0]["link"])
        api.post(f"/games/{game}/commands", json={"type": "start"}, headers=gm_auth)
        for n in range(3):
            body = {"type": "say", "text": f"line {n}"}
            api.post(f"/games/{game}/commands", json=body, headers=gm_auth)
        expect(line(aki, "line 2")).to_have_count(1, timeout=TIMEOUT)
        aki.page.reload()
        expect(line(aki, "line 2")).to_have_count(1, timeout=TIMEOUT)
        expect(aki.page.locator("#table-error")).to_be_hidden()

        last = api.get(f"/games/{game}/events", headers=gm_auth).json()["last_seq"]
        with sqlite3.connect(tmp_path / "kiroku.db") as conn:
            conn.execute(
                "DELETE FROM stored_events WHERE originator_id = ? AND originator_version >= ?",
                (UUID(game).hex, last - 1),
            )
        aki.page.reload()
        error = aki.page.locator("#table-error")
        expect(error).to_be_visible(timeout=TIMEOUT)
        expect(error).to_contain_text("The log has changed since this browser last saw it")
        expect(error).to_contain_text("removed from its end")
    finally:
        aki.close()
