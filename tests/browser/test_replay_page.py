"""The replay page in real Chromium: seek, step and keys, a perspective switch the server
refuses, jumps to rulings, and after the end the dispute report beside the log.

One server for the module: a short game played over HTTP (a seat signed in by its session
cookie replays it), and the shipped 超人ロック sample imported, whose report checks
declarations against the truth."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.browser.conftest import read_in_japanese, screenshot_path
from tests.samples import SAMPLES, import_sample
from tests.serverproc import KirokuServer

NOTE = "AKI_NOTE_FOR_THE_GM_5b7"
TIMEOUT = 10_000
CHOJIN = SAMPLES / "chojin-locke-6p.jsonl"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KirokuServer]:
    db = tmp_path_factory.mktemp("replay") / "kiroku.db"
    import_sample(CHOJIN, db)
    with KirokuServer(db=db) as running:
        yield running


class Game:
    """A short game over HTTP: who holds which token, and the seq of each thing done."""

    def __init__(self, base_url: str) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=10)
        created = self.http.post(
            "/games", json={"title": "リプレイの卓", "seats": ["Aki", "Ben"]}
        ).json()
        self.id = created["game_id"]
        self.tokens = {"gm": created["gm_token"]}
        for seat in created["seats"]:
            joined = self.http.post(f"/games/{self.id}/join", json={"invite": seat["invite"]})
            self.tokens[f"seat:{seat['seat']}"] = joined.json()["token"]
        self.seq: dict[str, int] = {}

    def do(self, name: str, actor: str, body: dict[str, Any]) -> None:
        answer = self.http.post(
            f"/games/{self.id}/commands",
            json=body,
            headers={"Authorization": f"Bearer {self.tokens[actor]}"},
        )
        assert answer.status_code == 201, answer.text
        self.seq[name] = answer.json()["last_seq"]

    def sign_in(self, audience: Audience, actor: str) -> None:
        """The browser context gets the seat's session cookie, as the join page would."""
        answer = audience.context.request.post(
            f"{self.http.base_url}/games/{self.id}/session",
            headers={"Authorization": f"Bearer {self.tokens[actor]}", "X-Kiroku": "1"},
        )
        assert answer.status == 201, answer.text()


def open_replay(audience: Audience, url: str) -> Any:
    page = audience.page
    page.goto(url)
    expect(page.locator("#replay[data-ready=true]")).to_be_attached(timeout=TIMEOUT)
    return page


def at(page: Any, seq: int) -> None:
    expect(page.locator("#event-title")).to_contain_text(f"Event #{seq} of", timeout=TIMEOUT)
    expect(page.locator("#log li.current")).to_have_attribute("data-seq", str(seq))


def test_a_seat_replays_a_game_then_reads_the_report(browser: Any, server: KirokuServer) -> None:
    game = Game(server.base_url)
    ben = Audience.open(browser, "seat:2")
    game.sign_in(ben, "seat:2")  # logged (SessionOpened), so before the game's events
    game.do("start", "gm", {"type": "start"})
    game.do("note", "seat:1", {"type": "note", "text": NOTE, "to": ["gm"]})
    game.do("roll", "seat:2", {"type": "roll", "expression": "2D6+1>=8 忍び足"})
    game.do("say", "seat:2", {"type": "say", "text": "扉を開ける"})
    game.do(
        "ruling", "gm", {"type": "ruling", "concerning_seq": game.seq["roll"], "text": "+1 有効"}
    )
    game.do(
        "amend", "gm", {"type": "amend", "concerning_seq": game.seq["ruling"], "reason": "取消"}
    )
    last = game.seq["amend"]
    try:
        # The table page links to the replay.
        ben.page.goto(f"{server.base_url}/g/{game.id}")
        ben.page.click("#replay-link")
        expect(ben.page.locator("#replay[data-ready=true]")).to_be_attached(timeout=TIMEOUT)
        page = ben.page
        at(page, last)
        expect(page.locator("#position")).to_have_text(f"of {last}")
        expect(page.locator("#perspective")).to_have_value("seat:2")

        # Seek with the number box: the roll and its dice line (it changed no view).
        page.fill("#seq-input", str(game.seq["roll"]))
        page.press("#seq-input", "Enter")
        at(page, game.seq["roll"])
        expect(page.locator("#event-line .text")).to_contain_text("(2D6+1>=8) ＞")
        expect(page.locator("#explanation code")).to_contain_text("(2D6+1>=8) ＞")
        expect(page.locator("#log li")).to_have_count(game.seq["roll"])
        expect(page.locator("#changes")).to_contain_text("Nothing Ben could see changed")
        # Step with the keys (from the slider) and the buttons.
        page.focus("#slider")
        page.keyboard.press("ArrowLeft")
        at(page, game.seq["note"])
        expect(page.locator("#event-line .text")).to_have_text("秘密のメモ")
        page.keyboard.press("ArrowRight")
        at(page, game.seq["roll"])
        page.keyboard.press("Home")
        at(page, 1)
        page.keyboard.press("PageDown")
        at(page, min(11, last))
        page.keyboard.press("End")
        at(page, last)
        page.click("#back")
        at(page, last - 1)
        # The slider goes anywhere.
        page.locator("#slider").fill(str(game.seq["start"]))
        at(page, game.seq["start"])
        expect(page.locator("#changes tbody tr", has_text="status")).to_contain_text("started")
        # Jumps: the next ruling, then what it concerns (its ↪ link in the log).
        page.click("button.jump[data-mark=rulings]")
        at(page, game.seq["ruling"])
        page.click("#log li.current a.concerns")
        at(page, game.seq["roll"])
        page.click("button.jump[data-mark=amendments]")
        at(page, game.seq["amend"])

        # Before the end, another seat's eyes are refused with the server's words.
        page.select_option("#perspective", "seat:1")
        expect(page.locator("#perspective-error")).to_contain_text(
            "Until the game ends you can replay only as yourself"
        )
        expect(page.locator("#perspective")).to_have_value("seat:2")
        at(page, game.seq["amend"])
        page.select_option("#perspective", "public")
        expect(page.locator("#perspective-error")).to_be_hidden()
        expect(page.locator("#view-title")).to_contain_text("spectator")
        assert NOTE not in ben.received()
        assert ben.errors == []

        # After the end: the report beside the log, every ruling linked to its seq; and any eyes.
        game.do("end", "gm", {"type": "end", "summary": "幕"})
        page.goto(f"{server.base_url}/g/{game.id}/replay#at={game.seq['note']}&as=seat:1")
        page.reload()  # a new fragment alone does not load the page again
        expect(page.locator("#replay[data-ready=true]")).to_be_attached(timeout=TIMEOUT)
        at(page, game.seq["note"])
        expect(page.locator("#perspective")).to_have_value("seat:1")
        expect(page.locator("#event-line .text")).to_have_text(NOTE)
        expect(page.locator("#audit-pane")).to_be_visible()
        expect(page.locator("#audit .verdict")).to_have_text("CLEAN")
        rulings = page.locator("#audit table.audit-rulings tbody tr")
        expect(rulings).to_have_count(2)
        rulings.nth(0).locator("button.seq-link").first.click()
        at(page, game.seq["ruling"])
        expect(page.locator(f"#audit tr.current[data-seq='{game.seq['ruling']}']")).to_have_count(1)
        rulings.nth(0).locator("button.seq-link").nth(1).click()  # what it concerns
        at(page, game.seq["roll"])
        assert ben.errors == []
    finally:
        ben.close()
        game.http.close()


def test_the_report_sets_each_declaration_beside_the_truth(
    browser: Any, server: KirokuServer
) -> None:
    """The imported 超人ロック sample, read by a spectator (the game allows them)."""
    header = json.loads(CHOJIN.read_text(encoding="utf-8").splitlines()[0])
    # the report in the page's language (Audience's locale: en-US): its texts are read in it
    report = httpx.get(
        f"{server.base_url}/games/{header['game_id']}/audit",
        headers={"Accept-Language": "en-US"},
        timeout=10,
    ).json()
    first = report["declarations"][0]
    assert first["what"] == "check: willpower"  # in words, not the purpose's id nor Japanese
    spectator = Audience.open(browser, "public", viewport={"width": 1360, "height": 860})
    try:
        page = open_replay(spectator, f"{server.base_url}/g/{header['game_id']}/replay")
        at(page, header["events"])
        rows = page.locator("#audit table.audit-declarations tbody tr")
        expect(rows).to_have_count(len(report["declarations"]))
        row = rows.nth(0)
        expect(row).to_contain_text(first["what"])
        expect(row.locator("td").nth(3)).to_have_text(str(first["declared"]))
        expect(row.locator("td").nth(4)).to_have_text(str(first["truth"]))
        expect(row).to_contain_text(first["verdict"])
        row.locator("button.seq-link").click()
        at(page, first["seq"])
        page.locator(".panes").evaluate("panes => { panes.scrollTop = 0; }")
        current = f"#log li.current[data-seq='{first['seq']}']"
        with read_in_japanese(spectator, "#audit table.audit-declarations tbody tr"):
            expect(page.locator(current)).to_be_visible(timeout=TIMEOUT)
            page.locator(".panes").evaluate("panes => { panes.scrollTop = 0; }")
            page.screenshot(path=screenshot_path("replay-desktop.png"))
        at(page, first["seq"])  # reloaded in English: back at the same event before going on
        # The next declaration check from there is the report's second row.
        page.click("button.jump[data-mark=declarations]")
        at(page, report["declarations"][1]["seq"])
        assert spectator.errors == []
    finally:
        spectator.close()


def test_the_replay_page_has_no_inline_script(server: KirokuServer) -> None:
    page = httpx.get(f"{server.base_url}/g/some-game/replay", timeout=10)
    assert page.status_code == 200 and "<script>" not in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert Path(__file__).parents[2].joinpath("api/pages/static/replay.js").exists()
