"""The end of a メカd20 game in real Chromium: the GM's sealed NPC sheet is revealed, and the
table page and the exported session log show it as the line it reveals — the unit's line with
its sheet as a sheet (レベル, 【出力】, AC…, パワー), never the sheet's fields — where a seat and a
spectator read only its name until then. On the table the reveal's own line reads so too,
pointing to the line it reveals. The seat's browser reads English, the spectator's Japanese:
each reads the line, sheet and all, in its language (issue 33, item 1)."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.browser.test_i18n import VISIBLE_TEXTS
from tests.browser.test_table import TIMEOUT, join
from tests.rulesets.mech_d20.sheets import AKI, SECRET_POWER, boss
from tests.serverproc import KirokuServer

NS = "mech_d20."
NAME_ONLY = "ガルムス (NPC) が戦場に"
SHEET = "ガルムス (NPC) が戦場に — レベル6 【出力】6 【敏捷力】3 習熟ボーナス+3; AC"
POWER = "パワー: クローラッシュ [無限回]"
# The same line on an English page: the rulebook's words in English, the names as typed.
IN_ENGLISH = {
    NAME_ONLY: "ガルムス (NPC) takes the field",
    SHEET: "ガルムス (NPC) takes the field — level 6, Output 6 Agility 3, proficiency bonus +3; AC",
    POWER: "powers: クローラッシュ [at-will]",
}
# the sheet's field names (a dump), not the English words 「proficiency bonus」
FIELDS = re.compile(r"max_hp|surge_value|abilities|defences|proficiency(?! bonus)|[{}\"]")


def npc_line(audience: Audience, seq: int) -> Any:
    return audience.page.locator(f"#log li[data-seq='{seq}'] .text")


def test_the_npc_sheet_reads_as_a_sheet_once_revealed(browser: Any, server: KirokuServer) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    created = api.post(
        "/games",
        json={"title": "メカd20: 公開", "ruleset": "mech_d20", "seats": ["Aki"]},
    ).json()
    game, gm = created["game_id"], {"Authorization": f"Bearer {created['gm_token']}"}

    def do(body: dict[str, Any]) -> list[dict[str, Any]]:
        response = api.post(f"/games/{game}/commands", json=body, headers=gm)
        assert response.status_code == 201, response.text
        events: list[dict[str, Any]] = response.json()["events"]
        return events

    do({"type": "start"})
    do({"type": NS + "add_unit", "name": "グレイブ", "owner": "seat:1", "sheet": AKI})
    added = do({"type": NS + "add_unit", "name": "ガルムス", "kind": "npc", "sheet": boss(0)})
    seq = added[0]["seq"]
    aki = Audience.open(browser, "seat:1")
    spectator = Audience.open(browser, "public", locale="ja-JP")
    try:
        join(aki, created["seats"][0]["link"])
        spectator.page.goto(f"{server.base_url}/g/{game}")
        # Aki's browser reads English (Audience's default), the spectator's Japanese
        said = {
            aki.name: IN_ENGLISH,
            spectator.name: {japanese: japanese for japanese in IN_ENGLISH},
        }
        for reader in (aki, spectator):
            words = said[reader.name]
            expect(npc_line(reader, seq)).to_have_text(words[NAME_ONLY], timeout=TIMEOUT)
            assert SECRET_POWER not in reader.page.inner_text("#log")

        before = {reader.name: len(reader.responses) for reader in (aki, spectator)}
        do({"type": "end", "summary": "ガルムス撃破"})
        for reader in (aki, spectator):
            words = said[reader.name]
            # the line is redrawn as its reader now reads it: the sheet as a sheet
            expect(npc_line(reader, seq)).to_contain_text(words[SHEET], timeout=TIMEOUT)
            text = npc_line(reader, seq).inner_text()
            assert words[POWER] in text and SECRET_POWER in text
            assert not FIELDS.search(text), text
            reveal = reader.page.locator("#log li[data-kind='reveal']").filter(
                has=reader.page.locator("a.concerns", has_text=f"#{seq}")
            )
            expect(reveal).to_have_count(1)
            mark = reader.page.locator(f"#log li[data-seq='{seq}'] .verify-mark.ok")
            expect(mark).to_have_count(1)  # its body checked against its commitment
            # the reveal's own line reads as the line it reveals, pointing to it (↪ #seq):
            # the unit with its sheet, not 「#4の秘匿を公開」
            expect(reveal.locator(".text")).to_contain_text(words[SHEET])
            shown = reveal.locator(".text").inner_text()
            assert SECRET_POWER in shown and not FIELDS.search(shown), shown
            expect(reveal.locator(".speaker")).to_have_text("GM")
            # the end's reveals (the dice seed's, the sheet's) refresh their lines together
            pages = [
                r.url.split("?", 1)[1]
                for r in reader.responses[before[reader.name] :]
                if "/events?" in r.url
            ]
            assert pages == ["after=0&limit=4"], pages

        # The session log: the reveal right under the line, folded; opened, it reads the
        # line with the sheet, under the line as the table read it then.
        page = spectator.page
        page.goto(f"{server.base_url}/games/{game}/log.html")
        folded = page.locator(f"p#seq-{seq}.fold")
        expect(folded).to_be_attached(timeout=TIMEOUT)
        under = folded.locator("xpath=following-sibling::p[1]")
        expect(under).to_have_class(re.compile(r"\brevealing\b"))
        expect(under).to_be_hidden()
        folded.locator("button.summary").click()
        expect(folded).to_contain_text(NAME_ONLY)
        expect(under).to_be_visible()
        expect(under).to_contain_text(SHEET)
        shown = [t for t in page.evaluate(VISIBLE_TEXTS) if FIELDS.search(t) and "{" in t]
        assert shown == [], shown
        assert not aki.errors and not spectator.errors, (aki.errors, spectator.errors)
    finally:
        aki.close()
        spectator.close()
