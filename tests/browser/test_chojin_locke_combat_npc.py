"""The 6.1–6.2 NPCs and combat's own ability windows played through the pane
(static/panes/chojin_locke/): in a game with a host and physical dice allowed, two explorers fight
on a spaceport; two dead characters' seats join by 実は生きていたチェック (set up through the API
with chosen faces: the pane's button rolls the server's dice) as 残留思念 of 火力4. By clicks: the
host brings in a 障害 with ESPジャマーLV:3 that 「幻覚の効果を受けない」 and destroys its jammer,
brings in an エスパー NPC, walks the NPCs' turns and plays the エスパー's main action at the first
character; that target declares a [対抗(攻撃)] ability, takes the hit at a declared endurance of 1
and dies; its [死亡時] window is answered (an ability, then done); the host makes the エスパー
faint; a living character uses a [支援] ability in its support phase; one 残留思念 attacks the
障害 and the other's seat answers with 同調.

Over every byte each context received (DOM, responses, stream messages), a marker sealed to one
seat (its sheet, abilities, C-cards) is found more often than the public catalog brings it only
in that seat's context — unless the table made it public (an ability named aloud, a card played).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any, cast

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.browser.conftest import pane_picture
from tests.browser.test_chojin_locke_combat import click, combat, held, step_is
from tests.browser.test_chojin_locke_combat_table import catalog as table_catalog
from tests.browser.test_chojin_locke_combat_table import values, wait_for_fighter
from tests.browser.test_table import TIMEOUT
from tests.rulesets.chojin_locke.combat_table import combat as combat_of
from tests.rulesets.chojin_locke.combat_table import (
    current_actor,
    hand,
    start,
    three_on_a_square,
    to_combat_phase,
)
from tests.rulesets.chojin_locke.table import (
    LOOP_BOUND,
    ambush_squares,
    cmd,
    me,
    new_game,
    setup_to_ambush,
    view,
)
from tests.rulesets.chojin_locke.test_combat_own_jammer_http import JAMMER
from tests.rulesets.chojin_locke.test_combat_own_jammer_http import _catalog as jammer_catalog
from tests.serverproc import KirokuServer
from tests.table import Table


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KirokuServer]:
    with KirokuServer(db=tmp_path_factory.mktemp("locke-npc") / "kiroku.db") as running:
        yield running


def catalog() -> dict[str, Any]:
    """The table test's catalog (markers, ESP能力レベル 6, LV 1 攻撃/逃避 cards of 火力4, a
    [支援][戦闘] marker ability), each sheet with a [対抗(攻撃)] and a [死亡時] one too."""
    data = table_catalog()
    for character in data["characters"]:
        character["abilities"] += [
            {"name": f"COUNTER-{uuid.uuid4().hex}", "tags": ["対抗(攻撃)"]},
            {"name": f"DEATH-{uuid.uuid4().hex}", "tags": ["死亡時"]},
        ]
    return data


def game(api: httpx.Client) -> tuple[Table, list[int], list[int]]:
    """A started 惑星編 of a host's game, physical dice allowed: two explorers on planet 0's
    spaceport (the fighters), the others on planets 1, 2, …; (table, fighters, the others)."""
    table = new_game(
        cast(TestClient, api),
        referee="host",
        options={"dice_policy": "both"},
        ruleset_options={"catalog": catalog()},
    )
    setup_to_ambush(table)
    seen = view(table, table.creator)
    bases = [p["seat"] for p in seen["players"] if p["side"] == "base"]
    explorers = [p["seat"] for p in seen["players"] if p["side"] == "explorer"]
    for index, (planet, square) in enumerate(ambush_squares(table, 3)):
        table.do(
            f"seat:{bases[index % len(bases)]}", cmd("place_ambush", planet=planet, square=square)
        )
    for index, seat in enumerate(explorers):
        table.do(f"seat:{seat}", cmd("enter", planet=0 if index < 2 else index - 1))
    table.do(table.creator, cmd("begin_planets"))
    others = [p["seat"] for p in seen["players"] if p["seat"] not in explorers[:2]]
    return table, explorers[:2], others


def ability(table: Table, seat: int, prefix: str) -> str:
    names = [a["name"] for a in me(table, f"seat:{seat}")["sheet"]["abilities"]]
    return next(n for n in names if n.startswith(prefix))


def current_is(audiences: list[Audience], fighter: int) -> None:
    for audience in audiences:
        expect(combat(audience).locator("tr.current")).to_have_attribute(
            "data-fighter", str(fighter), timeout=TIMEOUT
        )


def to_phase(turn: Any, audience: Audience, phase: str) -> None:
    turn.locator("[data-command=combat_next]").click()
    expect(combat(audience)).to_have_attribute("data-phase", phase, timeout=TIMEOUT)


def seat_turn(table: Table, audience: Audience, seat: int) -> None:
    """A living character's turn: its [支援] ability in 支援フェイズ1 (named aloud: the log says
    it), パス in its main phase, the turn ended."""
    turn = combat(audience).locator(".locke-combat-turn")
    expect(turn).to_be_visible(timeout=TIMEOUT)
    to_phase(turn, audience, "support1")
    name = ability(table, seat, "SUPPORT-")
    form = turn.locator("[data-form=support_ability]")
    form.locator("select[name=support-ability]").select_option(f"ability:{name}")
    form.locator("[data-command=use_ability]").click()
    expect(audience.page.locator("#log")).to_contain_text(name, timeout=TIMEOUT)
    to_phase(turn, audience, "main")
    turn.locator("[data-command=combat_pass]").click()
    expect(turn.locator("[data-command=combat_pass]")).to_have_count(0, timeout=TIMEOUT)
    to_phase(turn, audience, "support2")
    turn.locator("[data-command=combat_next]").click()
    expect(turn).to_have_count(0, timeout=TIMEOUT)


def npc_pass(host: Audience, fighter: int) -> None:
    """The host walks an obstacle's turn and passes it."""
    turn = combat(host).locator(".locke-obstacle-turn")
    expect(turn).to_have_attribute("data-fighter", str(fighter), timeout=TIMEOUT)
    to_phase(turn, host, "support1")
    to_phase(turn, host, "main")
    turn.locator("[data-command=combat_pass]").click()
    to_phase(turn, host, "support2")
    turn.locator("[data-command=combat_next]").click()
    # the next turn may be another the host plays
    expect(combat(host).locator(f".locke-obstacle-turn[data-fighter='{fighter}']")).to_have_count(
        0, timeout=TIMEOUT
    )


def esper_turn(
    table: Table, host: Audience, seats: dict[int, Audience], esper: int, target: int
) -> None:
    """The host plays the エスパー's main action at `target`, who declares its [対抗(攻撃)] ability
    (seen by all), takes the hit at a declared endurance of 1 (火力4 against 1 reads 4:1: at
    least 2 damage) and dies; its [死亡時] window holds the table until it uses its ability and
    says it is done; then the host makes the エスパー faint, which ends its turn."""
    everyone = [host, *seats.values()]
    turn = combat(host).locator(".locke-obstacle-turn")
    expect(turn).to_have_attribute("data-fighter", str(esper), timeout=TIMEOUT)
    act = turn.locator("[data-command=esper_act]")
    expect(act).to_be_disabled()
    to_phase(turn, host, "support1")
    to_phase(turn, host, "main")
    picker = turn.locator("select[name=esper-target]")
    assert values(picker)[0] == "random" and str(esper) not in values(picker)
    picker.select_option(str(target))
    act.click()

    hit = seats[target]
    block = combat(hit).locator(".locke-counter-ability")
    expect(block).to_be_visible(timeout=TIMEOUT)
    for seat, audience in seats.items():  # the target alone is offered its window
        if seat != target:
            assert combat(audience).locator(".locke-counter-ability").count() == 0
    assert combat(host).locator(".locke-counter-ability").count() == 0
    counter = ability(table, target, "COUNTER-")
    options = values(block.locator("select[name=counter-ability]"))
    assert options == [f"ability:{counter}"], options  # its [対抗(攻撃)] one alone
    block.locator("input[name=counter-effect]").fill("攻撃者の手札を1枚見る")
    click(hit, "counter_ability")
    for audience in everyone:
        expect(combat(audience).locator(".locke-attack .locke-counters")).to_contain_text(
            counter, timeout=TIMEOUT
        )
    # used on this attack: nothing left to declare, the button says why
    expect(block.locator("[data-command=counter_ability]")).to_be_disabled()
    expect(block.locator(".locke-why")).to_have_text("この攻撃に使用済み")
    click(hit, "take_hit")
    endurance = combat(hit).locator(".locke-endurance")
    expect(endurance).to_be_visible(timeout=TIMEOUT)
    endurance.locator("input[name=hit-endurance]").fill("1")
    click(hit, "declare_endurance")

    # ---- [死亡時]: the dead seat alone is asked; everyone sees who holds the table
    prompt = combat(hit).locator(".locke-death")
    expect(prompt).to_be_visible(timeout=TIMEOUT)
    for audience in everyone:
        expect(combat(audience).locator(f"tr[data-fighter='{target}']")).to_contain_text(
            "死亡時の宣言待ち", timeout=TIMEOUT
        )
        if audience is not hit:
            assert combat(audience).locator(".locke-death").count() == 0
            expect(combat(audience).locator(".locke-dying")).to_be_visible()
    # the host's effects wait for it: refused (death_pending) in the pane, nothing appended
    before = host.page.locator("#log li").count()
    combat(host).locator("select[name=faint-fighter]").select_option(str(esper))
    click(host, "faint")
    expect(combat(host).locator(".locke-combat-error")).to_have_attribute(
        "data-code", "death_pending", timeout=TIMEOUT
    )
    assert host.page.locator("#log li").count() == before
    death = ability(table, target, "DEATH-")
    assert values(prompt.locator("select[name=death-ability]")) == [f"ability:{death}"]
    prompt.locator("input[name=death-effect]").fill("攻撃者に呪い")
    prompt.locator("[data-form=death_ability] [data-command=death_ability]").click()
    expect(prompt).to_contain_text(f"Used: {death}", timeout=TIMEOUT)
    expect(prompt.locator("select[name=death-ability]")).to_have_count(0)
    prompt.locator("[data-answer=done]").click()
    for audience in everyone:
        expect(combat(audience).locator(".locke-dying")).to_have_count(0, timeout=TIMEOUT)
    expect(host.page.locator("#log")).to_contain_text(death, timeout=TIMEOUT)

    # ---- 6.1 気絶: the host makes the エスパー faint for this round; its turn ends
    combat(host).locator("select[name=faint-fighter]").select_option(str(esper))
    combat(host).locator("input[name=faint-rounds]").fill("1")
    combat(host).locator("input[name=faint-reason]").fill("チャートの指示")
    click(host, "faint")
    for audience in everyone:
        expect(combat(audience).locator(f"tr[data-fighter='{esper}']")).to_contain_text(
            "気絶(1)", timeout=TIMEOUT
        )
    expect(combat(host).locator(f".locke-obstacle-turn[data-fighter='{esper}']")).to_have_count(
        0, timeout=TIMEOUT
    )


def remnant_turn(
    seats: dict[int, Audience], remnant: int, owner: int, other: int, other_owner: int, at: int
) -> None:
    """The 残留思念's seat attacks `at` (an obstacle: resolved at once); the other 残留思念's seat
    alone is asked and answers 同調 (its 火力 added: 8); the attacker ends its turn."""
    mine = seats[owner]
    turn = combat(mine).locator(".locke-remnant-turn")
    expect(turn).to_have_attribute("data-fighter", str(remnant), timeout=TIMEOUT)
    to_phase(turn, mine, "support1")
    to_phase(turn, mine, "main")
    form = turn.locator("[data-form=remnant_attack]")
    targets = values(form.locator("select[name=remnant-target]"))
    assert str(at) in targets and str(other) not in targets and str(remnant) not in targets
    form.locator("select[name=remnant-target]").select_option(str(at))
    click(mine, "remnant_attack")
    ask = combat(seats[other_owner]).locator(".locke-remnant-answer")
    expect(ask).to_have_attribute("data-fighter", str(other), timeout=TIMEOUT)
    for seat, audience in seats.items():
        if seat != other_owner:
            assert combat(audience).locator(".locke-remnant-answer").count() == 0
    ask.locator("[data-answer=sync]").click()
    for audience in seats.values():
        expect(combat(audience).locator(".locke-attack")).to_have_count(0, timeout=TIMEOUT)
    # the page reads English: the sync answer is read as the English line says it
    expect(mine.page.locator("#log")).to_contain_text("sync", timeout=TIMEOUT)
    to_phase(turn, mine, "support2")
    turn.locator("[data-command=combat_next]").click()
    expect(combat(mine).locator(".locke-remnant-turn")).to_have_count(0, timeout=TIMEOUT)


def test_npcs_and_the_combat_windows_in_the_pane(browser: Any, server: KirokuServer) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    table, pair, others = game(api)
    dead = others[:2]
    starter = to_combat_phase(table, pair)
    for seat in dead:
        body = {**cmd("set_condition"), "seat": seat, "condition": "dead", "reason": "カードの指示"}
        table.do(table.creator, body)
    table.do(starter, cmd("start_combat"))
    for seat in dead:  # 実は生きていた 2+2 → 残留思念; 残留思念チャート 3+3 → 火力4
        body = cmd("join_check", check="alive", faces=[2, 2], remnant_faces=[3, 3])
        table.do(f"seat:{seat}", body)
    ghosts = {
        f["seat"]: f["id"]
        for f in view(table, "public")["combat"]["fighters"]
        if f["kind"] == "remnant"
    }
    assert sorted(ghosts) == sorted(dead)
    link = f"{server.base_url}/g/{table.game_id}/join#token="
    host = Audience.open(browser, "host")
    seats = {seat: Audience.open(browser, f"seat:{seat}") for seat in (*pair, *dead)}
    everyone = [host, *seats.values()]
    try:
        host.page.goto(link + table.tokens["host"])
        for seat, audience in seats.items():
            audience.page.goto(link + table.tokens[f"seat:{seat}"])
        for audience in everyone:
            step_is(audience, "joining")
            for ghost in ghosts.values():
                expect(combat(audience).locator(f"tr[data-fighter='{ghost}']")).to_contain_text(
                    "残留思念・火力4"
                )

        # ---- 6.2: an obstacle with ESPジャマーLV:3, immune to 幻覚; its jammer destroyed
        for audience in seats.values():
            assert combat(audience).locator(".locke-add-obstacle, .locke-add-esper").count() == 0
            assert combat(audience).locator("[data-command=faint]").count() == 0
        adding = combat(host).locator(".locke-add-obstacle")
        adding.locator("summary").click()
        adding.locator("input[name=obstacle-name]").fill("警官隊")
        adding.locator("input[name=obstacle-endurance]").fill("20")
        adding.locator("input[name=obstacle-firepower]").fill("4")
        adding.locator("input[name=obstacle-jammer-lv]").fill("3")
        adding.locator("input[name=obstacle-illusion-immune]").check()
        adding.locator("input[name=obstacle-square]").check()  # the square's effect brings it
        click(host, "add_obstacle")
        obstacle = max(ghosts.values()) + 1
        wait_for_fighter(everyone, obstacle)
        for audience in everyone:
            row = combat(audience).locator(f"tr[data-fighter='{obstacle}']")
            expect(row).to_contain_text("ESPジャマーLV:3")
            expect(row).to_contain_text("幻覚の効果を受けない")
            expect(row).to_contain_text("マスの効果で参加")
        assert view(table, "public")["combat"]["fighters"][-1]["jammer_lv"] == 3
        destroy = combat(host).locator(f"[data-form=destroy_jammer][data-fighter='{obstacle}']")
        destroy.locator("input").fill("警官隊のマスの指示")
        destroy.locator("[data-command=destroy_jammer]").click()
        for audience in everyone:
            expect(combat(audience).locator(f"tr[data-fighter='{obstacle}']")).not_to_contain_text(
                "ESPジャマー", timeout=TIMEOUT
            )
        expect(combat(host).locator("[data-form=destroy_jammer]")).to_have_count(0)

        # ---- 6.2: an エスパー NPC, before the hands are dealt
        esp = combat(host).locator(".locke-add-esper")
        esp.locator("summary").click()
        esp.locator("input[name=esper-name]").fill("謎のエスパー")
        esp.locator("input[name=esper-esp]").fill("3")
        esp.locator("input[name=esper-endurance]").fill("10")
        # 6.2 l.1341–1344: one NPC from the square's effect at a time: refused beside the form
        expect(esp.locator(".locke-square-npc")).to_contain_text("警官隊")
        esp.locator("input[name=esper-square]").check()
        pane_picture(host, "chojin-locke-square-npc.png")
        click(host, "add_esper")
        refusal = combat(host).locator(".locke-combat-error")
        expect(refusal).to_have_attribute("data-code", "square_npc_present", timeout=TIMEOUT)
        expect(refusal).to_contain_text("警官隊")  # the NPC already there, by name
        esp.locator("input[name=esper-square]").uncheck()  # a chart's エスパー, then
        click(host, "add_esper")
        esper = obstacle + 1
        wait_for_fighter(everyone, esper)
        for audience in everyone:
            expect(combat(audience).locator(f"tr[data-fighter='{esper}']")).to_contain_text(
                "エスパー・ESP能力レベル3"
            )
        for step in ("moving", "before", "turns"):
            click(seats[int(starter[5:])], "combat_next")
            for audience in everyone:
                step_is(audience, step)
        expect(combat(host).locator("[data-command=add_esper]")).to_be_disabled()

        # ---- (6) every turn of the round, in its order
        first, second = pair
        remnant_done = False
        for _ in range(LOOP_BOUND):
            fight = view(table, "public")["combat"]
            if fight is None or fight["step"] != "turns":
                break
            current = fight["current"]
            kind = next(f["kind"] for f in fight["fighters"] if f["id"] == current)
            current_is(everyone, current)
            if kind == "character":
                seat_turn(table, seats[current], current)
            elif kind == "esper":
                esper_turn(table, host, {s: a for s, a in seats.items() if s in pair}, esper, first)
            elif kind == "remnant":
                owner = next(s for s, g in ghosts.items() if g == current)
                other_owner = next(s for s in ghosts if s != owner)
                remnant_turn(seats, current, owner, ghosts[other_owner], other_owner, obstacle)
                remnant_done = True
            else:
                npc_pass(host, current)
        else:
            raise AssertionError("the round never ended")
        assert remnant_done
        public = view(table, "public")
        assert next(p for p in public["players"] if p["seat"] == first)["condition"] == "dead"
        assert next(p for p in public["players"] if p["seat"] == second)["condition"] != "dead"
        check_no_leak(table, everyone)
    finally:
        for audience in everyone:
            audience.close()


def check_no_leak(table: Table, everyone: list[Audience]) -> None:
    """Each seat's sheet, abilities and drawn C-cards arrive in its own context more often than
    the public catalog brings them, in no other — but what the table made public (an ability
    named aloud, a card played or discarded face up: in the public events or view)."""
    events = [e for e in table.events("public") if e["type"] != "GameCreated"]  # the catalog
    public = json.dumps([events, view(table, "public")], ensure_ascii=False)
    sealed: dict[str, set[str]] = {}
    dealt: set[str] = set()
    drawn: set[str] = set()
    for player in view(table, "public")["players"]:
        actor = f"seat:{player['seat']}"
        sheet = me(table, actor)["sheet"]
        markers = {sheet["name"], *(a["name"] for a in sheet["abilities"])}
        cards = held(table, player["seat"])
        drawn |= cards
        dealt |= markers
        sealed[actor] = {m for m in markers | cards if m not in public}
    first = table.events("public")[0]["public"]["ruleset_options"]["catalog"]
    # the エスパー's hand is sealed to nobody: undrawn by a seat and never public, a card is
    # nowhere but in the catalog
    undrawn = [
        c["name"]
        for c in first["combat_cards"]
        if c["name"] not in drawn and c["name"] not in public
    ]
    unowned = [
        name
        for c in first["characters"]
        for name in (c["name"], *(a["name"] for a in c["abilities"]))
        if name not in dealt
    ]
    assert undrawn and unowned and any(sealed.values())
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


def test_a_fighters_own_jammer_from_the_pane(browser: Any, server: KirokuServer) -> None:
    """6.1 l.1252–1259 (ruling CL-106): every sheet holds ESPジャマーLV:3 [対抗(Cカード使用)]; the
    first fighter's attack card waits for its answer, and the third fighter jams it from its
    pane — offered to it (not to the attacker), it voids the card: the attack is gone and the
    card back in the attacker's hand."""
    api = httpx.Client(base_url=server.base_url, timeout=10)
    table, fighters = three_on_a_square(cast(TestClient, api), catalog=jammer_catalog())
    start(table, fighters)
    attacker = current_actor(table)
    one = int(attacker[5:])
    target, third = (s for s in combat_of(table)["order"] if s != one)
    table.do(attacker, cmd("combat_next"))
    table.do(attacker, cmd("combat_next"))
    card = hand(table, one)[0]
    level = me(table, attacker)["stats"]["esp_level"]
    table.do(attacker, cmd("play_card", card=card, kind="攻撃", target=target, esp_level=level))
    link = f"{server.base_url}/g/{table.game_id}/join#token="
    jammer = Audience.open(browser, f"seat:{third}")
    striker = Audience.open(browser, attacker)
    try:
        for audience in (jammer, striker):
            audience.page.goto(link + table.tokens[audience.name])
            expect(combat(audience).locator(".locke-attack")).to_contain_text(card, timeout=TIMEOUT)
        assert combat(striker).locator("[data-command=jam]").count() == 0  # its own card
        form = combat(jammer).locator("[data-form=jam]")
        expect(form.locator("select[name=jam-ability]")).to_have_value(JAMMER)
        pane_picture(jammer, "chojin-locke-jam.png")
        click(jammer, "jam")
        for audience in (jammer, striker):
            expect(combat(audience).locator(".locke-attack")).to_have_count(0, timeout=TIMEOUT)
        expect(combat(striker).locator(f".locke-ccard[data-card='{card}']")).to_have_count(1)
        assert card in hand(table, one)
        assert not jammer.errors and not striker.errors
    finally:
        jammer.close()
        striker.close()
