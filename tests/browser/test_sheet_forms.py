"""Sheets as forms, in real Chromium: each ruleset's character/unit/NPC is made through the
table's form only (labels in the rulebook's words, lists added row by row, no JSON typed),
a bad value comes back as a sentence naming the field by its label, and the fixed sheet is
accepted. The form's JSON fold holds no null and no nameless modifier."""

from __future__ import annotations

import json
import re
import time
from typing import Any, cast

import httpx
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.browser.conftest import screenshot_path
from tests.browser.test_table import TIMEOUT
from tests.rulesets.chojin_locke.combat_table import three_on_a_square, to_combat_phase
from tests.rulesets.chojin_locke.table import cmd
from tests.serverproc import KirokuServer
from tests.table import Table


def open_form(audience: Audience, table: Table, actor: str, command: str) -> Any:
    page = audience.page
    page.goto(f"{table.client.base_url}/g/{table.game_id}/join#token={table.tokens[actor]}")
    expect(page.locator("#chat")).to_be_visible(timeout=TIMEOUT)
    pane = page.locator("#rules-pane")
    expect(pane.locator("details.command").first).to_be_attached(timeout=TIMEOUT)
    if pane.get_attribute("open") is None:
        pane.locator("#rules-pane-title").click()
    form = page.locator(f"form.command-form[data-type='{command}']")
    form.locator("xpath=ancestor::details[1]/summary").click()
    expect(form).to_be_visible()
    return form


def field(form: Any, label: str, nth: int = 0) -> Any:
    """The control of the field labelled exactly `label` (the `nth` such, in lists)."""
    exact = re.compile(f"^{re.escape(label)}$")
    labelled = form.locator("label.field").filter(has=form.page.locator("span", has_text=exact))
    return labelled.nth(nth).locator("input, select, textarea").first


def refused_with(form: Any, message: str) -> None:
    form.locator("button[type=submit]").click()
    expect(form.locator("p.error")).to_contain_text(message, timeout=TIMEOUT)


def accepted(form: Any, table: Table, check: Any) -> None:
    form.locator("button[type=submit]").click()
    deadline = time.monotonic() + TIMEOUT / 1000
    while time.monotonic() < deadline:
        view = table.client.get(f"/games/{table.game_id}/view", headers=table.auth(table.creator))
        if check(view.json()["rules"]):
            break
        time.sleep(0.2)
    else:
        raise AssertionError(form.locator("p.error").inner_text())
    expect(form.locator("p.error")).to_be_hidden()


def picture(form: Any, name: str) -> None:
    """The whole form: the window made tall enough to hold it (the panes scroll in their
    column), then as it was."""
    page = form.page
    size = page.viewport_size
    page.set_viewport_size({"width": 1280, "height": 3200})
    form.scroll_into_view_if_needed()
    form.screenshot(path=str(screenshot_path(name)))
    if size is not None:
        page.set_viewport_size(size)


def json_fold(form: Any) -> str:
    form.locator("details.json-fold > summary").click()
    text = str(form.locator("details.json-fold textarea").input_value())
    form.locator("details.json-fold > summary").click()
    return text


def test_a_ninja_is_made_with_the_form(browser: Any, server: KirokuServer) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    table = Table.create(cast(TestClient, api), ruleset="ninja_slayer", seats=["アキ", "ベン"])
    table.join(1)
    player = Audience.open(browser, "seat:1", locale="ja-JP")
    try:
        form = open_form(player, table, "seat:1", "ninja_slayer.add_character")
        labels = form.locator("label.field > span").all_inner_texts()
        for word in ("カラテ", "ニューロン", "ワザマエ", "ジツ", "脚力", "体力（最大）", "万札"):
            assert word in labels, labels
        assert "karate" not in form.inner_text() and "kyakuryoku" not in form.inner_text()
        # Optional parts start absent: no null to be refused, no nameless modifier.
        assert "null" not in json_fold(form)
        # No id to type: the server derives it from the name; no owner either (a player's own).
        assert "ID（空白なし）" not in labels and "担当" not in labels, labels
        field(form, "キャラクター名").fill("フジキド・ケンジ")
        field(form, "カラテ").fill("6")
        field(form, "体力（最大）").fill("0")
        form.get_by_role("button", name="武器を追加").click()
        field(form, "武器名").fill("")
        form.get_by_role("button", name="スキルを追加").click()
        form.locator("fieldset[data-path='sheet.skills'] input").fill("●連続側転")
        refused_with(form, "体力（最大） は 1 以上にしてください。")
        field(form, "体力（最大）").fill("12")
        refused_with(form, "武器名 を入力してください。")
        field(form, "武器名").fill("カタナ")
        picture(form, "sheet-form-ja.png")
        accepted(form, table, lambda rules: "フジキド・ケンジ" in str(rules))
        sheet = table.client.get(f"/games/{table.game_id}/view", headers=table.auth("gm")).json()
        character = sheet["rules"]["characters"]["フジキドケンジ"]
        assert character["sheet"]["karate"] == 6 and character["sheet"]["tairyoku"] == 12
        assert character["sheet"]["weapons"][0]["name"] == "カタナ"
        assert character["sheet"]["skills"] == ["●連続側転"]
        assert not player.errors, player.errors
    finally:
        player.close()


def test_a_mech_unit_is_made_with_the_form(browser: Any, server: KirokuServer) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    table = Table.create(cast(TestClient, api), ruleset="mech_d20", seats=["アキ", "ベン"])
    table.join(1)
    player = Audience.open(browser, "seat:1", locale="en-US")
    try:
        form = open_form(player, table, "seat:1", "mech_d20.add_unit")
        # The abilities and defences start with the usual names, as rows of a map.
        keys = form.locator("fieldset[data-path='sheet.abilities'] input.map-key")
        assert [keys.nth(i).input_value() for i in range(keys.count())] == ["出力", "敏捷力"]
        assert "null" not in json_fold(form)
        field(form, "Unit name").fill("ガンダム")
        form.get_by_role("button", name="Add Weapons").click()
        field(form, "Weapon name").fill("ビームサーベル")
        field(form, "Weapon die").fill("d8")
        refused_with(form, "Weapon die is not written the way it should be.")
        field(form, "Weapon die").fill("1d8")
        form.get_by_role("button", name="Add Powers").click()
        field(form, "Power name").fill("ビームライフル連射")
        field(form, "Range").select_option(label="遠隔")
        power = form.locator("fieldset[data-path='sheet.powers']")
        power.get_by_role("button", name="Add Attack").click()
        power.get_by_role("button", name="Add Hit").click()
        field(power, "Weapon dice (W)").fill("2")
        accepted(form, table, lambda rules: "ガンダム" in str(rules))
        assert not player.errors, player.errors
    finally:
        player.close()


def test_an_esper_npc_is_made_with_the_form(browser: Any, server: KirokuServer) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    table, fighters = three_on_a_square(cast(TestClient, api))
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    gm = Audience.open(browser, "gm", locale="ja-JP")
    try:
        form = open_form(gm, table, "gm", "chojin_locke.add_esper")
        field(form, "エスパーの名前").fill("ミューラー")
        field(form, "ESP能力レベル").fill("13")
        refused_with(form, "ESP能力レベル は 12 以下にしてください。")
        field(form, "ESP能力レベル").fill("6")
        field(form, "耐久力").fill("5")
        accepted(form, table, lambda rules: "ミューラー" in str(rules))
        assert not gm.errors, gm.errors
    finally:
        gm.close()


def test_a_ccfolia_character_goes_in_and_comes_back_out(browser: Any, server: KirokuServer) -> None:
    """The table page's own import (my pane), then its copy for ココフォリア: the clipboard
    holds the same character in ココフォリア's format, its palette included."""
    from tests.api.test_seat_settings import CLIPBOARD
    from tests.browser.test_i18n import create_game
    from tests.browser.test_seat_settings_page import sign_in

    gm = Audience.open(browser, "gm", locale="ja-JP")
    player = Audience.open(
        browser, "seat:1", locale="ja-JP", permissions=["clipboard-read", "clipboard-write"]
    )
    try:
        created = create_game(gm.page, server.base_url)
        sign_in(player, created["seat1"])
        page = player.page
        panel = page.locator("#my-pane details.character-tools")
        panel.locator("summary").click()
        page.fill("#my-pane textarea.ccfolia-input", json.dumps(CLIPBOARD, ensure_ascii=False))
        panel.locator("button.primary").click()
        name = CLIPBOARD["data"]["name"]
        expect(panel.locator("ul.characters li")).to_contain_text(name, timeout=TIMEOUT)
        expect(page.locator("#speaker")).to_have_value(name)
        picture(panel, "ccfolia-import-table-ja.png")
        panel.locator("button.ccfolia-copy").click()
        expect(panel.locator("button.ccfolia-copy")).to_have_text(
            re.compile("コピーしました|選択してコピー"), timeout=TIMEOUT
        )
        copied = page.evaluate("navigator.clipboard.readText()")
        exported = json.loads(copied or panel.locator("textarea.ccfolia-input").input_value())
        assert exported["kind"] == "character" and exported["data"]["name"] == name
        commands = exported["data"]["commands"]
        assert "{カラテ}B6>=4 カラテ攻撃" in commands
        assert not player.errors, player.errors
    finally:
        gm.close()
        player.close()


def test_a_ccfolia_character_fills_the_ninja_sheet_form(browser: Any, server: KirokuServer) -> None:
    """A ココフォリア character pasted for a ニンジャスレイヤー seat fills the sheet form where
    its labels map (カラテ, ニューロン…, 体力 from the gauge's maximum); the player reviews it
    and sends it, and the server derives the character's id from its name."""
    from tests.api.test_seat_settings import CLIPBOARD

    api = httpx.Client(base_url=server.base_url, timeout=10)
    table = Table.create(cast(TestClient, api), ruleset="ninja_slayer", seats=["アキ", "ベン"])
    table.join(1)
    player = Audience.open(browser, "seat:1", locale="ja-JP")
    try:
        form = open_form(player, table, "seat:1", "ninja_slayer.add_character")
        page = player.page
        panel = page.locator("#my-pane details.character-tools")
        panel.locator("summary").click()
        page.fill("#my-pane textarea.ccfolia-input", json.dumps(CLIPBOARD, ensure_ascii=False))
        panel.locator("button.primary").click()
        expect(form.locator("p.form-note")).to_contain_text("フジキド・ケンジ", timeout=TIMEOUT)
        expect(field(form, "キャラクター名")).to_have_value("フジキド・ケンジ")
        for label, value in (("カラテ", "6"), ("ニューロン", "5"), ("ワザマエ", "4")):
            expect(field(form, label)).to_have_value(value)
        expect(field(form, "体力（最大）")).to_have_value("10")
        expect(field(form, "精神力（最大）")).to_have_value("4")
        expect(form).to_be_in_viewport()
        picture(form, "ccfolia-sheet-form-ja.png")
        accepted(form, table, lambda rules: "フジキド・ケンジ" in str(rules))
        view = table.client.get(f"/games/{table.game_id}/view", headers=table.auth("gm")).json()
        character = view["rules"]["characters"]["フジキドケンジ"]
        assert character["owner"] == "seat:1" and character["name"] == "フジキド・ケンジ"
        assert character["sheet"]["karate"] == 6 and character["sheet"]["tairyoku"] == 10
        assert not player.errors, player.errors
    finally:
        player.close()


def test_the_gm_picks_the_owner_by_name_and_a_refused_field_is_marked(
    browser: Any, server: KirokuServer
) -> None:
    """The GM adding a PC chooses whose it is by the seat's name (no seat:N typed); a refused
    field is marked (aria-invalid, focused) and the sentence carries no code; the names the
    view holds are offered where a command names a character."""
    api = httpx.Client(base_url=server.base_url, timeout=10)
    table = Table.create(cast(TestClient, api), ruleset="ninja_slayer", seats=["アキ", "ベン"])
    table.join_all()
    gm = Audience.open(browser, "gm", locale="ja-JP")
    try:
        form = open_form(gm, table, "gm", "ninja_slayer.add_character")
        owner = field(form, "担当")
        options = owner.locator("option").all_inner_texts()
        assert options == ["GM（NPC）", "アキ", "ベン"], options
        assert "seat:" not in form.inner_text()
        owner.select_option(label="ベン")
        field(form, "キャラクター名").fill("ヤモト・コキ")
        tairyoku = field(form, "体力（最大）")
        tairyoku.fill("0")
        refused_with(form, "体力（最大） は 1 以上にしてください。")
        error = form.locator("p.error")
        assert "invalid_request" not in error.inner_text()
        expect(error).to_have_attribute("data-code", "invalid_request")
        expect(tairyoku).to_have_attribute("aria-invalid", "true")
        expect(tairyoku).to_be_focused()
        assert field(form, "カラテ").get_attribute("aria-invalid") is None
        tairyoku.fill("8")
        accepted(form, table, lambda rules: "ヤモト・コキ" in str(rules))
        expect(tairyoku).not_to_have_attribute("aria-invalid", "true")
        view = table.client.get(f"/games/{table.game_id}/view", headers=table.auth("gm")).json()
        assert view["rules"]["characters"]["ヤモトコキ"]["owner"] == "seat:2"
        # Elsewhere the character is chosen by its name (the GM's adjust form, drawn again).
        adjust = gm.page.locator("form.command-form[data-type='ninja_slayer.adjust']")
        names = adjust.locator("select.reference[name=character] option")
        expect(names).to_contain_text(["ヤモト・コキ"], timeout=TIMEOUT)
        assert not gm.errors, gm.errors
    finally:
        gm.close()
