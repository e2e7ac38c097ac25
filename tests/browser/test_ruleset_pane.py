"""Every ruleset can be played from the generic ruleset pane: a form per command, generated
from the command's model, with the server's refusals shown beside the form."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.browser.test_table import TIMEOUT, join, line
from tests.serverproc import KirokuServer


def _game(server: KirokuServer, ruleset: str, seats: list[str]) -> dict[str, Any]:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    response = api.post("/games", json={"title": ruleset, "ruleset": ruleset, "seats": seats})
    assert response.status_code == 201, response.text
    return dict(response.json())


def _as_gm(browser: Any, created: dict[str, Any]) -> Audience:
    """The creator's browser: the GM's, or the host's in a game without a referee (超人ロック)."""
    gm = Audience.open(browser, created["creator"])
    gm.page.goto(created["gm_link"] or created["host_link"])
    expect(gm.page.locator("#gm-pane")).to_be_visible(timeout=TIMEOUT)
    return gm


def _form(audience: Audience, command: str) -> Any:
    # A ruleset with a pane of its own folds the generic one (once its forms are there, the
    # fold is done): unfold it as a user would.
    rules = audience.page.locator("#rules-pane")
    expect(rules.locator(f"form[data-type='{command}']")).to_have_count(1, timeout=TIMEOUT)
    if rules.get_attribute("open") is None:
        rules.locator("> summary").click()
        expect(rules).to_have_attribute("open", "", timeout=TIMEOUT)
    details = audience.page.locator(
        "details.command", has=audience.page.locator(f"form[data-type='{command}']")
    )
    details.locator("> summary").click()  # not the JSON panel's inside the form
    return details.locator("form")


def test_freeform_phases_from_the_pane(browser: Any, server: KirokuServer) -> None:
    gm = _as_gm(browser, _game(server, "freeform", ["Aki"]))
    try:
        gm.page.click("text=Start the game")
        form = _form(gm, "advance_phase")
        form.locator("[name=phase]").fill("Night 1")
        form.locator("button[type=submit]").click()
        expect(line(gm, "Phase: Night 1")).to_have_count(1, timeout=TIMEOUT)
        expect(gm.page.locator("#rules-view")).to_contain_text("Night 1")
    finally:
        gm.close()


def test_ninja_slayer_character_and_check_from_the_pane(browser: Any, server: KirokuServer) -> None:
    created = _game(server, "ninja_slayer", ["Aki"])
    gm = _as_gm(browser, created)
    aki = Audience.open(browser, "seat:1")
    try:
        join(aki, created["seats"][0]["link"])
        gm.page.click("text=Start the game")
        expect(line(aki, "The game starts")).to_have_count(1, timeout=TIMEOUT)

        form = _form(aki, "ninja_slayer.add_character")
        # the id comes from the name, and a player's character is her own: neither is asked
        expect(form.locator("[name=id]")).to_have_count(0)
        expect(form.locator("[name=owner]")).to_have_count(0)
        form.locator("[name=name]").fill("ニンジャ・アキ")
        form.locator("select[name=kind]").select_option(label="PC")
        sheet = {"karate": 5, "neuron": 4, "wazamae": 3, "tairyoku": 6, "seishin": 3, "dkk": 2}
        for stat, value in sheet.items():
            form.locator(f"input[name={stat}]").fill(str(value))
        form.locator("button[type=submit]").click()
        expect(aki.page.locator("#rules-view")).to_contain_text("ニンジャ・アキ", timeout=TIMEOUT)

        check = _form(aki, "ninja_slayer.check")
        # the character is chosen by its name
        check.locator("select[name=character]").select_option(label="ニンジャ・アキ")
        check.locator("[name=stat]").select_option(label="カラテ")
        lines = aki.page.locator("#log li.kind-rules")
        rolled = lines.count()
        check.locator("button[type=submit]").click()
        expect(lines).not_to_have_count(rolled, timeout=TIMEOUT)

        # A refusal shows beside the form, in the game's words, and appends nothing.
        count = aki.page.locator("#log li").count()
        bad = _form(aki, "ninja_slayer.adrenaline_boost")  # no combat to boost in
        bad.locator("select[name=character]").select_option(label="ニンジャ・アキ")
        bad.locator("button[type=submit]").click()
        error = bad.locator(".error")
        expect(error).to_have_attribute("data-code", "no_combat", timeout=TIMEOUT)
        expect(error).to_be_visible()
        expect(error).not_to_contain_text("no_combat")  # the server's sentence, nothing appended
        assert aki.page.locator("#log li").count() == count
        assert "{" not in aki.page.inner_text("#log")  # lines are words, not JSON
    finally:
        gm.close()
        aki.close()


def test_chojin_locke_deal_from_the_pane(browser: Any, server: KirokuServer) -> None:
    created = _game(server, "chojin_locke", ["A", "B", "C", "D", "E"])
    gm = _as_gm(browser, created)
    try:
        gm.page.click("text=Start the game")
        expect(line(gm, "The game starts")).to_have_count(1, timeout=TIMEOUT)
        before = gm.page.locator("#log li").count()
        _form(gm, "chojin_locke.deal").locator("button[type=submit]").click()
        expect(gm.page.locator("#log li")).not_to_have_count(before, timeout=TIMEOUT)
        assert not gm.errors, gm.errors
    finally:
        gm.close()
