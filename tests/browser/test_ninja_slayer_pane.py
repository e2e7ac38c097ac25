"""ニンジャスレイヤー's combat tracker pane, in real Chromium: a GM and a player play two turns of
a combat through it (physical dice typed in its boxes), and the player's context never
receives the boss's numbers — they come redacted from /view, not hidden by the page."""

from __future__ import annotations

import json
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.browser.audience import Audience
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
    """The pane shows the scenario and its stage, the 万札プール, and each sheet's history; a trap
    outside a combat is evaded from it; the GM moves the scenario on with its buttons."""
    created = _setup(server)
    gm = Audience.open(browser, "gm")
    aki = Audience.open(browser, "seat:1")
    try:
        _start_with_aki(server, created, gm, aki)
        campaign = aki.page.locator("#ns-campaign")
        expect(campaign).to_have_text("シナリオ1 · 本編 · 万札プール 0", timeout=TIMEOUT)
        # A trap in the 探索シーケンス: Aki evades it from the pane with 【回避】 dice.
        trap = {"type": "ninja_slayer.hazard", "target": "aki", "evasion": "H", "text": "落とし穴"}
        _gm_command(server, created, trap)
        form = aki.page.locator(".ns-evade[data-character=aki]")
        expect(form).to_contain_text("トラップ", timeout=TIMEOUT)
        _evade(aki, "aki", 1, "5")
        # 本編: a ●部位損傷 and a drop; the GM ends the 本編 with the pane's button.
        _gm_command(
            server, created, {"type": "ninja_slayer.injure", "character": "aki", "part": "頭部"}
        )
        _gm_command(server, created, {"type": "ninja_slayer.drop", "amount": 6, "reason": "金庫"})
        expect(campaign).to_have_text("シナリオ1 · 本編 · 万札プール 6", timeout=TIMEOUT)
        aki_row = aki.page.locator("#ns-tracker tr[data-character=aki]")
        expect(aki_row.locator(".ns-injuries")).to_have_text("頭部", timeout=TIMEOUT)
        _click(gm, "stage")
        expect(campaign).to_have_text("シナリオ1 · 評価 · 万札プール 6", timeout=TIMEOUT)
        _click(gm, "split_pool")
        expect(campaign).to_have_text("シナリオ1 · 評価 · 万札プール 0", timeout=TIMEOUT)
        expect(aki_row.locator(".ns-manzatsu")).to_have_text("6", timeout=TIMEOUT)
        _click(gm, "stage")
        expect(campaign).to_contain_text("余暇", timeout=TIMEOUT)
        grow = {"kind": "成長", "reason": "鍛錬", "changes": {"karate": 1, "manzatsu": -2}}
        _gm_command(
            server,
            created,
            {"type": "ninja_slayer.change_sheet", "character": "aki", "change": grow},
        )
        _click(gm, "stage")
        expect(campaign).to_have_text("シナリオ2 · ダンゴウ · 万札プール 0", timeout=TIMEOUT)
        notes = aki.page.locator("#ns-history .ns-sheet-history[data-character=aki] li")
        expect(notes).to_have_text(
            [
                "シナリオ1: ●部位損傷:頭部 ×1",
                "シナリオ1: 万札プールの山分け: 【万札】+6",
                "シナリオ1: 成長: 【カラテ】+1 【万札】-2 (鍛錬)",
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
