"""The combat controls of rulings CL-088, CL-094 and CL-095 and 6.1's 残留思念 answers, clicked in
the pane
(static/panes/chojin_locke/combat.js): in a host's game three explorers fight on a spaceport
and three dead characters' seats join as 残留思念 of 火力4 (set up through the API, the server's
dice given their faces). In the round's order, by clicks: the first character's [主要] ability
declared 「効果なし」 is refused beside the form (nothing appended), its [先制] one with 効果なし
leaves its main action open, and its card attacks the second, who blocks with a maintainable
defence and keeps it up (「防御を維持」); in its own turn the second lets it go (「防御の維持を
やめる」) and attacks the first, who blocks with a [対抗(攻撃)][防御] ability (「防御する」); the
third's attack (through the API) is evaded with a [対抗(攻撃)][逃避] one (「回避する」), which
takes the first out of the combat. The first 残留思念's attack (through the API) is answered
妨害 by one other 残留思念's seat and 何もしない by the last's, and is cancelled at 火力0.

Over every byte each context received (DOM, responses, stream messages), a marker sealed to one
seat is found more often than the public catalog brings it only in that seat's context, unless
the table made it public (tests/browser/test_chojin_locke_combat_npc.py's check).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any, cast

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from tests.browser.audience import Audience
from tests.browser.test_chojin_locke_combat import PANE, click, combat, end_turn, walk_to_main
from tests.browser.test_chojin_locke_combat_npc import ability, check_no_leak
from tests.browser.test_chojin_locke_combat_table import values
from tests.browser.test_table import TIMEOUT
from tests.rulesets.chojin_locke.combat_table import to_combat_phase
from tests.rulesets.chojin_locke.table import (
    LOOP_BOUND,
    ambush_squares,
    cmd,
    marked_catalog,
    me,
    new_game,
    quiet_turn,
    setup_to_ambush,
    to_base,
    to_phase,
    turn_actor,
    view,
)
from tests.rulesets.chojin_locke.table import (
    end_turn as end_normal_turn,
)
from tests.serverproc import KirokuServer
from tests.table import Table


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KirokuServer]:
    with KirokuServer(db=tmp_path_factory.mktemp("locke-abilities") / "kiroku.db") as running:
        yield running


def catalog() -> dict[str, Any]:
    """Marker sheets, ESP能力レベル 6 (an LV 1 card needs no 精神力チェック), each with a
    [先制][攻撃] and a [主要] ability and two [対抗(攻撃)] ones, a [防御] and an [逃避]
    (「…LV:1」: they neutralise an LV 1 attack); 40 C-cards, LV 1, 攻撃 or a maintainable 防御,
    none [同調可] (no 同調 offer to wait for)."""
    data, _ = marked_catalog()
    for character in data["characters"]:
        character.update(esp_level=6, esp_power=60)  # the power never lowers the level
        character["abilities"] = [
            {"name": f"PRE-{uuid.uuid4().hex}", "tags": ["戦闘", "先制", "攻撃"]},
            {"name": f"MAIN-{uuid.uuid4().hex}", "tags": ["戦闘", "主要"]},
            {"name": f"WALL-{uuid.uuid4().hex}LV:1", "tags": ["戦闘", "対抗(攻撃)", "防御"]},
            {"name": f"SLIP-{uuid.uuid4().hex}LV:1", "tags": ["戦闘", "対抗(攻撃)", "逃避"]},
        ]
    data["combat_cards"] = [
        {
            "name": f"C-{uuid.uuid4().hex}",
            "lv": 1,
            "kinds": ["攻撃", "防御"],
            "firepower": 4,
            "maintain": True,
        }
        for _ in range(40)
    ]
    return data


def game(api: httpx.Client) -> tuple[Table, list[int], dict[int, int]]:
    """A host's 惑星編, physical dice allowed: three explorers on planet 0's spaceport, three
    other seats dead; the combat started, the dead joined by 実は生きていた as 残留思念 of 火力4
    (2+2, then 3+3), and walked to its combat turns. (table, the three, {seat: 残留思念's id})."""
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
    assert len(explorers) >= 3, explorers
    for index, (planet, square) in enumerate(ambush_squares(table, 3)):
        table.do(
            f"seat:{bases[index % len(bases)]}", cmd("place_ambush", planet=planet, square=square)
        )
    for index, seat in enumerate(explorers):
        table.do(f"seat:{seat}", cmd("enter", planet=max(index - 2, 0)))
    table.do(table.creator, cmd("begin_planets"))
    trio = explorers[:3]
    dead = [p["seat"] for p in seen["players"] if p["seat"] not in trio][:3]
    starter = to_combat_phase(table, trio)
    for seat in dead:
        body = {**cmd("set_condition"), "seat": seat, "condition": "dead", "reason": "カードの指示"}
        table.do(table.creator, body)
    table.do(starter, cmd("start_combat"))
    for seat in dead:
        body = cmd("join_check", check="alive", faces=[2, 2], remnant_faces=[3, 3])
        table.do(f"seat:{seat}", body)
    for _ in range(3):
        table.do(starter, cmd("combat_next"))
    fight = view(table, "public")["combat"]
    ghosts = {f["seat"]: f["id"] for f in fight["fighters"] if f["kind"] == "remnant"}
    assert sorted(ghosts) == sorted(dead) and fight["step"] == "turns"
    assert all(f["firepower"] == 4 for f in fight["fighters"] if f["kind"] == "remnant")
    return table, trio, ghosts


def fighter(table: Table, fighter_id: int) -> dict[str, Any]:
    fighters: list[dict[str, Any]] = view(table, "public")["combat"]["fighters"]
    return next(f for f in fighters if f["id"] == fighter_id)


def last_landing(table: Table) -> dict[str, Any]:
    landed = [e for e in table.events("public") if e["type"] == "chojin_locke.AttackLanded"]
    public: dict[str, Any] = landed[-1]["public"]
    return public


def attack_by_card(audience: Audience, target: int) -> None:
    """The first card of the hand, as an attack at `target`, declared at the truth (6)."""
    card = combat(audience).locator(".locke-combat-hand .locke-ccard").first
    expect(card).to_be_enabled(timeout=TIMEOUT)
    name = card.get_attribute("data-card") or ""
    card.click()
    form = combat(audience).locator("[data-form=play_card]")
    expect(form).to_contain_text(name, timeout=TIMEOUT)
    form.locator("select[name=combat-kind]").select_option("攻撃")
    form.locator("select[name=combat-target]").select_option(str(target))
    form.locator("input[name=play-esp]").fill("6")
    click(audience, "play_card")
    expect(combat(audience).locator(".locke-attack")).to_contain_text(name, timeout=TIMEOUT)


def first_turn(table: Table, seats: dict[int, Audience], one: int, two: int) -> None:
    """Ruling CL-095, then ruling CL-094: a [主要] ability is no [先制] (refused beside the form,
    nothing
    appended); the [先制] one that did nothing leaves the main action open (its effect said);
    the card attack on the second is blocked by a maintainable defence it keeps up."""
    me, target = seats[one], seats[two]
    walk_to_main(me)
    form = combat(me).locator("[data-form=main_ability]")
    pre, main = ability(table, one, "PRE-"), ability(table, one, "MAIN-")
    assert sorted(values(form.locator("select[name=main-ability]"))) == sorted(
        [f"ability:{main}", f"ability:{pre}"]
    )
    form.locator("select[name=main-ability]").select_option(f"ability:{main}")
    form.locator("input[name=main-ability-none]").check()
    log = me.page.locator("#log li")
    before = log.count()
    click(me, "main_ability")
    expect(combat(me).locator(".locke-combat-error")).to_have_attribute(
        "data-code", "not_preemptive", timeout=TIMEOUT
    )
    expect(combat(me).locator(".locke-combat-error")).to_contain_text("[先制]")
    assert log.count() == before
    form.locator("select[name=main-ability]").select_option(f"ability:{pre}")
    form.locator("input[name=main-ability-effect]").fill("未来を見たが何もなかった")
    click(me, "main_ability")
    expect(me.page.locator("#log")).to_contain_text(pre, timeout=TIMEOUT)
    (used,) = [e for e in table.events("public") if e["type"] == "chojin_locke.MainAbilityUsed"]
    assert used["public"]["no_effect"] and used["public"]["ability"] == pre
    assert view(table, "public")["combat"]["main_done"] is False
    # another main action at once: the form is still up, its 効果なし and effect cleared
    expect(form.locator("input[name=main-ability-none]")).not_to_be_checked(timeout=TIMEOUT)
    expect(form.locator("input[name=main-ability-effect]")).to_have_value("")
    expect(combat(me).locator("[data-command=combat_pass]")).to_be_visible()
    # the [先制] was an [攻撃] action: no [逃避] in this combat turn (3.1 l.295, ruling CL-096),
    # and the pane says so to the fighter alone
    assert view(table, "public")["combat"]["turn_actions"] == ["攻撃"]
    expect(combat(me).locator("[data-excluded=逃避]")).to_contain_text("no [逃避]")
    assert all(
        combat(a).locator("[data-excluded]").count() == 0 for a in seats.values() if a is not me
    )

    attack_by_card(me, two)
    prompt = combat(target).locator(".locke-respond")
    expect(prompt).to_be_visible(timeout=TIMEOUT)
    combat(target).locator(".locke-combat-hand .locke-ccard").first.click()
    keep = prompt.locator("input[name=respond-maintain]")
    expect(keep).to_be_checked()  # ruling CL-094: kept up unless its player says not
    prompt.locator("select[name=respond-kind]").select_option("防御")
    prompt.locator("input[name=respond-esp]").fill("6")
    click(target, "respond")
    for audience in seats.values():
        expect(combat(audience).locator(f"tr[data-fighter='{two}']")).to_contain_text(
            "防御維持", timeout=TIMEOUT
        )
    assert last_landing(table)["outcome"] == "blocked"
    assert fighter(table, two)["defence"] is not None
    end_turn(me)


def second_turn(table: Table, seats: dict[int, Audience], one: int, two: int) -> None:
    """Ruling CL-094: the second lets its defence go in its own turn; its card attack on the first
    is blocked by the first's [対抗(攻撃)][防御] ability (ruling CL-088: 「防御する」)."""
    me, target = seats[two], seats[one]
    turn = combat(me).locator(".locke-combat-turn")
    expect(turn).to_be_visible(timeout=TIMEOUT)
    turn.locator("[data-command=drop_defence]").click()
    for audience in seats.values():
        expect(combat(audience).locator(f"tr[data-fighter='{two}']")).not_to_contain_text(
            "防御維持", timeout=TIMEOUT
        )
    expect(turn.locator("[data-command=drop_defence]")).to_have_count(0)
    assert fighter(table, two)["defence"] is None
    assert table.events("public")[-1]["type"] == "chojin_locke.DefenceDropped"
    walk_to_main(me)
    attack_by_card(me, one)
    block = combat(target).locator(".locke-counter-ability")
    expect(block).to_be_visible(timeout=TIMEOUT)
    wall = ability(table, one, "WALL-")
    block.locator("select[name=counter-ability]").select_option(f"ability:{wall}")
    block.locator("select[name=counter-avoid]").select_option("blocked")
    click(target, "counter_ability")
    for audience in seats.values():
        expect(combat(audience).locator(".locke-attack")).to_have_count(0, timeout=TIMEOUT)
    landed = last_landing(table)
    assert (landed["outcome"], landed["by"]) == ("blocked", wall)
    end_turn(me)


def third_turn(table: Table, seats: dict[int, Audience], one: int, three: int) -> None:
    """The third's card attack at the first (through the API) is evaded by its [対抗(攻撃)]
    [逃避] ability (「回避する」): the first leaves the combat and is asked where to go."""
    actor = f"seat:{three}"
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))
    card = view(table, actor)["me"]["combat_hand"][0]
    table.do(actor, cmd("play_card", card=card, kind="攻撃", target=one, esp_level=6))
    target = seats[one]
    block = combat(target).locator(".locke-counter-ability")
    expect(block).to_be_visible(timeout=TIMEOUT)
    slip = ability(table, one, "SLIP-")
    block.locator("select[name=counter-ability]").select_option(f"ability:{slip}")
    block.locator("select[name=counter-avoid]").select_option("evaded")
    click(target, "counter_ability")
    for audience in seats.values():
        expect(combat(audience).locator(f"tr[data-fighter='{one}']")).to_contain_text(
            "離脱", timeout=TIMEOUT
        )
    landed = last_landing(table)
    assert (landed["outcome"], landed["by"]) == ("evaded", slip)
    assert fighter(table, one)["left"]
    expect(combat(target).locator(".locke-escape")).to_be_visible(timeout=TIMEOUT)
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))


def pass_turn(table: Table, fighter_id: int) -> None:
    """A 残留思念's turn through the API: its phases walked, パス."""
    owner = f"seat:{fighter(table, fighter_id)['seat']}"
    for body in ("combat_next", "combat_next", "combat_pass", "combat_next", "combat_next"):
        table.do(owner, cmd(body))


def remnant_turn(
    table: Table, seats: dict[int, Audience], owner: int, ghosts: dict[int, int], at: int
) -> None:
    """The 残留思念's attack (through the API) at `at`; the other two seats are asked, one
    answers 妨害 (火力4−4) and the other 何もしない: the attack is cancelled, and the one that
    hindered has acted."""
    actor = f"seat:{owner}"
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("remnant_attack", target=at))
    hinder, idle = (s for s in ghosts if s != owner)
    for seat, answer in ((hinder, "hinder"), (idle, "none")):
        ask = combat(seats[seat]).locator(".locke-remnant-answer")
        expect(ask).to_have_attribute("data-fighter", str(ghosts[seat]), timeout=TIMEOUT)
        ask.locator(f"[data-answer={answer}]").click()
        expect(ask).to_have_count(0, timeout=TIMEOUT)
    for audience in seats.values():
        expect(combat(audience).locator(".locke-attack")).to_have_count(0, timeout=TIMEOUT)
    answers = [e["public"] for e in table.events("public") if e["type"].endswith("RemnantAnswered")]
    assert [(a["remnant"], a["answer"]) for a in answers] == [
        (ghosts[hinder], "hinder"),
        (ghosts[idle], "none"),
    ]
    assert table.events("public")[-1]["type"] == "chojin_locke.RemnantAttackCancelled"
    assert fighter(table, ghosts[hinder])["acted"] and not fighter(table, ghosts[idle])["acted"]
    table.do(actor, cmd("combat_next"))
    table.do(actor, cmd("combat_next"))


def test_ability_and_defence_controls_and_remnant_answers_in_the_pane(
    browser: Any, server: KirokuServer
) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    table, trio, ghosts = game(api)
    order: list[int] = view(table, "public")["combat"]["order"]
    one, two, three = (n for n in order if n in trio)
    first_ghost = next(n for n in order if n in ghosts.values())
    owner = next(s for s, g in ghosts.items() if g == first_ghost)
    answering = [s for s in ghosts if s != owner]
    link = f"{server.base_url}/g/{table.game_id}/join#token="
    seats = {seat: Audience.open(browser, f"seat:{seat}") for seat in (one, two, *answering)}
    try:
        for seat, audience in seats.items():
            audience.page.goto(link + table.tokens[f"seat:{seat}"])
        for audience in seats.values():
            expect(audience.page.locator(f"{PANE} .locke-combat")).to_have_attribute(
                "data-step", "turns", timeout=TIMEOUT
            )
        for _ in range(LOOP_BOUND):
            fight = view(table, "public")["combat"]
            if fight is None or fight["step"] != "turns":
                break
            current = fight["current"]
            if current == one:
                first_turn(table, seats, one, two)
            elif current == two:
                second_turn(table, seats, one, two)
            elif current == three:
                third_turn(table, seats, one, three)
            elif current == first_ghost:
                remnant_turn(table, seats, owner, ghosts, two)
            else:  # another 残留思念 (the one that hindered is skipped): パス
                pass_turn(table, current)
        else:
            raise AssertionError("the round never ended")
        assert view(table, "public")["combat"]["step"] == "round_end"
        check_no_leak(table, list(seats.values()))
    finally:
        for audience in seats.values():
            audience.close()


# ---------------------------------------------------------------- ability cards (秘密基地編)

OMNI = f"OMNI-{uuid.uuid4().hex}"  # an ability card usable in the three windows


def card_catalog() -> dict[str, Any]:
    """Marker sheets, ESP能力レベル 6 (ESPパワー 60: never lowered) and 耐久力 10; a third of
    the planet cards blank (惑星編 still ends on 情報入手; the base players draw ability cards
    for blanks, 4.5); one ability card, twelve copies, tagged [戦闘][支援][対抗(攻撃)][死亡時];
    40 LV 1 攻撃 C-cards of 火力4; a damage table dealing 1 at 1:1 or less and 9 from 2:1 (a
    耐久力 declared at its true value lives, 1 dies)."""
    data, _ = marked_catalog()
    for character in data["characters"]:
        character.update(esp_level=6, esp_power=60, endurance=10)
    data["planet_cards"] = [
        {"name": "情報入手", "kind": "info", "count": 24, "text": ""},
        {"name": "白紙", "kind": "blank", "count": 12, "text": ""},
    ]
    tags = ["戦闘", "支援", "対抗(攻撃)", "死亡時"]
    data["ability_cards"] = [{"name": OMNI, "tags": tags, "count": 12, "text": "卓が解決"}]
    data["combat_cards"] = [
        {"name": f"C-{uuid.uuid4().hex}", "lv": 1, "kinds": ["攻撃"], "firepower": 4}
        for _ in range(40)
    ]
    data["damage_table"] = {
        "columns": ["1:2以下", "1:1", "2:1", "3:1", "4:1以上"],
        "rows": [{"total": n, "damage": [1, 1, 9, 9, 9]} for n in range(2, 13)],
    }
    return data


def held_cards(table: Table, seat: int) -> int:
    return len(me(table, f"seat:{seat}")["ability_cards"])


def base_combat(api: httpx.Client) -> tuple[Table, list[int]]:
    """惑星編 played out to 秘密基地編 (ability cards dealt); the base player holding the most
    (two or more; the first entrant, the 情報入手 holder, holds one) walks a square a turn to
    the first entrant's square and starts a combat there in its 戦闘発生フェイズ, walked to its
    combat turns. (table, its two fighters in their order)."""
    for _ in range(5):  # a game where no base player drew two, or two entered: another
        table = new_game(cast(TestClient, api), ruleset_options={"catalog": card_catalog()})
        bases, entrants, _ = to_base(table)
        mover = max(bases, key=lambda s: held_cards(table, s))
        where = {p["seat"]: p["cell"] for p in view(table, table.creator)["players"]}
        goal = where[entrants[0]]
        alone = [s for s, cell in where.items() if cell == goal] == entrants[:1]
        if held_cards(table, mover) >= 2 and alone:
            break
    else:
        raise AssertionError("no game with one entrant and a base player holding two cards")
    for _ in range(LOOP_BOUND):
        actor = turn_actor(table)
        if actor != f"seat:{mover}":
            quiet_turn(table)
            continue
        cell = next(p["cell"] for p in view(table, table.creator)["players"] if p["seat"] == mover)
        if cell["row"] != goal["row"]:
            way = "up" if cell["row"] > goal["row"] else "down"
        else:
            way = "left" if cell["col"] > goal["col"] else "right"
        to_phase(table, "main")
        table.do(actor, cmd("move", direction=way))
        to_phase(table, "combat")
        there = next(p for p in view(table, table.creator)["players"] if p["seat"] == mover)
        if there["cell"] == goal:
            table.do(actor, cmd("start_combat"))
            break
        end_normal_turn(table)
    else:
        raise AssertionError("the base player never reached the entrant")
    for _ in range(3):
        table.do(actor, cmd("combat_next"))
    fight = view(table, "public")["combat"]
    assert sorted(f["id"] for f in fight["fighters"]) == sorted([mover, entrants[0]])
    order: list[int] = fight["order"]
    return table, order


def counter_with_the_card(audience: Audience, endurance: int | None) -> None:
    """The target turns its ability card up as its [対抗(攻撃)] (seen by all), then takes the hit
    at a declared 耐久力 (None: the pane's default, its 耐久力 now)."""
    block = combat(audience).locator(".locke-counter-ability")
    expect(block).to_be_visible(timeout=TIMEOUT)
    assert values(block.locator("select[name=counter-ability]")) == [f"card:{OMNI}"]
    block.locator("input[name=counter-effect]").fill("攻撃者の火力-1")
    click(audience, "counter_ability")
    expect(combat(audience).locator(".locke-attack .locke-counters")).to_contain_text(
        OMNI, timeout=TIMEOUT
    )
    click(audience, "take_hit")
    hit = combat(audience).locator(".locke-endurance")
    expect(hit).to_be_visible(timeout=TIMEOUT)
    if endurance is not None:  # else the pane's default: the true value now
        hit.locator("input[name=hit-endurance]").fill(str(endurance))
    click(audience, "declare_endurance")


def dies_with_the_card(table: Table, audience: Audience, seat: int) -> None:
    """Its [死亡時] window offers the face-down copy it still holds; used, then done."""
    prompt = combat(audience).locator(".locke-death")
    expect(prompt).to_be_visible(timeout=TIMEOUT)
    assert values(prompt.locator("select[name=death-ability]")) == [f"card:{OMNI}"]
    prompt.locator("input[name=death-effect]").fill("攻撃者に呪い")
    prompt.locator("[data-form=death_ability] [data-command=death_ability]").click()
    expect(prompt).to_contain_text(f"Used: {OMNI}", timeout=TIMEOUT)
    prompt.locator("[data-answer=done]").click()
    expect(prompt).to_have_count(0, timeout=TIMEOUT)
    (used,) = [e for e in table.events("public") if e["type"].endswith("DeathAbilityUsed")]
    assert (used["public"]["seat"], used["public"]["card"]) == (seat, OMNI)


def test_ability_cards_in_the_support_counter_and_death_windows(
    browser: Any, server: KirokuServer
) -> None:
    """In a 秘密基地編 combat (ability cards are dealt at 惑星編's end), by clicks: the first
    fighter turns an ability card up as its [支援] in its support phase and attacks; its target
    turns one up as its [対抗(攻撃)]; whoever holds two dies (by this hit, or by the target's
    attack in its own turn) and turns its last one up in its [死亡時] window."""
    api = httpx.Client(base_url=server.base_url, timeout=10)
    table, (first, second) = base_combat(api)
    count = {seat: held_cards(table, seat) for seat in (first, second)}
    assert min(count.values()) >= 1 and max(count.values()) >= 2, count
    link = f"{server.base_url}/g/{table.game_id}/join#token="
    seats = {seat: Audience.open(browser, f"seat:{seat}") for seat in (first, second)}
    try:
        for seat, audience in seats.items():
            audience.page.goto(link + table.tokens[f"seat:{seat}"])
        one, two = seats[first], seats[second]
        expect(combat(one).locator(".locke-combat-turn")).to_be_visible(timeout=TIMEOUT)
        click(one, "combat_next")
        expect(combat(one)).to_have_attribute("data-phase", "support1", timeout=TIMEOUT)
        form = combat(one).locator("[data-form=support_ability]")
        assert values(form.locator("select[name=support-ability]")) == [f"card:{OMNI}"]
        form.locator("[data-command=use_ability]").click()
        for audience in seats.values():
            expect(audience.page.locator("#log")).to_contain_text(OMNI, timeout=TIMEOUT)
        (turned,) = [e for e in table.events("public") if e["type"].endswith("AbilityCardUsed")]
        assert (turned["public"]["seat"], turned["public"]["card"]) == (first, OMNI)
        click(one, "combat_next")
        expect(combat(one)).to_have_attribute("data-phase", "main", timeout=TIMEOUT)
        attack_by_card(one, second)
        if count[second] >= 2:  # the target dies of this hit
            counter_with_the_card(two, endurance=1)
            dies_with_the_card(table, two, second)
        else:  # the target lives; its attack in its turn kills the first
            counter_with_the_card(two, endurance=None)
            expect(combat(one).locator(".locke-attack")).to_have_count(0, timeout=TIMEOUT)
            end_turn(one)
            walk_to_main(two)
            attack_by_card(two, first)
            expect(combat(one).locator(".locke-respond")).to_be_visible(timeout=TIMEOUT)
            click(one, "take_hit")
            hit = combat(one).locator(".locke-endurance")
            expect(hit).to_be_visible(timeout=TIMEOUT)
            hit.locator("input[name=hit-endurance]").fill("1")
            click(one, "declare_endurance")
            dies_with_the_card(table, one, first)
        counters = [e for e in table.events("public") if e["type"].endswith("CounterAbilityUsed")]
        assert [(e["public"]["seat"], e["public"]["card"]) for e in counters] == [(second, OMNI)]
        check_no_leak(table, list(seats.values()))
    finally:
        for audience in seats.values():
            audience.close()
