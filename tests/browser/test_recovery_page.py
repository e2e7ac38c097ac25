"""The GM who lost its link gets the GM seat back on another browser with the recovery code
shown at creation (issue 33, item 6), in real Chromium: the join page takes the code, shows
the next one once, and the table opens as the GM; the code is spent."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.browser.test_table import TIMEOUT
from tests.serverproc import KirokuServer


def test_the_recovery_code_gets_the_gm_seat_back(browser: Any, server: KirokuServer) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    created = api.post("/games", json={"title": "金曜の卓", "seats": ["Aki"]}).json()
    game, code = created["game_id"], created["recovery_code"]
    lost = Audience.open(browser, "gm", locale="ja-JP")
    try:
        lost.page.goto(f"{server.base_url}/g/{game}/join")
        expect(lost.page.locator("#recover-form")).to_be_visible(timeout=TIMEOUT)
        lost.page.fill("#recover-form input[name=code]", code)
        lost.page.click("#recover-form button")
        following = lost.page.locator("#next-recovery-code")
        expect(following).not_to_be_empty(timeout=TIMEOUT)
        expect(lost.page.locator("#recover-form")).to_contain_text("席を取り戻しました")
        assert following.inner_text() != code
        lost.page.click("#to-table")
        expect(lost.page.locator("#gm-pane")).to_be_visible(timeout=TIMEOUT)
        me = lost.page.evaluate("async (id) => (await fetch(`/games/${id}/session`)).json()", game)
        assert me["actor"] == "gm"
        spent = api.post(f"/games/{game}/recover", json={"code": code})
        assert spent.status_code == 401 and spent.json()["code"] == "invalid_recovery_code"
        assert not lost.errors, lost.errors
    finally:
        lost.close()
