"""超人ロック at a table of six browsers: the set-up and the first turns played from the
ruleset's pane (static/panes/chojin_locke.js) — silhouettes chosen from the sheet and the
playing card shown, 待ち伏せ and pieces placed by clicking the board, a move by clicking a
square, a declaration with the value the player chooses, a 勝利宣言 and the objection prompt
that every other player gets. Every seat is its own browser context, and no context ever
receives another seat's sheet or playing card, nor an explorer the 待ち伏せ: not in its DOM,
not in a response, not in a stream message (byte-level over everything the context
received)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any, cast

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from domain.rulesets.chojin_locke.catalog import sample
from tests.browser.audience import Audience
from tests.browser.conftest import pane_picture, screenshot_path
from tests.browser.test_table import TIMEOUT
from tests.rulesets.chojin_locke.table import (
    KEYS,
    NAMES,
    cmd,
    finish_turn,
    info_catalog,
    me,
    new_game,
    play_planet_stage,
    to_base,
    turn_actor,
    until_turn_of,
    view,
)
from tests.serverproc import KirokuServer

PANE = "#ruleset-pane-body"
SEATS = 6


def marked_catalog() -> dict[str, Any]:
    """The sample catalog, each character's name followed by a random mark (readable in the
    screenshot, found nowhere else), and no defeat conditions (which name other characters)."""
    data = sample().model_dump(mode="json")
    for character in data["characters"]:
        character["name"] = f"{character['name']}·{uuid.uuid4().hex[:8]}"
        character["defeat"] = []
    return data


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KirokuServer]:
    """One server for this module's games (each test makes its own game)."""
    with KirokuServer(db=tmp_path_factory.mktemp("locke") / "kiroku.db") as running:
        yield running


def pane(audience: Audience) -> Any:
    return audience.page.locator(PANE)


def stage_is(audience: Audience, text: str) -> None:
    expect(pane(audience).locator(".locke-stage")).to_have_text(text, timeout=TIMEOUT)


def my_sheet(audience: Audience) -> tuple[str, str]:
    """The sheet's name and the seat's current faction, as its own pane shows them."""
    sheet = pane(audience).locator(".locke-me .locke-sheet")
    expect(sheet).to_be_visible(timeout=TIMEOUT)
    name = sheet.locator(".locke-sheet-name").inner_text().removesuffix(" (L)")
    return name, sheet.get_attribute("data-faction") or ""


def playing_card(audience: Audience) -> dict[str, Any]:
    card = pane(audience).locator(".locke-playing-card")
    expect(card).to_be_visible(timeout=TIMEOUT)
    text = card.inner_text()
    rank = {"A": 1}.get(text[1:]) or int(text[1:])
    return {"color": "black" if text[0] == "♠" else "red", "rank": rank}


def choose_silhouette(audience: Audience, faction: str, taken: list[str]) -> None:
    """A Good sheet takes a Good or Special silhouette (an explorer), every other sheet an
    Evil one (a base player) where its playing card lets it: the sides then balance, and the
    explorers, whose turns come first, are mostly Good (Special sheets declare only sole
    victory). Each seat takes a silhouette nobody took yet where it can."""
    picker = pane(audience).locator("select[name=silhouette]")
    expect(picker).to_be_visible(timeout=TIMEOUT)
    side = "explorer" if faction == "G" else "base"
    options = picker.locator(f"option[data-side={side}]")
    names = [options.nth(i).get_attribute("value") or "" for i in range(options.count())]
    if not names:  # an Ace or a 10 leaves one way only
        names = [picker.locator("option").first.get_attribute("value") or ""]
    name = next((n for n in names if n not in taken), names[0])
    taken.append(name)
    picker.select_option(name)
    pane(audience).locator("[data-action=choose_silhouette] button").click()
    expect(picker).to_have_count(0, timeout=TIMEOUT)


def my_turn(seats: list[Audience]) -> Audience:
    """The seat whose pane says it is its turn (once its page has caught up)."""
    for _ in range(TIMEOUT // 100):
        for audience in seats:
            if pane(audience).locator(".locke-my-turn").count():
                return audience
        seats[0].page.wait_for_timeout(100)
    raise AssertionError("nobody's turn")


def next_phase(audience: Audience) -> None:
    turn = pane(audience).locator(".locke-turn").inner_text()
    pane(audience).locator("[data-command=next_phase]").click()
    expect(pane(audience).locator(".locke-turn")).not_to_have_text(turn, timeout=TIMEOUT)


def to_phase(audience: Audience, phase: str) -> None:
    for _ in range(6):
        if pane(audience).locator(".locke-phase").get_attribute("data-phase") == phase:
            return
        next_phase(audience)
    raise AssertionError(f"never reached {phase}")


def end_turn_in_pane(audience: Audience) -> None:
    while pane(audience).locator(".locke-my-turn").count():
        if pane(audience).locator("[data-command=pass]").count():
            pane(audience).locator("[data-command=pass]").click()
            expect(pane(audience).locator("[data-command=pass]")).to_have_count(0, timeout=TIMEOUT)
        button = pane(audience).locator("[data-command=next_phase]")
        turn = pane(audience).locator(".locke-turn").inner_text()
        button.click()
        expect(pane(audience).locator(".locke-turn")).not_to_have_text(turn, timeout=TIMEOUT)


def deal_sheets(host: Audience) -> None:
    """The host deals (the pane then offers キャラクター確定 in its place). A click that lands
    while the pane re-renders for the start's events is lost, as a player's would be (seen
    once in CI): the host clicks again, as a player would."""
    for _ in range(2):
        pane(host).locator("[data-command=deal]").click()
        try:
            expect(pane(host).locator("[data-command=fix_characters]")).to_be_visible(
                timeout=TIMEOUT
            )
            return
        except AssertionError:
            continue
    raise AssertionError("the deal never took")


def open_check(audience: Audience) -> Any:
    check = pane(audience).locator(".locke-check")
    if check.get_attribute("open") is None:
        check.locator("summary").click()
    expect(check.locator("select[name=check-stat]")).to_be_visible()
    return check


def declare_check(audience: Audience) -> None:
    """A willpower check: declared above the value the pane offers (the truth), refused to the
    declarer alone with nothing appended; then one below it, rolled."""
    check = open_check(audience)
    check.locator("select[name=check-stat]").select_option("willpower")
    check.locator("input[name=reason]").fill("ブラフ")
    declared = check.locator("input[name=check]")
    truth = int(declared.input_value() or "0")
    assert truth >= 1
    log = audience.page.locator("#log li")
    before = log.count()
    declared.fill(str(truth + 1))
    check.locator("button.primary").click()
    error = pane(audience).locator(".locke-error")
    expect(error).to_have_attribute("data-code", "declaration_too_high", timeout=TIMEOUT)
    expect(error).to_contain_text(str(truth + 1))  # the server's sentence names the value
    assert log.count() == before
    declared.fill(str(max(truth - 1, 1)))
    check.locator("button.primary").click()
    expect(log).not_to_have_count(before, timeout=TIMEOUT)
    expect(error).to_be_hidden()


def test_chojin_locke_from_the_deal_to_an_objected_victory(
    browser: Any, server: KirokuServer
) -> None:
    catalog = marked_catalog()
    api = httpx.Client(base_url=server.base_url, timeout=10)
    body = {
        "title": "超人ロック",
        "ruleset": "chojin_locke",
        "seats": NAMES[:SEATS],
        "ruleset_options": {"catalog": catalog},
    }
    created = api.post("/games", json=body)
    assert created.status_code == 201, created.text
    links = [s["link"] for s in created.json()["seats"]]
    # a game without a referee (超人ロック's default once hosts exist) gives a host link; its
    # host is an audience like the public and is checked like the seats below
    hosted = created.json().get("referee") == "host"
    host_link = created.json()["host_link" if hosted else "gm_link"]

    host = Audience.open(browser, "host" if hosted else "gm")
    seats = [Audience.open(browser, f"seat:{n}") for n in range(1, SEATS + 1)]
    try:
        host.page.goto(host_link)
        expect(host.page.locator("#gm-pane")).to_be_visible(timeout=TIMEOUT)
        for audience, link in zip(seats, links, strict=True):  # all six at once
            audience.page.goto(link)
        for audience in seats:
            audience.page.click("text=Take my seat")
        for audience in seats:
            expect(audience.page.locator("#chat")).to_be_visible(timeout=TIMEOUT)
        host.page.click("text=Start the game")
        expect(pane(host).locator(".locke-stage")).to_be_visible(timeout=TIMEOUT)

        # ---- 4.1: the sheets, the playing cards, silhouettes chosen in secret
        deal_sheets(host)
        sheets = {a.name: my_sheet(a) for a in seats}
        pane(host).locator("[data-command=fix_characters]").click()
        cards = {a.name: playing_card(a) for a in seats}
        taken: list[str] = []
        for audience in seats:
            choose_silhouette(audience, sheets[audience.name][1], taken)
        for audience in (host, *seats):
            stage_is(audience, "惑星編の準備")
            # the silhouettes are public now, in every seat's table of players
            shown = pane(audience).locator(".locke-players .locke-silhouette")
            expect(shown).to_have_count(SEATS)
            assert sorted(shown.all_inner_texts()) == sorted(taken), audience.name

        # ---- 4.5: 待ち伏せ on face-down cards, pieces on spaceports, by clicking the board
        bases = [a for a in seats if pane(a).locator("[data-mode=ambush]").count()]
        explorers = [a for a in seats if a not in bases]
        assert len(bases) >= 2 and len(explorers) >= 2
        for number, audience in enumerate([bases[0], bases[1], bases[0]]):  # 3 with six (L1352)
            placed = pane(audience).locator(".locke-square.ambush")
            expect(placed).to_have_count(number, timeout=TIMEOUT)  # the others' are in its view
            mode = pane(audience).locator("[data-mode=ambush]")
            if mode.get_attribute("aria-pressed") != "true":
                mode.click()
            far = pane(audience).locator(
                ".locke-planet[data-planet='4'], .locke-planet[data-planet='5']"
            )
            far.locator("button.locke-square.target").first.click()
            expect(placed).to_have_count(number + 1, timeout=TIMEOUT)
        for other in explorers:  # the explorers see no 待ち伏せ
            assert pane(other).locator(".locke-square.ambush").count() == 0
        for planet, audience in enumerate(explorers):
            pane(audience).locator(
                f"button.locke-square.target[data-planet='{planet}'][data-square='0']"
            ).click()
            expect(pane(audience).locator(".locke-piece.mine")).to_have_count(1, timeout=TIMEOUT)
        on_board = pane(host).locator(".locke-planets .locke-piece")
        expect(on_board).to_have_count(len(explorers), timeout=TIMEOUT)  # the host has seen all
        pane(host).locator("[data-command=begin_planets]").click()
        for audience in seats:
            stage_is(audience, "惑星編")

        # ---- the first turn: a move by clicking the square, and a declared check
        first = my_turn(seats)
        to_phase(first, "main")
        pane(first).locator("button.locke-square.target[data-square='1']").click()
        moved = pane(first).locator(".locke-square[data-square='1'] .locke-piece.mine")
        expect(moved).to_have_count(1, timeout=TIMEOUT)
        declare_check(first)
        end_turn_in_pane(first)

        # ---- the next turns: 勝利宣言 (Special sheets declare only sole victory, so the first
        # Good or Evil turn player declares); every other player is asked, one objects
        declarer: Audience | None = None
        for _ in range(4):
            turn = my_turn(seats)
            to_phase(turn, "support1")
            if sheets[turn.name][1] != "S":
                declarer = turn
                pane(turn).locator("[data-command=declare_victory]").click()
                break
            end_turn_in_pane(turn)
        assert declarer is not None
        others = [a for a in seats if a is not declarer]
        for audience in others:
            prompt = pane(audience).locator(".locke-victory")
            expect(prompt.locator("[data-answer=object]")).to_be_visible(timeout=TIMEOUT)
        expect(pane(declarer).locator(".locke-victory")).to_be_visible()
        assert pane(declarer).locator(".locke-victory [data-answer]").count() == 0
        for audience in others[:-1]:
            pane(audience).locator(".locke-victory [data-answer=accept]").click()
            expect(pane(audience).locator(".locke-victory [data-answer]")).to_have_count(
                0, timeout=TIMEOUT
            )
        pane(others[-1]).locator(".locke-victory [data-answer=object]").click()
        for audience in seats:
            expect(pane(audience).locator(".locke-victory")).to_have_count(0, timeout=TIMEOUT)
        stage_is(declarer, "惑星編")  # an objection: play goes on
        end_turn_in_pane(declarer)

        # ---- nobody ever received another seat's sheet or playing card. The catalog is public
        # (GameCreated holds it), so every character's name arrives once with each copy of it: a
        # sheet reached a context when its name arrived more often than an undealt character's.
        # The declarer's sheet is open to all since its 勝利宣言. The GM sees every secret; a
        # host none.
        dealt = {name for name, _ in sheets.values()}
        undealt = [c["name"] for c in catalog["characters"] if c["name"] not in dealt]
        for audience in [*seats, *([host] if hosted else [])]:
            received = audience.received()
            assert not audience.errors, audience.errors
            # a refusal that depends on a sheet reaches its maker only
            assert ("declaration_too_high" in received) == (audience is first), audience.name
            # the 待ち伏せ squares reach the base players only
            assert ('"ambushes":[' in received) == (audience in bases), audience.name
            copies = received.count(undealt[0])
            assert copies >= 1 and all(received.count(n) == copies for n in undealt)
            for owner in seats:
                name = sheets[owner.name][0]
                card = cards[owner.name]
                compact = f'"color":"{card["color"]}","rank":{card["rank"]}}}'
                spaced = f'"color": "{card["color"]}", "rank": {card["rank"]}}}'
                mine = owner is audience
                sheet_seen = received.count(name) > copies
                assert sheet_seen == (mine or owner is declarer), (audience.name, owner.name)
                assert (compact in received or spaced in received) == mine, (
                    audience.name,
                    owner.name,
                )
    finally:
        for audience in (host, *seats):
            audience.close()


def test_the_base_entry_order_in_the_browser(browser: Any, server: KirokuServer) -> None:
    """秘密基地編の準備 (4.6 l.793): everyone reads who enters and in what order, by name; only
    the entrant due is offered the entry, and once it has entered the order moves on."""
    api = httpx.Client(base_url=server.base_url, timeout=10)
    table = new_game(cast(TestClient, api), ruleset_options={"catalog": info_catalog()})
    bases, _explorers = play_planet_stage(table)
    for index, (row, col) in enumerate(KEYS):
        table.do(f"seat:{bases[index % len(bases)]}", cmd("place_key", row=row, col=col))
    order: list[int] = view(table, "public")["entry_order"]
    assert order
    link = f"{server.base_url}/g/{table.game_id}/join#token="
    due = Audience.open(browser, f"seat:{order[0]}")
    keeper = Audience.open(browser, f"seat:{bases[0]}")
    try:
        for audience in (due, keeper):
            audience.page.goto(link + table.tokens[audience.name])
            stage_is(audience, "秘密基地編の準備")
            shown = pane(audience).locator(".locke-entry-order")
            expect(shown).to_have_text("Entry order: " + " → ".join(NAMES[s - 1] for s in order))
        assert pane(keeper).locator("[data-mode=enter_base]").count() == 0
        pane(due).locator("[data-mode=enter_base]").click()
        pane_picture(due, "chojin-locke-entry.png")
        pane(due).locator(".locke-base button.locke-square[data-row='0'][data-col='0']").click()
        rest = " → ".join(NAMES[s - 1] for s in order[1:])
        for audience in (due, keeper):
            shown = pane(audience).locator(".locke-entry-order")
            if rest:
                expect(shown).to_have_text(f"Entry order: {rest}", timeout=TIMEOUT)
            else:
                expect(shown).to_have_count(0, timeout=TIMEOUT)
        expect(pane(due).locator("[data-mode=enter_base]")).to_have_count(0)
        assert not due.errors and not keeper.errors
    finally:
        due.close()
        keeper.close()


def test_the_base_board_in_the_browser(browser: Any, server: KirokuServer) -> None:
    """秘密基地編, reached over HTTP: the 6×6 base with its face-down cards, the 重要拠点 on the
    base players' page only, and the turn player's move by clicking a lit square."""
    api = httpx.Client(base_url=server.base_url, timeout=10)
    table = new_game(cast(TestClient, api), ruleset_options={"catalog": info_catalog()})
    bases, entrants, _outside = to_base(table)
    # an entrant starts on a face-down card (4.6: no main phase then); once it is turned, the
    # entrants move freely
    finish_turn(table, until_turn_of(table, *entrants), None)
    actor = until_turn_of(table, *entrants)
    link = f"{server.base_url}/g/{table.game_id}/join#token="
    mover = Audience.open(browser, actor)
    keeper = Audience.open(browser, f"seat:{bases[0]}")
    try:
        for audience in (mover, keeper):
            audience.page.goto(link + table.tokens[audience.name])
            stage_is(audience, "秘密基地編")
            squares = pane(audience).locator(".locke-base .locke-square")
            expect(squares).to_have_count(36)
            face_down = view(table, "public")["board"]["base_face_down"]
            expect(pane(audience).locator(".locke-base .face-down")).to_have_count(face_down)
            expect(pane(audience).locator(".locke-base .outer")).to_have_count(20)
        expect(pane(keeper).locator(".locke-base .key")).to_have_count(4)
        assert pane(mover).locator(".locke-base .key").count() == 0

        to_phase(mover, "main")
        cell = next(p for p in view(table, "public")["players"] if p["seat"] == int(actor[5:]))
        row, col = cell["cell"]["row"], cell["cell"]["col"]
        lit = pane(mover).locator("button.locke-square.target")
        expect(lit).not_to_have_count(0)
        target = lit.first
        to = (
            int(target.get_attribute("data-row") or -1),
            int(target.get_attribute("data-col") or -1),
        )
        assert abs(to[0] - row) + abs(to[1] - col) == 1  # a neighbour, no wrap
        target.click()
        mine = pane(mover).locator(f".locke-square[data-row='{to[0]}'][data-col='{to[1]}'] .mine")
        expect(mine).to_have_count(1, timeout=TIMEOUT)
        assert not mover.errors and not keeper.errors
    finally:
        mover.close()
        keeper.close()


def test_the_pane_picture_is_of_the_sample_catalog(browser: Any, server: KirokuServer) -> None:
    """docs/images/chojin-locke-pane.png: the turn player's own pane at the start of 惑星編 in a
    game with the sample catalog (its real characters, not the markers the tests above need for
    their leak checks), the 能力値チェック form open, the seat's own sheet in it."""
    from tests.browser.test_chojin_locke_combat_table import game

    api = httpx.Client(base_url=server.base_url, timeout=10)
    table, _ = game(api, None, together=2)
    actor = turn_actor(table)
    audience = Audience.open(
        browser, actor, viewport={"width": 1280, "height": 2000}, locale="ja-JP"
    )  # the docs' picture: the Japanese table
    try:
        audience.page.goto(f"{server.base_url}/g/{table.game_id}/join#token={table.tokens[actor]}")
        stage_is(audience, "惑星編")
        open_check(audience)
        name, _ = my_sheet(audience)
        assert name == me(table, actor)["sheet"]["name"]
        audience.page.locator("#ruleset-pane").screenshot(
            path=screenshot_path("chojin-locke-pane.png")
        )
        assert not audience.errors, audience.errors
    finally:
        audience.close()
