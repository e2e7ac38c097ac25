"""A round of a メカd20 encounter on a battle map, played by clicking on the map in real
Chromium, one context per seat: the GM places the units (one NPC hidden), アキ moves by
clicking a lit square and attacks by clicking the boss's token, the boss moves away and the
pane offers アキ (adjacent) the opportunity attack and ベン (not adjacent) nothing, ベン shifts.
The hidden NPC's square reaches no player's browser, on the table page or the replay page."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.browser.test_mech_pane import BOSS
from tests.browser.test_mech_pane import _setup as setup_pane_game
from tests.browser.test_table import TIMEOUT, join
from tests.rulesets.mech_d20.test_pictures import png
from tests.serverproc import KirokuServer

NS = "mech_d20."
GRID = {"width": 10, "height": 8, "blocking": [[5, 0], [5, 1], [5, 2]], "difficult": [[2, 5]]}
SCOUT_AT = (9, 7)  # the hidden NPC's square: the GM's alone
SCOUT_POSITION = '{"x":9,"y":7,"altitude":0}'


def _setup(server: KirokuServer) -> tuple[dict[str, Any], httpx.Client, dict[str, str]]:
    """test_mech_pane's game (アキ, ベン, the boss), a hidden scout and the map."""
    created, api, gm = setup_pane_game(server)
    game = created["game_id"]
    for body in (
        {"type": NS + "add_unit", "id": "scout", "name": "偵察機", "kind": "npc", "sheet": BOSS},
        {"type": NS + "set_map", "grid": GRID},
    ):
        response = api.post(f"/games/{game}/commands", json=body, headers=gm)
        assert response.status_code == 201, response.text
    return created, api, gm


def _pane(audience: Audience) -> Any:
    return audience.page.locator("#ruleset-pane")


def _square(audience: Audience, x: int, y: int) -> Any:
    return _pane(audience).locator(f"rect.mech-square[data-x='{x}'][data-y='{y}']")


def _token(audience: Audience, uid: str) -> Any:
    return _pane(audience).locator(f"g.mech-token[data-unit='{uid}']")


def _place(gm: Audience, uid: str, x: int, y: int, hidden: bool = False) -> None:
    _pane(gm).locator("select[name=place]").select_option(uid)
    box = _pane(gm).locator("input[name=hidden]")
    box.set_checked(hidden)
    _square(gm, x, y).click()
    expect(_token(gm, uid)).to_have_count(1, timeout=TIMEOUT)


def _faces(audience: Audience, faces: str) -> None:
    _pane(audience).locator(".mech-faces").fill(faces)


def test_a_round_on_the_map_by_clicking(browser: Any, server: KirokuServer) -> None:
    created, api, gm_auth = _setup(server)
    game = created["game_id"]
    gm = Audience.open(browser, "gm", viewport={"width": 1300, "height": 1600})
    aki = Audience.open(browser, "seat:1", viewport={"width": 1300, "height": 1600})
    ben = Audience.open(browser, "seat:2", viewport={"width": 1300, "height": 1600})
    players = (aki, ben)
    try:
        join(aki, created["seats"][0]["link"])
        join(ben, created["seats"][1]["link"])
        gm.page.goto(created["gm_link"])
        expect(_pane(gm).locator("svg.mech-map")).to_be_visible(timeout=TIMEOUT)

        # The GM places every unit by clicking; the scout hidden.
        _place(gm, "aki", 0, 3)
        _place(gm, "ben", 0, 6)
        _place(gm, "boss", 4, 3)
        _place(gm, "scout", *SCOUT_AT, hidden=True)
        for reader in players:
            expect(_token(reader, "boss")).to_have_count(1, timeout=TIMEOUT)
            expect(_token(reader, "scout")).to_have_count(0)
        # The GM lays a picture under the grid: the units stay where they stand.
        picture = {"name": "map.png", "mimeType": "image/png", "buffer": png(8, 6)}
        _pane(gm).locator("input[name=background]").set_input_files(picture)
        for reader in (gm, *players):
            expect(_pane(reader).locator("image.mech-background")).to_have_count(1, timeout=TIMEOUT)
            expect(_token(reader, "boss")).to_have_count(1)
        loaded = aki.page.evaluate(
            "fetch(document.querySelector('image.mech-background').getAttribute('href'))"
            ".then(r => [r.status, r.headers.get('content-type')])"
        )
        assert loaded == [200, "image/png"]
        form = _pane(gm).locator(".mech-begin")
        for uid in ("scout",):
            form.locator(f"input[name='participant-{uid}']").uncheck()
        for uid, face in (("aki", 14), ("boss", 10), ("ben", 8)):
            form.locator(f"input[name='initiative-{uid}']").fill(str(face))
        form.locator("button[type=submit]").click()
        expect(form).to_be_hidden(timeout=TIMEOUT)

        # アキ: the legal squares light up; a click on one moves it next to the boss.
        _pane(aki).locator(".mech-start").click()
        expect(_square(aki, 3, 3)).to_have_attribute("data-lit", "move", timeout=TIMEOUT)
        expect(_square(aki, 5, 0)).not_to_have_attribute("data-lit", "move")  # a wall
        _square(aki, 3, 3).click()
        for reader in (gm, ben):
            expect(_token(reader, "aki").locator("rect")).to_have_attribute(
                "x", str(3 * 30 + 2), timeout=TIMEOUT
            )
        # A click on a wall is refused in the game's words, and nothing is spent.
        _square(aki, 5, 1).click()
        expect(_pane(aki).locator("p.error")).to_contain_text("cannot reach", timeout=TIMEOUT)
        # the stable code stays for a bug report, out of what the player reads
        expect(_pane(aki).locator("p.error")).to_have_attribute("data-code", "unreachable")
        expect(_pane(aki).locator("p.error")).not_to_contain_text("unreachable")

        # 斬鉄剣 chosen: its reach lights up; a click on the boss's token makes it the target.
        attack = _pane(aki).locator(".mech-attack")
        attack.locator("select[name=power]").select_option("斬鉄剣")
        _pane(aki).locator("input[name=map-click][value=power]").check()
        expect(_square(aki, 4, 4)).to_have_attribute("data-lit", "reach", timeout=TIMEOUT)
        expect(_square(aki, 6, 3)).not_to_have_attribute("data-lit", "reach")
        _token(aki, "boss").click()
        expect(attack.locator("input[name=target][value=boss]")).to_be_checked(timeout=TIMEOUT)
        attack.locator("button[type=submit]").click()
        pending = _pane(aki).locator(".mech-pending")
        _faces(aki, "15")
        pending.locator(".mech-roll-attack").click()
        expect(pending.locator(".mech-outcomes")).to_contain_text("hit", timeout=TIMEOUT)
        pending.locator(".mech-roll-damage").click()
        expect(_pane(aki).locator(".mech-pending")).to_have_count(0, timeout=TIMEOUT)
        _pane(aki).locator(".mech-end").click()

        # The boss walks away from アキ: the opportunity attack is offered to アキ alone.
        _pane(gm).locator(".mech-start").click()
        expect(_square(gm, 4, 0)).to_have_attribute("data-lit", "move", timeout=TIMEOUT)
        _square(gm, 4, 0).click()
        oa = _pane(aki).locator(".mech-oa")
        expect(oa).to_have_text("Opportunity attack: グレイブ", timeout=TIMEOUT)
        expect(_token(ben, "boss").locator("rect")).to_have_attribute("y", "2", timeout=TIMEOUT)
        expect(_pane(ben).locator(".mech-oa")).to_have_count(0)
        oa.click()
        pending = _pane(aki).locator(".mech-pending")
        _faces(aki, "19")
        pending.locator(".mech-roll-attack").click()
        expect(pending.locator(".mech-outcomes")).to_contain_text("hit", timeout=TIMEOUT)
        pending.locator(".mech-roll-damage").click()
        expect(_pane(aki).locator(".mech-pending")).to_have_count(0, timeout=TIMEOUT)
        _pane(gm).locator(".mech-end").click()

        # ロングボウ shifts one square by clicking, and the round is over.
        _pane(ben).locator(".mech-start").click()
        _pane(ben).locator(".mech-move select[name=kind]").select_option("シフト")
        expect(_square(ben, 1, 5)).to_have_attribute("data-lit", "move", timeout=TIMEOUT)
        expect(_square(ben, 2, 6)).not_to_have_attribute("data-lit", "move")
        _square(ben, 1, 5).click()
        expect(_token(aki, "ben").locator("rect")).to_have_attribute(
            "y", str(5 * 30 + 2), timeout=TIMEOUT
        )
        _pane(ben).locator(".mech-end").click()
        for reader in (gm, *players):
            expect(_pane(reader).locator(".mech-status strong")).to_have_text(
                "Round 2", timeout=TIMEOUT
            )

        # The replay draws the map at any event, as each audience saw it.
        for reader, scout in ((aki, 0), (gm, 1)):
            reader.page.goto(f"{server.base_url}/g/{game}/replay")
            frame = reader.page.locator("#ruleset-frame svg.mech-map")
            expect(frame).to_be_visible(timeout=TIMEOUT)
            expect(frame.locator("g.mech-token[data-unit='boss']")).to_have_count(1)
            expect(frame.locator("g.mech-token[data-unit='scout']")).to_have_count(scout)
            expect(frame.locator("image.mech-background")).to_have_count(1)

        gm_view = api.get(f"/games/{game}/view", headers=gm_auth).json()["rules"]
        assert gm_view["units"]["scout"]["position"] == {"x": 9, "y": 7, "altitude": 0}
        assert SCOUT_POSITION in gm.received()
        for reader in players:
            assert SCOUT_POSITION not in reader.received(), reader.name
            assert not reader.errors, reader.errors
        assert not gm.errors, gm.errors
    finally:
        for audience in (gm, *players):
            audience.close()
