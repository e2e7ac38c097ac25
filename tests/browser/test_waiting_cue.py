""" "Waiting on you" (static/waiting.js), in real Chromium with one context per person: when
the game waits on a seat — an evasion in ニンジャスレイヤー, a turn in メカd20 or 超人ロック — that
seat's top bar shows the cue, its page title reads 「【あなたの番】…」 and the control is
scrolled into view; another seat, the GM (when the wait is not its) and a spectator get nothing.

A BCDice-system game (the freeform ruleset) has no pane and nothing that waits on anyone: its
table never shows the cue (the last test)."""

from __future__ import annotations

from typing import Any, cast

import httpx
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.browser.test_table import TIMEOUT
from tests.rulesets.chojin_locke.table import new_game, to_planets, turn_actor
from tests.rulesets.mech_d20.sheets import AKI as MECH_AKI
from tests.rulesets.mech_d20.sheets import BEN as MECH_BEN
from tests.serverproc import KirokuServer

BANNER = "#waiting-banner"
YOUR_MOVE = "【あなたの番】"


def _open(browser: Any, name: str) -> Audience:
    """A Japanese browser (the pages' default language)."""
    return Audience.open(browser, name, locale="ja-JP")


def _enter(audience: Audience, base_url: str, game: str, token: str | None) -> None:
    """Opens the table with a token (as the invite's join page hands it over), or as a spectator."""
    if token is None:
        audience.page.goto(f"{base_url}/g/{game}")
    else:
        audience.page.goto(f"{base_url}/g/{game}/join#token={token}")
    expect(audience.page.locator("#game-title")).not_to_have_text("…", timeout=TIMEOUT)


def _awaited(audience: Audience, text: str, control: str) -> None:
    banner = audience.page.locator(BANNER)
    expect(banner).to_be_visible(timeout=TIMEOUT)
    expect(banner).to_contain_text("あなたの番です", timeout=TIMEOUT)
    expect(banner).to_contain_text(text, timeout=TIMEOUT)
    expect(audience.page).to_have_title(YOUR_MOVE + "待ったなし — Kiroku", timeout=TIMEOUT)
    expect(audience.page.locator(control).first).to_be_in_viewport(timeout=TIMEOUT)


def _not_awaited(audience: Audience) -> None:
    """Nothing in its page says the game waits on it: no banner, the plain title."""
    expect(audience.page).to_have_title("待ったなし — Kiroku", timeout=TIMEOUT)
    assert not audience.page.locator(BANNER).is_visible()
    assert YOUR_MOVE not in audience.page.title()


def _seat_tokens(api: httpx.Client, created: dict[str, Any]) -> dict[int, str]:
    tokens = {}
    for seat in created["seats"]:
        joined = api.post(f"/games/{created['game_id']}/join", json={"invite": seat["invite"]})
        assert joined.status_code == 200, joined.text
        tokens[seat["seat"]] = joined.json()["token"]
    return tokens


def _create(api: httpx.Client, ruleset: str, seats: list[str]) -> dict[str, Any]:
    body = {"title": "待ったなし", "ruleset": ruleset, "seats": seats}
    response = api.post("/games", json={**body, "options": {"dice_policy": "both"}})
    assert response.status_code == 201, response.text
    return dict(response.json())


def _command(api: httpx.Client, game: str, token: str, body: dict[str, Any]) -> None:
    response = api.post(
        f"/games/{game}/commands", json=body, headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 201, response.text


def test_ninja_slayer_evasion_waits_on_its_defender(browser: Any, server: KirokuServer) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    created = _create(api, "ninja_slayer", ["Aki", "Ben"])
    game, gm_token = created["game_id"], created["gm_token"]
    tokens = _seat_tokens(api, created)
    ns = "ninja_slayer."
    _command(api, game, gm_token, {"type": "start"})
    sheet = {"karate": 5, "neuron": 7, "wazamae": 3, "tairyoku": 5, "seishin": 2, "dkk": 3}
    for seat, cid, name in ((1, "aki", "フジキド"), (2, "ben", "ヤモト")):
        body = {"type": ns + "add_character", "id": cid, "name": name, "owner": f"seat:{seat}"}
        _command(api, game, gm_token, {**body, "sheet": sheet})
    gm, aki, ben, spectator = (_open(browser, n) for n in ("gm", "seat:1", "seat:2", "public"))
    try:
        # a short window: the evasion form is below the fold until it is scrolled to
        aki.page.set_viewport_size({"width": 1000, "height": 500})
        _enter(gm, server.base_url, game, gm_token)
        _enter(aki, server.base_url, game, tokens[1])
        _enter(ben, server.base_url, game, tokens[2])
        _enter(spectator, server.base_url, game, None)
        for audience in (gm, aki, ben, spectator):
            _not_awaited(audience)

        hazard = {"type": ns + "hazard", "target": "aki", "amount": 2, "text": "落とし穴"}
        _command(api, game, gm_token, hazard)
        _awaited(aki, "フジキドの回避判定", ".ns-evade[data-character=aki]")
        for audience in (gm, ben, spectator):
            expect(audience.page.locator("#ns-actions")).to_be_attached(timeout=TIMEOUT)
            _not_awaited(audience)

        # taken: the wait is over, for its seat too
        aki.page.locator(".ns-evade button[data-action=take_damage]").click()
        expect(aki.page.locator(BANNER)).to_be_hidden(timeout=TIMEOUT)
        _not_awaited(aki)

        # an NPC's evasion waits on the GM alone
        npc = {"type": ns + "add_character", "id": "yakuza", "name": "クローンヤクザ"}
        _command(api, game, gm_token, {**npc, "kind": "boss", "sheet": {**sheet, "evasion": True}})
        _command(api, game, gm_token, {**hazard, "target": "yakuza"})
        _awaited(gm, "クローンヤクザの回避判定", ".ns-evade[data-character=yakuza]")
        for audience in (aki, ben, spectator):
            _not_awaited(audience)
        for audience in (gm, aki, ben, spectator):
            assert not audience.errors, audience.errors
    finally:
        for audience in (gm, aki, ben, spectator):
            audience.close()


def test_mech_d20_turn_waits_on_its_unit_owner(browser: Any, server: KirokuServer) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    created = _create(api, "mech_d20", ["Aki", "Ben"])
    game, gm_token = created["game_id"], created["gm_token"]
    tokens = _seat_tokens(api, created)
    md = "mech_d20."
    _command(api, game, gm_token, {"type": "start"})
    units = ((1, "aki", "グレイブ", MECH_AKI), (2, "ben", "ロングボウ", MECH_BEN))
    for seat, uid, name, sheet in units:
        body = {"type": md + "add_unit", "id": uid, "name": name, "owner": f"seat:{seat}"}
        _command(api, game, gm_token, {**body, "sheet": sheet})
    begin = {"participants": ["aki", "ben"], "faces": {"aki": [19], "ben": [2]}}
    _command(api, game, gm_token, {"type": md + "begin_encounter", **begin})
    gm, aki, ben, spectator = (_open(browser, n) for n in ("gm", "seat:1", "seat:2", "public"))
    try:
        _enter(gm, server.base_url, game, gm_token)
        _enter(aki, server.base_url, game, tokens[1])
        _enter(ben, server.base_url, game, tokens[2])
        _enter(spectator, server.base_url, game, None)
        # グレイブ is up: its seat starts the turn
        _awaited(aki, "グレイブのターンの開始", ".mech-start")
        for audience in (gm, ben, spectator):
            expect(audience.page.locator(".mech-order > li")).to_have_count(2, timeout=TIMEOUT)
            _not_awaited(audience)
        aki.page.locator(".mech-start").click()
        expect(aki.page.locator(BANNER)).to_contain_text("グレイブのターン", timeout=TIMEOUT)
        aki.page.locator(".mech-end").click()
        # ロングボウ's turn comes up: Ben's cue, and no longer Aki's
        _awaited(ben, "ロングボウのターンの開始", ".mech-start")
        expect(aki.page.locator(BANNER)).to_be_hidden(timeout=TIMEOUT)
        for audience in (gm, aki, spectator):
            _not_awaited(audience)
    finally:
        for audience in (gm, aki, ben, spectator):
            audience.close()


def test_chojin_locke_turn_waits_on_its_seat(browser: Any, server: KirokuServer) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    table = new_game(cast(TestClient, api), players=5, title="待ったなし")
    to_planets(table)
    actor = turn_actor(table)
    other = next(f"seat:{n}" for n in sorted(table.invites) if f"seat:{n}" != actor)
    gm, awaited, waiting, spectator = (_open(browser, n) for n in ("gm", actor, other, "public"))
    try:
        _enter(gm, server.base_url, table.game_id, table.tokens["gm"])
        _enter(awaited, server.base_url, table.game_id, table.tokens[actor])
        _enter(waiting, server.base_url, table.game_id, table.tokens[other])
        _enter(spectator, server.base_url, table.game_id, None)
        _awaited(awaited, "あなたのターン", ".locke-my-turn")
        for audience in (gm, waiting, spectator):
            expect(audience.page.locator(".locke-turn")).to_be_visible(timeout=TIMEOUT)
            _not_awaited(audience)
    finally:
        for audience in (gm, awaited, waiting, spectator):
            audience.close()


def test_a_bcdice_game_waits_on_no_one(browser: Any, server: KirokuServer) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    response = api.post(
        "/games", json={"title": "待ったなし", "seats": ["Aki"], "system": "SwordWorld2.5"}
    )
    assert response.status_code == 201, response.text
    created = response.json()
    tokens = _seat_tokens(api, created)
    _command(api, created["game_id"], created["gm_token"], {"type": "start"})
    aki = _open(browser, "seat:1")
    try:
        _enter(aki, server.base_url, created["game_id"], tokens[1])
        _command(api, created["game_id"], tokens[1], {"type": "say", "text": "2D6>=7"})
        expect(aki.page.locator("#log li")).not_to_have_count(0, timeout=TIMEOUT)
        _not_awaited(aki)
    finally:
        aki.close()
