"""The rest of a 超人ロック combat played through the pane (static/panes/chojin_locke/): in a game
with a host (an audience like the public), two explorers fight on a spaceport, a third joins by
実はそこにいたチェック, the host's 実は参加していた is put to every seat and declined by one, the
host brings in a 障害 and plays its attack; 戦闘前: 手下 declared, 謎の特殊能力 rolled, a [戦闘前]
ability used; a 同調 joins an attack, its target has its [代理:X] take the hit, withdraws it in
its next check phase and escapes; its piece moves away (`escape_to`), and once nobody goes on,
it plays its 戦闘離脱後の処理 phases (`aftermath_next`) before the turn goes on.

Every action is a click in the acting context's pane. Cards, sheets and abilities are unique
markers: over every byte each context received (DOM, responses, stream messages), a marker
sealed to one seat is found more often than the public catalog brings it only in that seat's
context (tests/browser/test_chojin_locke_combat.py does the same for one round of cards).

A second test takes docs/images/chojin-locke-combat.png from one seat's combat turn in a game
with the sample catalog itself: real card names, checked in that context's bytes beside the
public catalog.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any, cast
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from domain.rulesets.chojin_locke.catalog import sample
from tests.browser.audience import Audience
from tests.browser.conftest import screenshot_path
from tests.browser.test_chojin_locke_combat import (
    COMBAT,
    PANE,
    click,
    combat,
    end_turn,
    hand_of,
    held,
    played,
    step_is,
    walk_to_main,
)
from tests.browser.test_table import TIMEOUT
from tests.rulesets.chojin_locke.combat_table import to_combat_phase
from tests.rulesets.chojin_locke.table import (
    ambush_squares,
    cmd,
    marked_catalog,
    me,
    new_game,
    setup_to_ambush,
    view,
)
from tests.serverproc import KirokuServer
from tests.table import Table

PROXY = 9  # every sheet's [代理:9]: a declared 9 stands, 10 is above the truth


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KirokuServer]:
    with KirokuServer(db=tmp_path_factory.mktemp("locke-table") / "kiroku.db") as running:
        yield running


def values(select: Any) -> list[str]:
    options = select.locator("option")
    return [options.nth(i).get_attribute("value") or "" for i in range(options.count())]


def catalog() -> dict[str, Any]:
    """The sample catalog with markers for names; every character ESP能力レベル 6 and 耐久力 6
    (the LV 1 cards need no 精神力チェック, a 火力 4 or 8 hit never kills), and four marker
    abilities: a [戦闘前] one, a [戦闘前][手下:2], a [代理:9] and a [支援][戦闘] one. 40
    C-cards, LV 1, [同調可], 攻撃 or 逃避. 実はそこにいた joins at once on any roll (the host's
    catalog says so)."""
    data, _ = marked_catalog()
    for character in data["characters"]:
        character.update(esp_level=6, esp_power=60, endurance=6)  # power never lowers the level
        character["abilities"] = [
            {"name": f"BEFORE-{uuid.uuid4().hex}", "tags": ["戦闘前"]},
            {"name": f"MINIONS-{uuid.uuid4().hex}", "tags": ["戦闘前", "手下:2"]},
            {"name": f"PROXY-{uuid.uuid4().hex}", "tags": [f"代理:{PROXY}"]},
            {"name": f"SUPPORT-{uuid.uuid4().hex}", "tags": ["支援", "戦闘"]},
        ]
    data["combat_cards"] = [
        {
            "name": f"C-{uuid.uuid4().hex}",
            "lv": 1,
            "kinds": ["攻撃", "逃避"],
            "firepower": 4,
            "sync": True,
        }
        for _ in range(40)
    ]
    there = next(c for c in data["charts"] if c["name"] == "実はそこにいたチャート")
    there["rows"] = [{"min": 2, "max": 12, "result": "実はそこにいた: 戦闘に参加", "joins": True}]
    return data


def game(api: httpx.Client, data: dict[str, Any] | None, together: int) -> tuple[Table, list[int]]:
    """A started 惑星編 of a host's game with the catalog `data` (None: the sample): `together`
    explorers on planet 0's spaceport, the others on planets 1, 2, …; the explorers, those
    first."""
    options: dict[str, Any] = {"ruleset_options": {"catalog": data}} if data is not None else {}
    table = new_game(cast(TestClient, api), referee="host", **options)
    setup_to_ambush(table)
    seen = view(table, table.creator)
    bases = [p["seat"] for p in seen["players"] if p["side"] == "base"]
    explorers = [p["seat"] for p in seen["players"] if p["side"] == "explorer"]
    assert len(explorers) >= 3, explorers
    for index, (planet, square) in enumerate(ambush_squares(table, 3)):
        actor = f"seat:{bases[index % len(bases)]}"
        table.do(actor, cmd("place_ambush", planet=planet, square=square))
    for index, seat in enumerate(explorers):
        planet = 0 if index < together else index - together + 1
        table.do(f"seat:{seat}", cmd("enter", planet=planet))
    table.do(table.creator, cmd("begin_planets"))
    return table, explorers


def wait_for_fighter(audiences: list[Audience], fighter: int) -> None:
    for audience in audiences:
        expect(combat(audience).locator(f"tr[data-fighter='{fighter}']")).to_have_count(
            1, timeout=TIMEOUT
        )


def no_attack(audiences: list[Audience]) -> None:
    for audience in audiences:
        expect(combat(audience).locator(".locke-attack")).to_have_count(0, timeout=TIMEOUT)


def log_unchanged_after_refusal(audience: Audience, box: str, code: str, before: int) -> None:
    """A refusal shows its problem in the pane (its sentence, the code in data-code), and no
    line is added."""
    shown = audience.page.locator(f"{PANE} {box}")
    expect(shown).to_have_attribute("data-code", code, timeout=TIMEOUT)
    expect(shown).not_to_be_empty()
    assert audience.page.locator("#log li").count() == before


def attack_with_sync(
    seats: dict[int, Audience], attacker: int, target: int, joiner: int, minions: bool
) -> None:
    """The attacker's card at the target; `joiner` joins by 同調 (a clicked card of its hand);
    the attacker's own 手下, if it has some, decline. The target has its 代理 take the hit:
    once used, its cards are disabled with the reason and only 「代理が受ける」 is left; a 代理
    endurance above the 代理's is refused beside the form (nothing appended), then its own."""
    one, other, hit = seats[attacker], seats[joiner], seats[target]
    walk_to_main(one)
    combat(one).locator(".locke-ccard").first.click()
    form = combat(one).locator("[data-form=play_card]")
    form.locator("select[name=combat-kind]").select_option("攻撃")
    form.locator("select[name=combat-target]").select_option(str(target))
    form.locator("input[name=play-esp]").fill("6")
    click(one, "play_card")
    if minions:  # 3.1 l.325: its 手下 are asked first-hand; they stay out
        expect(combat(one).locator(".locke-sync")).to_contain_text("手下", timeout=TIMEOUT)
        combat(one).locator(".locke-sync [data-command=no_sync]").click()
    offer = combat(other).locator(".locke-sync")
    expect(offer).to_be_visible(timeout=TIMEOUT)
    assert combat(hit).locator(".locke-sync").count() == 0
    card = hand_of(other)[0]
    combat(other).locator(f".locke-ccard[data-card='{card}']").click()
    offer.locator("input[name=sync-esp]").fill("6")
    offer.locator("[data-command=sync]").click()
    expect(combat(one).locator(".locke-attack")).to_contain_text("同調", timeout=TIMEOUT)

    prompt = combat(hit).locator(".locke-respond")
    expect(prompt).to_be_visible(timeout=TIMEOUT)
    expect(prompt).to_contain_text("LV2")  # 5.5 l.1087: +1 for the joining card
    prompt.locator("[data-command=use_proxy]").click()
    expect(prompt.locator("[data-command=use_proxy]")).to_have_count(0, timeout=TIMEOUT)
    expect(prompt.locator("[data-command=take_hit]")).to_have_text("The 代理 takes it")
    for audience in seats.values():
        expect(combat(audience).locator(f"tr[data-fighter='{target}']")).to_contain_text(
            "代理使用中", timeout=TIMEOUT
        )
    cards = combat(hit).locator(".locke-combat-hand .locke-ccard")
    assert cards.count() > 0 and all(not cards.nth(i).is_enabled() for i in range(cards.count()))
    expect(cards.first.locator(".locke-ccard-why")).to_have_text(
        "代理の使用中はCカードを使えません"
    )
    click(hit, "take_hit")
    endurance = combat(hit).locator(".locke-endurance")
    expect(endurance).to_contain_text("代理's 耐久力", timeout=TIMEOUT)
    assert endurance.locator("input[name=proxy-endurance]").input_value() == str(PROXY)
    assert endurance.locator("input[name=hit-suit]").count() == 0
    before = hit.page.locator("#log li").count()
    endurance.locator("input[name=proxy-endurance]").fill(str(PROXY + 1))
    click(hit, "declare_endurance")
    log_unchanged_after_refusal(hit, ".locke-combat-error", "declaration_too_high", before)
    endurance.locator("input[name=proxy-endurance]").fill(str(PROXY))
    click(hit, "declare_endurance")
    no_attack(list(seats.values()))
    end_turn(one)


def obstacle_turn(host: Audience, seats: dict[int, Audience], obstacle: int, target: int) -> None:
    """The host walks the obstacle's turn: its attack is offered only in the main phase (the
    button says why before), at a target picked among those 6.2 allows (or ランダム), LV 1 with
    the living members' firepower; the target takes the hit and declares its endurance."""
    turn = combat(host).locator(".locke-obstacle-turn")
    expect(turn).to_have_attribute("data-fighter", str(obstacle), timeout=TIMEOUT)
    for seat, audience in seats.items():  # nobody else plays it
        assert combat(audience).locator(".locke-obstacle-turn").count() == 0, seat
    attack = turn.locator("[data-command=obstacle_attack]")
    expect(attack).to_be_disabled()
    expect(turn.locator("[data-form=obstacle_attack] .locke-why")).to_have_text(
        "主要フェイズに行います"
    )
    for phase in ("support1", "main"):
        turn.locator("[data-command=combat_next]").click()
        expect(combat(host)).to_have_attribute("data-phase", phase, timeout=TIMEOUT)
    expect(attack).to_be_enabled(timeout=TIMEOUT)
    picker = turn.locator("select[name=obstacle-target]")
    options = values(picker)
    assert options[0] == "random" and str(target) in options and str(obstacle) not in options
    picker.select_option(str(target))
    assert turn.locator("input[name=obstacle-power]").get_attribute("placeholder") == "4"
    attack.click()
    hit = seats[target]
    expect(combat(hit).locator(".locke-respond")).to_contain_text("武器", timeout=TIMEOUT)
    click(hit, "take_hit")
    expect(combat(hit).locator(".locke-endurance")).to_be_visible(timeout=TIMEOUT)
    click(hit, "declare_endurance")
    no_attack([host, *seats.values()])
    turn.locator("[data-command=combat_next]").click()
    expect(combat(host)).to_have_attribute("data-phase", "support2", timeout=TIMEOUT)
    turn.locator("[data-command=combat_next]").click()
    expect(combat(host).locator(".locke-obstacle-turn")).to_have_count(0, timeout=TIMEOUT)


def escape(seats: dict[int, Audience], seat: int) -> None:
    """The target withdraws its 代理 in its check phase, escapes with a 逃避 card and moves its
    piece to a square of its planet other than the combat's."""
    runner = seats[seat]
    expect(combat(runner).locator(".locke-combat-turn")).to_be_visible(timeout=TIMEOUT)
    click(runner, "withdraw_proxy")
    for audience in seats.values():
        expect(combat(audience).locator(f"tr[data-fighter='{seat}']")).not_to_contain_text(
            "代理使用中", timeout=TIMEOUT
        )
    walk_to_main(runner)
    combat(runner).locator(".locke-ccard").first.click()
    form = combat(runner).locator("[data-form=play_card]")
    form.locator("select[name=combat-kind]").select_option("逃避")
    form.locator("input[name=play-esp]").fill("6")
    click(runner, "play_card")
    prompt = combat(runner).locator(".locke-escape")
    expect(prompt).to_be_visible(timeout=TIMEOUT)
    for other, audience in seats.items():
        if other != seat:
            assert combat(audience).locator(".locke-escape").count() == 0
    where = prompt.locator("select[name=escape-to]")
    assert values(where) == ["0:1", "0:2", "0:3", "0:4", "0:5"]  # the combat is on 0:0
    where.select_option("0:3")
    click(runner, "escape_to")
    for audience in seats.values():
        expect(combat(audience).locator(f"tr[data-fighter='{seat}']")).to_contain_text(
            "離脱（移動済み）", timeout=TIMEOUT
        )
    expect(prompt).to_have_count(0)
    end_turn(runner)


def check_only(audience: Audience) -> None:
    """A fighter that joined by 同調 is 行動済み: its turn is the check phase alone."""
    turn = combat(audience).locator(".locke-combat-turn")
    expect(turn).to_be_visible(timeout=TIMEOUT)
    button = turn.locator("[data-command=combat_next]")
    expect(button).to_have_text("End the 戦闘手番")
    button.click()
    expect(turn).to_have_count(0, timeout=TIMEOUT)


def aftermath(everyone: list[Audience], runner: Audience) -> None:
    """5.7: its マスの効果発動 → 支援 → 戦闘発生 phases, each ended by its own click; the others
    see whose phases they are and wait."""
    section = runner.page.locator(f"{PANE} .locke-aftermath")
    for phase, label in (("square", "支援フェイズへ"), ("support", "戦闘発生フェイズへ")):
        for audience in everyone:
            other = audience.page.locator(f"{PANE} .locke-aftermath")
            expect(other).to_have_attribute("data-phase", phase, timeout=TIMEOUT)
            mine = other.locator("[data-command=aftermath_next]")
            assert mine.count() == (1 if audience is runner else 0), audience.name
        expect(section.locator(".locke-aftermath-phases li.current")).to_have_attribute(
            "data-phase", phase
        )
        button = section.locator("[data-command=aftermath_next]")
        expect(button).to_have_text(label)
        if phase == "support":  # ruling CL-092: its [支援] ability, named aloud
            form = section.locator("[data-form=support_ability]")
            (value,) = values(form.locator("select[name=aftermath-support]"))
            form.locator("[data-command=use_ability]").click()
            name = value.removeprefix("ability:")
            for audience in everyone:
                expect(audience.page.locator("#log")).to_contain_text(name, timeout=TIMEOUT)
        button.click()
    expect(section).to_have_attribute("data-phase", "combat", timeout=TIMEOUT)
    # nobody on its square: no combat to start, and the button says why
    expect(section.locator("[data-command=start_combat]")).to_be_disabled()
    expect(section.locator(".locke-why")).to_have_text("同じマスに他のキャラクターがいません")
    section.locator("[data-command=aftermath_next]").click()
    for audience in everyone:
        expect(audience.page.locator(f"{PANE} .locke-aftermath")).to_have_count(0, timeout=TIMEOUT)
        expect(audience.page.locator(COMBAT)).to_have_count(0)


def test_a_table_joins_fights_an_obstacle_and_leaves_in_the_pane(
    browser: Any, server: KirokuServer
) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    table, explorers = game(api, catalog(), together=2)
    pair, away = explorers[:2], explorers[2]
    starter = int(to_combat_phase(table, pair)[5:])
    link = f"{server.base_url}/g/{table.game_id}/join#token="
    host = Audience.open(browser, "host")
    seats = {seat: Audience.open(browser, f"seat:{seat}") for seat in (*pair, away)}
    everyone = [host, *seats.values()]
    try:
        host.page.goto(link + table.tokens["host"])
        for seat, audience in seats.items():
            audience.page.goto(link + table.tokens[f"seat:{seat}"])
        for audience in everyone:
            expect(audience.page.locator(f"{PANE} .locke-stage")).to_have_text(
                "惑星編", timeout=TIMEOUT
            )
        seats[starter].page.locator(f"{PANE} [data-command=start_combat]").click()
        for audience in everyone:
            step_is(audience, "joining")

        # ---- (1) 戦闘参加: the seat away from the square alone is offered 実はそこにいた
        for seat in pair:
            assert (
                combat(seats[seat]).locator("[data-command=join_check][data-check=there]").count()
                == 0
            )
        assert combat(host).locator("[data-check=there]").count() == 0
        combat(seats[away]).locator("[data-check=there]").click()
        wait_for_fighter(everyone, away)
        expect(combat(seats[away]).locator("[data-check=there]")).to_have_count(0)
        # ③ 実は参加していた: the host asks for an onlooker; every seat is asked; one says no
        assert all(combat(s).locator("[data-check=joined]").count() == 0 for s in seats.values())
        combat(host).locator("input[name=join-person]").fill("通りすがりの人")
        combat(host).locator("[data-check=joined]").click()
        for audience in seats.values():
            expect(combat(audience).locator(".locke-join-request")).to_contain_text(
                "通りすがりの人", timeout=TIMEOUT
            )
        expect(combat(host).locator("[data-check=joined]")).to_be_disabled(timeout=TIMEOUT)
        combat(seats[pair[1]]).locator("[data-command=answer_join][data-answer=no]").click()
        for audience in everyone:
            expect(combat(audience).locator(".locke-join-request")).to_have_count(
                0, timeout=TIMEOUT
            )
        expect(combat(host).locator("[data-check=joined]")).to_be_enabled()

        # ---- 6.2: the host brings in an obstacle; a nameless one is refused in the pane
        for audience in seats.values():
            assert combat(audience).locator(".locke-add-obstacle").count() == 0
        adding = combat(host).locator(".locke-add-obstacle")
        adding.locator("summary").click()
        before = host.page.locator("#log li").count()
        click(host, "add_obstacle")
        expect(combat(host).locator(".locke-combat-error")).to_be_visible(timeout=TIMEOUT)
        assert host.page.locator("#log li").count() == before
        adding.locator("input[name=obstacle-name]").fill("警官隊")
        adding.locator("input[name=obstacle-members]").fill("2")
        adding.locator("input[name=obstacle-endurance]").fill("1")
        adding.locator("input[name=obstacle-firepower]").fill("4")
        click(host, "add_obstacle")
        obstacle = 101
        wait_for_fighter(everyone, obstacle)
        for audience in everyone:
            row = combat(audience).locator(f"tr[data-fighter='{obstacle}']")
            expect(row).to_contain_text("警官隊")
            expect(row).to_contain_text("耐久力 1/1")

        # ---- (2) コマ移動 and (3) 戦闘前, moved on by the starter
        for step in ("moving", "before"):
            click(seats[starter], "combat_next")
            for audience in everyone:
                step_is(audience, step)
        for audience in everyone:  # who may act now, to everyone
            expect(combat(audience).locator(".locke-before, .locke-who").first).to_be_visible()
        assert combat(host).locator("[data-command=mystery_ability]").count() == 0
        joiner = combat(seats[away])
        joiner.locator("input[name=minions]").fill("2")
        click(seats[away], "declare_minions")
        for audience in everyone:
            expect(combat(audience).locator(f"tr[data-fighter='{away}']")).to_contain_text(
                "手下2", timeout=TIMEOUT
            )
        expect(joiner.locator("[data-command=declare_minions]")).to_be_disabled()
        mine = me(table, f"seat:{away}")["sheet"]["abilities"]
        joiner.locator("select[name=mystery-ability]").select_option(mine[0]["name"])
        click(seats[away], "mystery_ability")
        expect(joiner.locator("[data-command=mystery_ability]")).to_be_disabled(timeout=TIMEOUT)
        expect(joiner.locator("[data-form=mystery_ability] .locke-why")).to_have_text(
            "この戦闘で宣言済み"
        )
        user = seats[pair[0]]
        options = combat(user).locator("select[name=before-ability] option")
        assert options.count() == 1  # the [手下:X] one is declared by its number
        combat(user).locator("input[name=before-effect]").fill("全員の耐久力+1")
        before = user.page.locator("#log li").count()
        click(user, "before_ability")
        expect(user.page.locator("#log li")).not_to_have_count(before, timeout=TIMEOUT)
        expect(host.page.locator("#log")).to_contain_text("全員の耐久力+1", timeout=TIMEOUT)
        click(seats[starter], "combat_next")
        for audience in everyone:
            step_is(audience, "turns")
        expect(joiner.locator(".locke-combat-hand h4")).to_have_text("手札 9/9")

        # ---- (6) the combat turns: the first character attacks the third, the second joins
        # by 同調 (and is then 行動済み), the third escapes; the host plays the obstacle at the
        # first character
        order: list[int] = view(table, "public")["combat"]["order"]
        first, second, third = (n for n in order if n != obstacle)
        for fighter in order:
            for audience in everyone:
                expect(combat(audience).locator("tr.current")).to_have_attribute(
                    "data-fighter", str(fighter), timeout=TIMEOUT
                )
            if fighter == obstacle:
                obstacle_turn(host, seats, obstacle, first)
            elif fighter == first:
                attack_with_sync(seats, first, third, second, minions=first == away)
            elif fighter == second:
                check_only(seats[second])
            else:
                escape(seats, third)

        # ---- (7) nobody goes on: the combat is over, and the leaver plays its phases
        for seat in (first, second):
            step_is(seats[seat], "round_end")
        assert combat(seats[third]).locator(".locke-continue").count() == 0  # it has left
        for seat in (first, second):
            combat(seats[seat]).locator("[data-command=continue_combat][data-answer=no]").click()
            expect(combat(seats[seat]).locator(".locke-continue")).to_have_count(0, timeout=TIMEOUT)
        aftermath(everyone, seats[third])
        assert view(table, "public")["aftermath"] is None

        # ---- nothing sealed to one seat reached another context
        check_no_leak(table, everyone)
    finally:
        for audience in everyone:
            audience.close()


def check_no_leak(table: Table, everyone: list[Audience]) -> None:
    """Each seat's sheet and abilities (dealt sealed, unless named aloud when used) and the
    C-cards it drew (unless played) arrive in its own context more often than with the public
    catalog, in no other."""
    events = [e for e in table.events("public") if e["type"] != "GameCreated"]  # the catalog
    named = {
        e["public"]["ability"] for e in events if (e["public"] or {}).get("ability") is not None
    }
    sealed: dict[str, set[str]] = {}
    dealt: set[str] = set()
    for player in view(table, "public")["players"]:
        actor = f"seat:{player['seat']}"
        sheet = me(table, actor)["sheet"]
        markers = {sheet["name"], *(a["name"] for a in sheet["abilities"])}
        sealed[actor] = (markers - named) | (held(table, player["seat"]) - played(table))
        dealt |= markers
    drawn = set().union(*(held(table, int(a[5:])) for a in sealed))
    first = table.events("public")[0]["public"]["ruleset_options"]["catalog"]
    undrawn = [c["name"] for c in first["combat_cards"] if c["name"] not in drawn]
    unowned = [
        name
        for c in first["characters"]
        for name in (c["name"], *(a["name"] for a in c["abilities"]))
        if name not in dealt
    ]
    assert undrawn and unowned
    for audience in everyone:
        assert not audience.errors, audience.errors
        received = audience.received()
        copies = received.count(undrawn[0])
        assert copies >= 1
        assert all(received.count(n) == copies for n in [*undrawn, *unowned]), audience.name
        for owner, markers in sealed.items():
            for marker in markers:
                seen = received.count(marker) > copies
                assert seen == (owner == audience.name), (audience.name, owner, marker)


def without_the_catalog(text: str) -> str:
    """A response body or stream message, less the public catalog a GameCreated carries (the
    JSON read and written again, so no name hides behind an escape)."""
    try:
        data = json.loads(text)
    except ValueError:
        return text

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if node.get("type") == "GameCreated":
                node = {**node, "public": {**node["public"], "ruleset_options": None}}
            return {key: walk(value) for key, value in node.items()}
        if isinstance(node, list):
            return [walk(value) for value in node]
        return node

    return json.dumps(walk(data), ensure_ascii=False)


def beyond_the_catalog(audience: Audience) -> str:
    """Every byte the context received that could carry a secret: its DOM, its stream messages
    and every response of the API but the ruleset's reference data, without the public
    catalog (whose card names are the game's real ones, repeated in other names and texts)."""
    parts = [audience.page.content(), *map(without_the_catalog, audience.stream_messages)]
    for response in audience.responses:
        path = urlsplit(response.url).path
        streaming = "text/event-stream" in (response.headers.get("content-type") or "")
        # the message catalogs (/i18n/…) hold the sample catalog's card names as the log's
        # terms: the same bytes for every visitor, public as the reference data is
        if streaming or path.startswith(("/static/", "/i18n/")) or path == "/rulesets":
            continue
        try:
            parts.append(without_the_catalog(response.body().decode("utf-8", "replace")))
        except Exception:  # a redirect or an aborted request has no body
            continue
    return "\n".join(parts)


def test_a_seats_combat_turn_with_the_sample_catalog(browser: Any, server: KirokuServer) -> None:
    """docs/images/chojin-locke-combat.png: one seat's own pane in its combat turn, in a game
    with the sample catalog (its real cards, LVs and kinds, its characters), a 警官隊 of three
    brought in by the host, a card of its hand chosen. The context received the names of the
    cards the seat drew and of no card it did not draw (the catalog, public, left aside; the
    sheets are checked by the test above, with markers)."""
    api = httpx.Client(base_url=server.base_url, timeout=10)
    table, explorers = game(api, None, together=3)
    fighters = explorers[:3]
    starter = to_combat_phase(table, fighters)
    table.do(starter, cmd("start_combat"))
    police = {"name": "警官隊", "members": [1, 1, 1], "firepower": 3}  # 6.2 l.1300's example
    table.do(table.creator, {**cmd("add_obstacle"), **police})
    for _ in range(3):
        table.do(starter, cmd("combat_next"))
    fight = view(table, "public")["combat"]
    seat = next(n for n in fight["order"] if n in fighters)
    if fight["current"] != seat:  # the 警官隊 goes first: the host passes its turn
        for body in ("combat_next", "combat_next", "combat_pass", "combat_next", "combat_next"):
            table.do(table.creator, cmd(body))
    for _ in range(2):
        table.do(f"seat:{seat}", cmd("combat_next"))
    audience = Audience.open(  # the docs' picture: the Japanese table
        browser, f"seat:{seat}", viewport={"width": 1280, "height": 1400}, locale="ja-JP"
    )
    try:
        link = f"{server.base_url}/g/{table.game_id}/join#token={table.tokens[f'seat:{seat}']}"
        audience.page.goto(link)
        expect(combat(audience)).to_have_attribute("data-phase", "main", timeout=TIMEOUT)
        expect(combat(audience).locator(".locke-combat-hand .locke-ccard")).to_have_count(7)
        expect(combat(audience).locator("tr[data-fighter='101']")).to_contain_text("耐久力 1/1/1")
        catalog = sample()
        kinds = {c.name: c.kinds for c in catalog.combat_cards}
        mine = hand_of(audience)
        chosen = next((n for n in mine if "攻撃" in kinds[n]), mine[0])
        combat(audience).locator(f".locke-ccard[data-card='{chosen}']").first.click()
        expect(combat(audience).locator("[data-form=play_card]")).to_contain_text(chosen)
        audience.page.locator("#ruleset-pane").screenshot(
            path=screenshot_path("chojin-locke-combat.png")
        )
        assert not audience.errors, audience.errors
        # a card's name inside another text of the catalog (テレポート in 短距離テレポート, 予知 in
        # the ability 戦闘予知) says nothing: those are left out
        texts = list(strings(catalog.model_dump(mode="json")))
        plain = sorted({n for n in kinds if not any(n != text and n in text for text in texts)})
        drawn = held(table, seat)
        assert set(mine) <= drawn and len(plain) > len(drawn)
        received = beyond_the_catalog(audience)
        for name in plain:
            assert (name in received) == (name in drawn), name
    finally:
        audience.close()


def strings(node: Any) -> Iterator[str]:
    """Every string in a JSON value."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from strings(value)
