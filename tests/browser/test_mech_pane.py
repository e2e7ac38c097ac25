"""A round of a メカd20 encounter played through its pane (static/panes/mech_d20.js) in real
Chromium: the GM and two players, each in a browser context that records every byte it
receives. The players (and a spectator) must never receive the boss's defences, hp or attack
numbers; they read its hp only as 半壊/out."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.browser.conftest import read_in_japanese, screenshot_path
from tests.browser.test_table import TIMEOUT, join
from tests.rulesets.mech_d20.sheets import AKI, BEN
from tests.serverproc import KirokuServer

NS = "mech_d20."
BOSS_MAX_HP = 40  # a critical 斬鉄剣 (22 + the crit die) leaves it 半壊, never out
BOSS_DEFENCES = {"AC": 23, "頑健": 21, "反応": 27, "意志": 18}
BOSS_CLAW = 14  # its attack bonus: 1D20+14, the GM's alone
BOSS = {
    "level": 6,
    "abilities": {"出力": 6, "敏捷力": 3},
    "proficiency": 3,
    "defences": BOSS_DEFENCES,
    "max_hp": BOSS_MAX_HP,
    "durability": 12,
    "weapons": [{"name": "ヒートクロー", "die": "1d12", "accuracy": 2, "enhancement": 2}],
    "powers": [
        {
            "name": "クローラッシュ",
            "keywords": ["攻撃", "武器"],
            "range": "近接",
            "attack": {"ability": None, "defence": "AC", "bonus": BOSS_CLAW},
            "hit": {"dice": "2d8", "bonus": 7},
        }
    ],
}


def _setup(server: KirokuServer) -> tuple[dict[str, Any], httpx.Client, dict[str, str]]:
    """The game over HTTP: two seats, their PCs and the boss added by the GM, started."""
    api = httpx.Client(base_url=server.base_url, timeout=10)
    created = api.post(
        "/games",
        json={
            "title": "メカd20: pane",
            "ruleset": "mech_d20",
            "seats": ["Aki", "Ben"],
            "options": {"dice_policy": "both"},
        },
    ).json()
    gm = {"Authorization": f"Bearer {created['gm_token']}"}
    game = created["game_id"]

    def do(body: dict[str, Any]) -> None:
        response = api.post(f"/games/{game}/commands", json=body, headers=gm)
        assert response.status_code == 201, response.text

    do({"type": "start"})
    do({"type": NS + "add_unit", "id": "aki", "name": "グレイブ", "owner": "seat:1", "sheet": AKI})
    do(
        {
            "type": NS + "add_unit",
            "id": "ben",
            "name": "ロングボウ",
            "owner": "seat:2",
            "sheet": BEN,
        }
    )
    do({"type": NS + "add_unit", "id": "boss", "name": "ガルムス", "kind": "npc", "sheet": BOSS})
    return created, api, gm


def _unit(audience: Audience, uid: str) -> Any:
    return audience.page.locator(f"#ruleset-pane .mech-unit[data-unit='{uid}']")


def _pane(audience: Audience) -> Any:
    return audience.page.locator("#ruleset-pane")


def _faces(audience: Audience, faces: str) -> None:
    audience.page.locator("#ruleset-pane .mech-faces").fill(faces)


def test_a_round_of_the_encounter_through_the_pane(browser: Any, server: KirokuServer) -> None:
    created, api, gm_auth = _setup(server)
    gm = Audience.open(browser, "gm")
    aki = Audience.open(browser, "seat:1")
    ben = Audience.open(browser, "seat:2", viewport={"width": 1200, "height": 1500})
    spectator = Audience.open(browser, "public")
    players = (aki, ben)
    try:
        join(aki, created["seats"][0]["link"])
        join(ben, created["seats"][1]["link"])
        gm.page.goto(created["gm_link"])
        expect(_pane(gm).locator(".mech-begin")).to_be_visible(timeout=TIMEOUT)

        # Initiative: the GM rolls it from the pane (physical dice here, so the order is known).
        form = _pane(gm).locator(".mech-begin")
        for uid, face in (("aki", 14), ("boss", 10), ("ben", 8)):
            form.locator(f"input[name='initiative-{uid}']").fill(str(face))
        form.locator("button[type=submit]").click()
        expect(form).to_be_hidden(timeout=TIMEOUT)
        for reader in (gm, *players):
            order = reader.page.locator("#ruleset-pane .mech-order > li")
            expect(order).to_have_count(3, timeout=TIMEOUT)
            assert order.evaluate_all("items => items.map(i => i.dataset.unit)") == [
                "aki",
                "boss",
                "ben",
            ]
            expect(_pane(reader).locator(".mech-turn")).to_have_text("Next: グレイブ")
        expect(_unit(aki, "aki").locator(".mech-init")).to_have_text("18")  # 14 + 2 + 2
        expect(_unit(aki, "boss").locator(".mech-init")).to_have_count(0)  # the GM's number
        expect(_unit(gm, "boss").locator(".mech-init")).to_have_text("16")

        # アキ's turn: start, a move, then 斬鉄剣 on the boss — a natural 20.
        _pane(aki).locator(".mech-start").click()
        expect(_pane(ben).locator(".mech-turn")).to_have_text("グレイブ's turn", timeout=TIMEOUT)
        actions = _pane(aki).locator("dl.mech-actions dd")
        expect(actions).to_have_text(["1", "1", "1", "1", "1"], timeout=TIMEOUT)
        _pane(aki).locator(".mech-move select[name=kind]").select_option("通常移動")
        _pane(aki).locator(".mech-move input[name=text]").fill("ガルムスに隣接")
        _pane(aki).locator(".mech-move button[type=submit]").click()
        expect(actions).to_have_text(["1", "0", "1", "1", "1"], timeout=TIMEOUT)

        attack = _pane(aki).locator(".mech-attack")
        attack.locator("select[name=power]").select_option("斬鉄剣")
        expect(attack.locator(".mech-dice-command")).to_contain_text("1D20+11 vs AC")
        expect(attack.locator(".mech-dice-command")).to_contain_text("2D8+6")
        attack.locator("input[name=target][value=boss]").check()
        attack.locator("button[type=submit]").click()
        pending = _pane(aki).locator(".mech-pending")
        expect(pending.locator(".mech-dice-command")).to_contain_text(
            "ガルムス 1D20+11", timeout=TIMEOUT
        )
        expect(_pane(ben).locator(".mech-pending")).to_contain_text("斬鉄剣")
        # The encounter power's use is spent as it is declared.
        expect(_unit(aki, "aki").locator("tr[data-power='斬鉄剣'] .mech-uses")).to_have_text("0/1")
        _faces(aki, "20")
        pending.locator(".mech-roll-attack").click()
        # a natural 20 on ガルムス: a critical hit (in the catalog's English)
        expect(pending.locator(".mech-outcomes li")).to_have_text(
            "ガルムス: hit (critical)", timeout=TIMEOUT
        )
        expect(pending.locator(".mech-dice-command code")).to_have_text("2D8+6")
        pending.locator(".mech-roll-damage").click()  # the crit-only die: a server draw
        expect(_pane(aki).locator(".mech-pending")).to_have_count(0, timeout=TIMEOUT)

        # The boss is 半壊 and 幻惑 (save ends): the players read no number of its hp.
        for reader in players:
            boss = _unit(reader, "boss")
            expect(boss.locator(".mech-chip.bloodied")).to_have_text("半壊", timeout=TIMEOUT)
            expect(boss.locator(".mech-hp")).to_have_count(0)
            expect(boss.locator(".mech-effect")).to_have_text("幻惑 (セーヴ・終了)")
        gm_boss_hp = api.get(f"/games/{created['game_id']}/view", headers=gm_auth).json()["rules"][
            "units"
        ]["boss"]["hp"]
        assert 12 <= gm_boss_hp <= 18
        expect(_unit(gm, "boss").locator(".mech-hp")).to_have_text(
            f"HP {gm_boss_hp}/{BOSS_MAX_HP}", timeout=TIMEOUT
        )

        # A refusal in the game's words: a second move, with only the minor action left to pay.
        _pane(aki).locator(".mech-move button[type=submit]").click()
        expect(_pane(aki).locator("p.error")).to_contain_text(
            "no 移動アクション left", timeout=TIMEOUT
        )
        expect(_pane(aki).locator("p.error")).to_have_attribute(
            "data-code", "no_action_of_that_kind"
        )
        expect(_pane(aki).locator("p.error")).not_to_contain_text("no_action_of_that_kind")
        _pane(aki).locator(".mech-end").click()

        # ガルムス (幻惑: one action) claws アキ; the GM's pane shows the dice, nobody else's.
        _pane(gm).locator(".mech-start").click()
        expect(_pane(aki).locator(".mech-turn")).to_have_text("ガルムス's turn", timeout=TIMEOUT)
        claw = _pane(gm).locator(".mech-attack")
        claw.locator("select[name=power]").select_option("クローラッシュ")
        claw.locator("input[name=target][value=aki]").check()
        claw.locator("button[type=submit]").click()
        gm_pending = _pane(gm).locator(".mech-pending")
        expect(gm_pending.locator(".mech-dice-command")).to_contain_text(
            f"1D20+{BOSS_CLAW}", timeout=TIMEOUT
        )
        expect(_pane(aki).locator(".mech-pending")).to_contain_text("クローラッシュ")
        expect(_pane(aki).locator(".mech-pending .mech-dice-command")).to_have_count(0)
        _faces(gm, "2")
        gm_pending.locator(".mech-roll-attack").click()
        expect(_pane(aki).locator(".mech-pending")).to_have_count(0, timeout=TIMEOUT)
        _faces(gm, "15")  # the save against 幻惑 succeeds
        _pane(gm).locator(".mech-end").click()
        for reader in players:
            expect(_unit(reader, "boss").locator(".mech-effect")).to_have_count(0, timeout=TIMEOUT)

        # ロングボウ: 拡散ビーム砲 (an encounter area power) with its weapon chosen, a miss
        # (half damage on a miss), and the turn ends: the round is over.
        _pane(ben).locator(".mech-start").click()
        beam = _pane(ben).locator(".mech-attack")
        beam.locator("select[name=power]").select_option("拡散ビーム砲")
        beam.locator("select[name=weapon]").select_option("ビームライフル")
        expect(beam.locator(".mech-dice-command")).to_contain_text("1D20+10 vs 反応")
        beam.locator("input[name=target][value=boss]").check()
        beam.locator("button[type=submit]").click()
        expect(_pane(ben).locator(".mech-roll-attack")).to_have_text(
            "Roll attack: 1D20+10 vs 反応", timeout=TIMEOUT
        )
        with read_in_japanese(ben, "#ruleset-pane .mech-roll-attack"):
            _pane(ben).screenshot(path=screenshot_path("mech-pane.png"))
        _faces(ben, "2")
        _pane(ben).locator(".mech-roll-attack").click()
        expect(_pane(ben).locator(".mech-outcomes")).to_contain_text("miss", timeout=TIMEOUT)
        _faces(ben, "6")
        _pane(ben).locator(".mech-roll-damage").click()
        expect(_pane(ben).locator(".mech-pending")).to_have_count(0, timeout=TIMEOUT)
        expect(_unit(ben, "ben").locator("tr[data-power='拡散ビーム砲'] .mech-uses")).to_have_text(
            "0/1"
        )
        _pane(ben).locator(".mech-end").click()
        for reader in (gm, *players):
            expect(_pane(reader).locator(".mech-status strong")).to_have_text(
                "Round 2", timeout=TIMEOUT
            )
        expect(_pane(aki).locator(".mech-turn")).to_have_text("Next: グレイブ")

        # A spectator reads the same public pane, with nothing to press.
        spectator.page.goto(f"{server.base_url}/g/{created['game_id']}")
        expect(_unit(spectator, "boss").locator(".mech-chip.bloodied")).to_have_text(
            "半壊", timeout=TIMEOUT
        )
        assert _pane(spectator).locator("button, form").count() == 0

        # Every byte the players received: no defence, hp or attack number of the boss.
        boss_hp = api.get(f"/games/{created['game_id']}/view", headers=gm_auth).json()["rules"][
            "units"
        ]["boss"]["hp"]
        secrets = [f'"{name}":{value}' for name, value in BOSS_DEFENCES.items()]
        secrets += [f'"max_hp":{BOSS_MAX_HP}', f'"hp":{boss_hp}', f"HP {boss_hp}/"]
        secrets += [f"1D20+{BOSS_CLAW}", f'"bonus":{BOSS_CLAW}', '"initiative":16']
        gm_received = gm.received()
        for secret in secrets:
            assert secret in gm_received, secret  # the search would find them
        for reader in (*players, spectator):
            received = reader.received()
            for secret in secrets:
                assert secret not in received, (reader.name, secret)
            assert not reader.errors, reader.errors
        for reader in (gm, *players, spectator):
            shown = _pane(reader).inner_text()
            assert "null" not in shown and "undefined" not in shown, (reader.name, shown)
        assert not gm.errors, gm.errors
    finally:
        for audience in (gm, *players, spectator):
            audience.close()
