"""ニンジャスレイヤー's combat tracker pane, in real Chromium: a GM and a player play two turns of
a combat through it (physical dice typed in its boxes), and the player's context never
receives the boss's numbers — they come redacted from /view, not hidden by the page."""

from __future__ import annotations

import json
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.browser.conftest import pane_picture
from tests.browser.test_table import TIMEOUT, join
from tests.serverproc import KirokuServer

MARKER = "HIMITSU_SKILL_5e1b"  # only in the boss's sealed sheet
AKI = {"karate": 5, "neuron": 7, "wazamae": 3, "tairyoku": 5, "seishin": 2, "dkk": 3}
BOSS = {
    "karate": 7,
    "neuron": 6,
    "wazamae": 5,
    "tairyoku": 9,
    "seishin": 4,
    "evasion": True,
    "skills": [MARKER],
}


def _setup(server: KirokuServer) -> dict[str, Any]:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    response = api.post(
        "/games",
        json={
            "title": "ブラックマンバ戦",
            "ruleset": "ninja_slayer",
            "seats": ["Aki"],
            "options": {"dice_policy": "both"},
        },
    )
    assert response.status_code == 201, response.text
    return dict(response.json())


def _gm_command(server: KirokuServer, created: dict[str, Any], body: dict[str, Any]) -> None:
    response = httpx.post(
        f"{server.base_url}/games/{created['game_id']}/commands",
        json=body,
        headers={"Authorization": f"Bearer {created['gm_token']}"},
        timeout=10,
    )
    assert response.status_code == 201, response.text


def _summary(audience: Audience, text: str) -> None:
    expect(audience.page.locator("#ns-summary")).to_contain_text(text, timeout=TIMEOUT)


def _click(audience: Audience, action: str, then: str | None = None) -> None:
    audience.page.locator(f"#ns-actions button[data-action='{action}']").first.click()
    if then is not None:
        _summary(audience, then)


def _evade(audience: Audience, character: str, dice: int, faces: str) -> None:
    form = audience.page.locator(f".ns-evade[data-character='{character}']")
    form.locator("[name=evasion_dice]").fill(str(dice))
    form.locator("[name=evade-faces]").fill(faces)
    expect(form.locator(".dice-cmd")).to_contain_text(f"EV{dice}[", timeout=TIMEOUT)
    form.locator("button[data-action=evade]").click()
    expect(form).to_have_count(0, timeout=TIMEOUT)


def _attack(audience: Audience, faces: str, dice: str) -> None:
    form = audience.page.locator("#ns-attack")
    expect(form.locator("#ns-attack-dice")).to_have_text(dice, timeout=TIMEOUT)
    form.locator("[name=attack-faces]").fill(faces)
    form.locator("button[data-action=attack]").click()
    expect(form).to_have_count(0, timeout=TIMEOUT)


def _start_with_aki(
    server: KirokuServer, created: dict[str, Any], gm: Audience, aki: Audience
) -> None:
    """The GM opens the table, Aki joins, the game starts and Aki's PC is added."""
    gm.page.goto(created["gm_link"])
    expect(gm.page.locator("#gm-pane")).to_be_visible(timeout=TIMEOUT)
    join(aki, created["seats"][0]["link"])
    gm.page.click("text=Start the game")
    add = {"type": "ninja_slayer.add_character", "sheet": AKI, "owner": "seat:1"}
    _gm_command(server, created, {**add, "id": "aki", "name": "Aki"})


def _gm_form(gm: Audience, form: str) -> Any:
    """One of the GM's declaration forms, its fold opened if it is closed."""
    tools = gm.page.locator("#ns-gm-tools")
    expect(tools).to_be_visible(timeout=TIMEOUT)
    if tools.get_attribute("open") is None:
        tools.locator("summary").click()
    return tools.locator(f".ns-gm-form[data-form={form}]")


def _views(audience: Audience) -> list[dict[str, Any]]:
    found = []
    for response in audience.responses:
        if response.url.endswith("/view") and response.status == 200:
            found.append(json.loads(response.body()))
    return found


def test_two_turns_through_the_pane(browser: Any, server: KirokuServer) -> None:
    created = _setup(server)
    gm = Audience.open(browser, "gm")
    aki = Audience.open(browser, "seat:1")
    try:
        _start_with_aki(server, created, gm, aki)
        boss = {"id": "boss", "name": "ブラックマンバ", "kind": "boss", "sheet": BOSS}
        _gm_command(server, created, {"type": "ninja_slayer.add_character", **boss})
        expect(gm.page.locator("#ruleset-pane")).to_be_visible(timeout=TIMEOUT)
        _summary(gm, "No combat")
        # The tracker: the GM reads the boss's numbers, the player gets none to read.
        gm_boss = gm.page.locator("#ns-tracker tr[data-character=boss]")
        expect(gm_boss.locator(".ns-tairyoku")).to_have_text("9/9", timeout=TIMEOUT)
        _click(gm, "begin_combat", "ターン開始フェイズ")
        aki_boss = aki.page.locator("#ns-tracker tr[data-character=boss]")
        expect(aki_boss.locator(".ns-tairyoku")).to_have_text("?", timeout=TIMEOUT)
        expect(aki.page.locator("#ns-tracker tr[data-character=aki] .ns-evasion")).to_have_text(
            "7", timeout=TIMEOUT
        )

        # Turn 1: Aki 連続側転 then attacks (HARD), the boss fails its evasion.
        _click(gm, "advance", "手番: Aki")
        _click(aki, "advance", "移動フェイズ")
        aki.page.locator("[name=sokuten-faces]").fill("5,1,1")
        expect(aki.page.locator("button[data-action=sokuten] .dice-cmd")).to_have_text("NJ3[N]")
        _click(aki, "sokuten")
        _click(aki, "advance", "攻撃フェイズ")
        _attack(aki, "5,1,1,1,1", "AT5[H]")
        _evade(gm, "boss", 1, "1")
        expect(gm_boss.locator(".ns-tairyoku")).to_have_text("8/9", timeout=TIMEOUT)
        _click(aki, "advance", "手番終了フェイズ")
        _click(aki, "advance", "手番: ブラックマンバ")

        # The boss attacks; Aki out-rolls it and counters (the button shows only now).
        counter = aki.page.locator("button[data-action=counter_karate]")
        expect(counter).to_have_count(0)
        _click(gm, "advance", "移動フェイズ")
        _click(gm, "advance", "攻撃フェイズ")
        _attack(gm, "4,1,1,1,1,1,1", "AT7[N]")
        _evade(aki, "aki", 2, "5,5")
        expect(counter).to_have_count(1, timeout=TIMEOUT)
        counter.click()
        take = gm.page.locator(".ns-evade[data-character=boss] button[data-action=take_damage]")
        take.click()
        expect(gm_boss.locator(".ns-tairyoku")).to_have_text("7/9", timeout=TIMEOUT)
        _click(gm, "advance", "手番終了フェイズ")
        _click(gm, "advance", "ターン終了フェイズ")
        expect(gm.page.locator("button[data-action=wasshoi] .dice-cmd")).to_have_text("WS3")
        gm.page.locator("[name=wasshoi-faces]").fill("6,6")
        _click(gm, "wasshoi")
        expect(gm.page.locator("button[data-action=wasshoi]")).to_have_count(0, timeout=TIMEOUT)
        _click(gm, "next_turn", "Turn 2")

        # Turn 2: Aki moves and misses; the boss does nothing; the turn ends.
        _click(gm, "advance", "手番: Aki")
        _click(aki, "advance", "移動フェイズ")
        _click(aki, "move")
        _click(aki, "advance", "攻撃フェイズ")
        _attack(aki, "1,1,1,1,1", "AT5[N]")  # the 側転's +1 ended with last turn's 手番
        _click(aki, "advance", "手番終了フェイズ")
        _click(aki, "advance", "手番: ブラックマンバ")
        for phase in ("移動フェイズ", "攻撃フェイズ", "手番終了フェイズ", "ターン終了フェイズ"):
            _click(gm, "advance", phase)
        _summary(aki, "Turn 2 · ターン終了フェイズ")

        # The player's context never received the boss's numbers: /view left them out.
        assert MARKER not in aki.received()
        views = _views(aki)
        assert views, "the pane reads /view"
        for view in views:
            boss_view = view["rules"]["characters"].get("boss")
            if boss_view is not None:
                assert not {"now", "sheet", "initiative"} & set(boss_view), boss_view
        assert any("now" in v["rules"]["characters"].get("boss", {}) for v in _views(gm))
        assert not gm.errors and not aki.errors, (gm.errors, aki.errors)
    finally:
        gm.close()
        aki.close()


def test_a_campaign_through_the_pane(browser: Any, server: KirokuServer) -> None:
    """The pane shows the scenario and its stage, the 万札プール, and each sheet's history; the GM
    declares a trap from its pane (NORMAL unless said) and Aki evades it from hers; the GM marks a
    ●部位損傷, drops 万札 (a drop without its amount is refused beside the pane), splits the pool in
    the 評価; Aki records her growth in the 余暇 from her pane and the GM treats her ●部位損傷;
    the GM moves the scenario on with its buttons."""
    created = _setup(server)
    gm = Audience.open(browser, "gm")
    aki = Audience.open(browser, "seat:1")
    try:
        _start_with_aki(server, created, gm, aki)
        campaign = aki.page.locator("#ns-campaign")
        expect(campaign).to_have_text("シナリオ1 · 本編 · 万札プール 0", timeout=TIMEOUT)
        assert aki.page.locator("#ns-gm-tools").count() == 0  # the GM's alone
        # A trap in the 探索シーケンス, from the GM's pane: NORMAL unless the GM says (HARD here).
        hazard = _gm_form(gm, "hazard")
        expect(hazard.locator("[name=hazard-target]")).to_have_value("aki", timeout=TIMEOUT)
        expect(hazard.locator("[name=hazard-evasion]")).to_have_value("N")
        hazard.locator("[name=hazard-evasion]").select_option("H")
        hazard.locator("[name=hazard-text]").fill("落とし穴")
        hazard.locator("button[data-action=hazard]").click()
        # Aki evades it from her pane with 【回避】 dice.
        form = aki.page.locator(".ns-evade[data-character=aki]")
        expect(form).to_contain_text("トラップ", timeout=TIMEOUT)
        # its difficulty, HARD, is what the 回避判定 rolls against
        expect(form.locator(".dice-cmd")).to_contain_text("[H]")
        _evade(aki, "aki", 1, "5")
        # 本編: a ●部位損傷 and a drop from the GM's pane; the GM ends the 本編 with its button.
        injure = _gm_form(gm, "injure")
        injure.locator("[name=injure-part]").fill("頭部")
        injure.locator("button[data-action=injure]").click()
        aki_row = aki.page.locator("#ns-tracker tr[data-character=aki]")
        expect(aki_row.locator(".ns-injuries")).to_have_text("頭部", timeout=TIMEOUT)
        drop = _gm_form(gm, "drop")
        drop.locator("[name=drop-reason]").fill("金庫")
        drop.locator("button[data-action=drop]").click()  # no amount, no enemy: refused
        expect(gm.page.locator("#ns-error")).to_have_attribute(
            "data-code", "amount_required", timeout=TIMEOUT
        )
        expect(gm.page.locator("#ns-error")).not_to_contain_text("amount_required")
        assert "万札プール 0" in campaign.inner_text()
        drop.locator("[name=drop-amount]").fill("6")
        drop.locator("button[data-action=drop]").click()
        expect(campaign).to_have_text("シナリオ1 · 本編 · 万札プール 6", timeout=TIMEOUT)
        _click(gm, "stage")
        expect(campaign).to_have_text("シナリオ1 · 評価 · 万札プール 6", timeout=TIMEOUT)
        share = gm.page.locator("#ns-split input[data-character=aki]")
        expect(share).to_have_value("6", timeout=TIMEOUT)
        _click(gm, "split_pool")
        expect(campaign).to_have_text("シナリオ1 · 評価 · 万札プール 0", timeout=TIMEOUT)
        expect(aki_row.locator(".ns-manzatsu")).to_have_text("6", timeout=TIMEOUT)
        _click(gm, "stage")
        expect(campaign).to_contain_text("余暇", timeout=TIMEOUT)
        # 余暇: Aki's growth, from her own pane (her PC's; the GM's fold is not hers)
        grow = aki.page.locator("#ns-gm-tools")
        expect(grow).to_contain_text("余暇", timeout=TIMEOUT)
        grow.locator("summary").click()
        sheet = grow.locator(".ns-gm-form[data-form=change_sheet]")
        expect(sheet.locator("[name=sheet-kind]")).to_have_value("成長")
        sheet.locator("[name=sheet-stat]").select_option("karate")
        sheet.locator("[name=sheet-manzatsu]").fill("-2")
        sheet.locator("[name=sheet-reason]").fill("鍛錬")
        pane_picture(aki, "ninja-slayer-yoka.png")
        sheet.locator("button[data-action=change_sheet]").click()
        expect(aki_row.locator(".ns-manzatsu")).to_have_text("4", timeout=TIMEOUT)
        treat = _gm_form(gm, "treat")  # 余暇での治療 by default in the 余暇
        expect(treat.locator("[name=treat-how]")).to_have_value("余暇での治療")
        treat.locator("button[data-action=treat]").click()
        expect(aki_row.locator(".ns-injuries")).to_have_text("", timeout=TIMEOUT)
        _click(gm, "stage")
        expect(campaign).to_have_text("シナリオ2 · ダンゴウ · 万札プール 0", timeout=TIMEOUT)
        notes = aki.page.locator("#ns-history .ns-sheet-history[data-character=aki] li")
        expect(notes).to_have_text(
            [
                "scenario 1: ●部位損傷:頭部 ×1",
                "scenario 1: 万札プールの山分け: 【万札】+6",
                "scenario 1: 成長: 【カラテ】+1 【万札】-2 (鍛錬)",
                "scenario 1: ●部位損傷:頭部を余暇での治療で除去",
            ],
            timeout=TIMEOUT,
        )
        expect(aki_row.locator(".ns-manzatsu")).to_have_text("4", timeout=TIMEOUT)
        # A Wasshoi! outside a combat (Aki's 【DKK】 3, 2D6 = 2): the GM brings him in.
        enters = gm.page.locator("#ns-actions button[data-action=ninja_slayer_enters]")
        expect(enters).to_have_count(0)
        _gm_command(server, created, {"type": "ninja_slayer.wasshoi", "faces": [1, 1]})
        enters.click()
        expect(aki.page.locator("#ns-tracker tr[data-character=ninja_slayer]")).to_contain_text(
            "ニンジャスレイヤー", timeout=TIMEOUT
        )
        expect(enters).to_have_count(0, timeout=TIMEOUT)
        assert not gm.errors and not aki.errors, (gm.errors, aki.errors)
    finally:
        gm.close()
        aki.close()


def test_kaishaku_and_a_mobs_automatic_shot_from_the_pane(
    browser: Any, server: KirokuServer
) -> None:
    """Aki, a ninja, declares カイシャク on the 気絶 boss from her pane in her 攻撃フェイズ
    (only 気絶 enemies are offered) and applies the row's 『即死!』; the GM's pane offers a mob's
    attack as 自動成功 and the GM's declarations (a collision: NORMAL)."""
    created = _setup(server)
    gm = Audience.open(browser, "gm")
    aki = Audience.open(browser, "seat:1")
    try:
        _start_with_aki(server, created, gm, aki)
        add = "ninja_slayer.add_character"
        boss = {"id": "boss", "name": "ブラックマンバ", "kind": "boss", "sheet": BOSS}
        _gm_command(server, created, {"type": add, **boss})
        mob = {"karate": 2, "neuron": 1, "wazamae": 2, "tairyoku": 1, "seishin": 0, "ninja": False}
        _gm_command(
            server,
            created,
            {"type": add, "id": "mob", "name": "クローンヤクザ", "kind": "mob", "sheet": mob},
        )
        faint = {"type": "ninja_slayer.adjust", "character": "boss", "status": "気絶"}
        _gm_command(server, created, {**faint, "reason": "前の戦闘で"})
        # The pane begins a combat with the characters it shows: wait until it shows the mob
        # and the fainted boss (added over HTTP just now; a loaded machine draws them late).
        tracker = gm.page.locator("#ns-tracker")
        expect(tracker.locator("tr[data-character=mob]")).to_have_count(1, timeout=TIMEOUT)
        expect(tracker.locator("tr[data-character=boss]")).to_contain_text("気絶", timeout=TIMEOUT)
        _click(gm, "begin_combat", "ターン開始フェイズ")
        _click(gm, "advance", "手番: Aki")
        _click(aki, "advance", "移動フェイズ")
        _click(aki, "advance", "攻撃フェイズ")
        kaishaku = aki.page.locator("#ns-actions button[data-action=kaishaku]")
        expect(kaishaku).to_have_count(1, timeout=TIMEOUT)  # the boss, not the active mob
        expect(kaishaku).to_contain_text("カイシャク → ブラックマンバ")
        pane_picture(aki, "ninja-slayer-kaishaku.png")
        kaishaku.click()
        expect(kaishaku).to_have_count(0, timeout=TIMEOUT)
        death = aki.page.locator("#ns-actions button[data-action=instant_death]")
        expect(death).to_contain_text("ブラックマンバ", timeout=TIMEOUT)
        death.click()
        boss_row = gm.page.locator("#ns-tracker tr[data-character=boss]")
        expect(boss_row).to_contain_text("爆発四散", timeout=TIMEOUT)
        _click(aki, "advance", "手番終了フェイズ")
        _click(aki, "advance", "手番: クローンヤクザ")

        # The mob's 手番: the GM's attack form offers 自動成功; a collision is NORMAL by default.
        _click(gm, "advance", "移動フェイズ")
        _click(gm, "advance", "攻撃フェイズ")
        auto = gm.page.locator("#ns-attack [name=auto_success]")
        expect(auto).to_have_count(1, timeout=TIMEOUT)
        assert aki.page.locator("#ns-actions [name=auto_success]").count() == 0
        hazard = _gm_form(gm, "hazard")
        hazard.locator("[name=hazard-evasion]").select_option("H")
        hazard.locator("[name=hazard-source]").select_option("collision")
        expect(hazard.locator("[name=hazard-evasion]")).to_have_value("N")
        pane_picture(gm, "ninja-slayer-gm.png")
        auto.check()
        gm.page.locator("#ns-attack button[data-action=attack]").click()
        evade = aki.page.locator(".ns-evade[data-character=aki]")
        expect(evade).to_contain_text("クローンヤクザ", timeout=TIMEOUT)
        assert not gm.errors and not aki.errors, (gm.errors, aki.errors)
    finally:
        gm.close()
        aki.close()
