"""超人ロック's combat played through the pane (static/panes/chojin_locke/combat.js) by three
browser contexts, one per fighter: the turn player starts the combat and walks its steps, each
fighter sees its own hand (name, LV, kinds, firepower) and only the others' counts, the
initiative cards face up, and each takes its main action in its combat turn; then the round end.

The deck is made of unique marker names, so a card's name anywhere in what a context received
(its DOM, every HTTP response body, every SSE message) shows where it went. The catalog itself is
public (GameCreated holds it, and the pane reads it for the cards' LV and kinds), so every name
arrives once with each copy of it: another seat's card reached a context when its name arrived
more often than a card nobody drew.
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
from tests.browser.test_table import TIMEOUT
from tests.rulesets.chojin_locke.combat_table import to_combat_phase
from tests.rulesets.chojin_locke.table import (
    NAMES,
    ambush_squares,
    cmd,
    marked_catalog,
    new_game,
    setup_to_ambush,
    view,
)
from tests.serverproc import KirokuServer
from tests.table import Table

PANE = "#ruleset-pane-body"
COMBAT = f"{PANE} .locke-combat"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KirokuServer]:
    with KirokuServer(db=tmp_path_factory.mktemp("locke-combat") / "kiroku.db") as running:
        yield running


def catalog(cards: list[dict[str, Any]]) -> dict[str, Any]:
    """The marked sample catalog with `cards` as its C-cards; every character's ESP level 6,
    so an activation declared at the truth needs no 精神力チェック (the cards are LV 1–5)."""
    data, _ = marked_catalog()
    data["combat_cards"] = cards
    for character in data["characters"]:
        character.update(esp_level=6, esp_power=60)  # a sample ESPパワー of 3 would lower it
    return data


def three_on_a_square(api: httpx.Client, cards: list[dict[str, Any]]) -> tuple[Table, list[int]]:
    """A started 惑星編 with exactly three explorers on planet 0's spaceport (as
    combat_table.three_on_a_square, with this deck)."""
    table = new_game(cast(TestClient, api), ruleset_options={"catalog": catalog(cards)})
    setup_to_ambush(table)
    gm = view(table, "gm")
    bases = [p["seat"] for p in gm["players"] if p["side"] == "base"]
    explorers = [p["seat"] for p in gm["players"] if p["side"] == "explorer"]
    assert len(explorers) >= 3, explorers
    for index, (planet, square) in enumerate(ambush_squares(table, 3)):
        actor = f"seat:{bases[index % len(bases)]}"
        table.do(actor, cmd("place_ambush", planet=planet, square=square))
    for index, seat in enumerate(explorers):
        table.do(f"seat:{seat}", cmd("enter", planet=max(index - 2, 0)))
    table.do(table.creator, cmd("begin_planets"))
    return table, explorers[:3]


def deck(cards: int = 60) -> list[dict[str, Any]]:
    """60 marker cards, LV 1–5, all [同調可]; two in three 攻撃 or 防御, the rest 攻撃 only."""
    return [
        {
            "name": f"C-{uuid.uuid4().hex}",
            "lv": 1 + n % 5,
            "kinds": ["攻撃"] if n % 3 == 0 else ["攻撃", "防御"],
            "firepower": 4,
            "sync": True,
        }
        for n in range(cards)
    ]


def combat(audience: Audience) -> Any:
    return audience.page.locator(COMBAT)


def hand_of(audience: Audience) -> list[str]:
    cards = combat(audience).locator(".locke-combat-hand .locke-ccard")
    return [cards.nth(i).get_attribute("data-card") or "" for i in range(cards.count())]


def click(audience: Audience, command: str) -> None:
    combat(audience).locator(f"[data-command={command}]").click()


def step_is(audience: Audience, step: str) -> None:
    expect(combat(audience)).to_have_attribute("data-step", step, timeout=TIMEOUT)


def walk_to_main(audience: Audience) -> None:
    """check → support1 → main, each click waiting for the pane to show the next phase."""
    for phase in ("support1", "main"):
        click(audience, "combat_next")
        expect(combat(audience)).to_have_attribute("data-phase", phase, timeout=TIMEOUT)


def end_turn(audience: Audience) -> None:
    """main (its action taken) → support2 → the next fighter's turn."""
    expect(combat(audience).locator("[data-command=combat_pass]")).to_have_count(0, timeout=TIMEOUT)
    click(audience, "combat_next")
    expect(combat(audience)).to_have_attribute("data-phase", "support2", timeout=TIMEOUT)
    click(audience, "combat_next")
    expect(combat(audience).locator(".locke-combat-turn")).to_have_count(0, timeout=TIMEOUT)


def counts(audience: Audience) -> dict[int, str]:
    rows = combat(audience).locator("tr[data-fighter]")
    return {
        int(rows.nth(i).get_attribute("data-fighter") or 0): rows.nth(i)
        .locator(".locke-hand-count")
        .inner_text()
        for i in range(rows.count())
    }


def held(table: Table, seat: int) -> set[str]:
    """Every C-card `seat` drew, from its own events' sealed bodies."""
    cards: set[str] = set()
    for event in table.events(f"seat:{seat}"):
        drawn = event["type"] == "chojin_locke.CombatCardsDrawn" and event["secret"] is not None
        if drawn and event["public"]["fighter"] == seat:
            cards |= set(event["secret"]["cards"])
    return cards


def played(table: Table) -> set[str]:
    """The C-cards revealed by an activation (public from then on)."""
    return {
        e["public"]["card"]
        for e in table.events("public")
        if e["type"] == "chojin_locke.CardActivated"
    }


def attack_and_respond(
    attacker: Audience,
    target: Audience,
    target_id: int,
    joiner: Audience,
    cards: list[dict[str, Any]],
) -> None:
    """The attacker plays its lowest-LV card as an attack, clicked in its hand: the willpower
    field shows while the declared ESP level is below the card's LV; a declaration above the
    truth is refused beside the form, to the declarer alone, nothing appended. The 同調 offer
    goes to the joiner alone, who declines. The target alone gets the prompt, its cards below
    the attack's LV (or no defence) disabled with the reason; it answers with a defence, or
    takes the hit and declares its endurance."""
    by_name = {c["name"]: c for c in cards}
    mine = hand_of(attacker)
    card = min(mine, key=lambda name: by_name[name]["lv"])
    lv = by_name[card]["lv"]
    combat(attacker).locator(f".locke-ccard[data-card='{card}']").click()
    form = combat(attacker).locator("[data-form=play_card]")
    expect(form).to_be_visible(timeout=TIMEOUT)
    form.locator("select[name=combat-kind]").select_option("攻撃")
    form.locator("select[name=combat-target]").select_option(str(target_id))
    will = form.locator("input[name=play-will]")
    form.locator("input[name=play-esp]").fill(str(lv - 1))
    expect(will).to_be_visible()
    form.locator("input[name=play-esp]").fill("7")  # above the truth (6)
    expect(will).to_be_hidden()
    log = attacker.page.locator("#log li")
    before = log.count()
    click(attacker, "play_card")
    error = combat(attacker).locator(".locke-combat-error")
    expect(error).to_have_attribute("data-code", "declaration_too_high", timeout=TIMEOUT)
    expect(error).to_contain_text("7")  # the declared value, in the server's sentence
    assert log.count() == before
    form.locator("input[name=play-esp]").fill("6")
    click(attacker, "play_card")
    expect(combat(attacker).locator(".locke-attack")).to_contain_text(card, timeout=TIMEOUT)

    # 5.5: the 同調 offer reaches the fighter yet to act, with its [同調可] attack cards of the
    # card's LV or less enabled; it declines
    offer = combat(joiner).locator(".locke-sync")
    expect(offer).to_be_visible(timeout=TIMEOUT)
    assert combat(attacker).locator(".locke-sync").count() == 0
    assert combat(target).locator(".locke-sync").count() == 0
    joinable = combat(joiner).locator(".locke-combat-hand .locke-ccard")
    for i in range(joinable.count()):
        data = by_name[joinable.nth(i).get_attribute("data-card") or ""]
        assert joinable.nth(i).is_enabled() == (data["lv"] <= lv), data
    offer.locator("[data-command=no_sync]").click()

    prompt = combat(target).locator(".locke-respond")
    expect(prompt).to_be_visible(timeout=TIMEOUT)
    assert combat(attacker).locator(".locke-respond").count() == 0
    answers = combat(target).locator(".locke-combat-hand .locke-ccard")
    usable: list[str] = []
    for i in range(answers.count()):
        node = answers.nth(i)
        data = by_name[node.get_attribute("data-card") or ""]
        ok = "防御" in data["kinds"] and data["lv"] >= lv
        assert node.is_enabled() == ok, data
        if ok:
            usable.append(data["name"])
        else:
            assert node.locator(".locke-ccard-why").inner_text()
    if usable:
        combat(target).locator(f".locke-ccard[data-card='{usable[0]}']").click()
        prompt.locator("select[name=respond-kind]").select_option("防御")
        click(target, "respond")
    else:
        click(target, "take_hit")
        expect(combat(target).locator(".locke-endurance")).to_be_visible(timeout=TIMEOUT)
        click(target, "declare_endurance")
    expect(combat(attacker).locator(".locke-attack")).to_have_count(0, timeout=TIMEOUT)


def round_end(seats: dict[int, Audience], order: list[int]) -> None:
    """An attack this round: each character is asked whether to go on; one says no, the next
    yes (which settles it); whoever holds its limit may discard one (keeps here); everyone
    draws to the limit and round 2 begins at コマ移動."""
    one, two = seats[order[0]], seats[order[1]]
    for audience in seats.values():
        step_is(audience, "round_end")
    combat(one).locator("[data-command=continue_combat][data-answer=no]").click()
    expect(combat(one).locator(".locke-continue")).to_have_count(0, timeout=TIMEOUT)
    combat(two).locator("[data-command=continue_combat][data-answer=yes]").click()
    for audience in seats.values():
        expect(combat(audience).locator(".locke-continue")).to_have_count(0, timeout=TIMEOUT)
    for audience in seats.values():
        if combat(audience).locator(".locke-discard-down").count():
            click(audience, "discard_down")
    for audience in seats.values():
        step_is(audience, "moving")
        expect(combat(audience).locator("h3")).to_contain_text("ラウンド2")
        expect(combat(audience).locator(".locke-combat-hand .locke-ccard")).to_have_count(7)


def melee(table: Table, seats: dict[int, Audience]) -> None:
    """5.6: the first fighter of round 2 fights hand to hand (its endurance declared as the
    firepower, offered at its own); the target takes the hit, then declares its own as the
    counter's and fights back: both damage rolls at once."""
    fight = view(table, "public")["combat"]
    attacker = seats[fight["current"]]
    walk_to_main(attacker)
    form = combat(attacker).locator("[data-form=melee]")
    target_id = int(
        form.locator("select[name=melee-target] option").first.get_attribute("value") or 0
    )
    target = seats[target_id]
    log = attacker.page.locator("#log li")
    before = log.count()
    click(attacker, "melee")
    expect(combat(target).locator(".locke-respond")).to_contain_text("格闘", timeout=TIMEOUT)
    click(target, "take_hit")
    expect(combat(target).locator(".locke-counter")).to_be_visible(timeout=TIMEOUT)
    assert combat(attacker).locator(".locke-counter").count() == 0
    click(target, "counter")
    for audience in seats.values():
        expect(combat(audience).locator(".locke-attack")).to_have_count(0, timeout=TIMEOUT)
    rolls = [e for e in table.events("public") if e["type"] == "chojin_locke.DamageRolled"]
    assert sum(1 for e in rolls if e["public"].get("melee")) == 2
    assert log.count() > before


def test_three_fighters_play_a_combat_round_in_the_pane(browser: Any, server: KirokuServer) -> None:
    api = httpx.Client(base_url=server.base_url, timeout=10)
    cards = deck()
    table, fighters = three_on_a_square(api, cards)
    starter = to_combat_phase(table, fighters)
    link = f"{server.base_url}/g/{table.game_id}/join#token="
    seats = {seat: Audience.open(browser, f"seat:{seat}") for seat in fighters}
    try:
        for seat, audience in seats.items():
            audience.page.goto(link + table.tokens[f"seat:{seat}"])
        for audience in seats.values():
            expect(audience.page.locator(f"{PANE} .locke-stage")).to_have_text(
                "惑星編", timeout=TIMEOUT
            )
        # ---- 4.3: the turn player starts the combat from its 戦闘発生フェイズ
        first = seats[int(starter[5:])]
        for audience in seats.values():
            if audience is not first:
                assert audience.page.locator("[data-command=start_combat]").count() == 0
        first.page.locator(f"{PANE} [data-command=start_combat]").click()
        for audience in seats.values():
            step_is(audience, "joining")
        for audience in seats.values():  # only the starter moves the steps on
            if audience is not first:
                assert combat(audience).locator("[data-command=combat_next]").count() == 0
            # 実はそこにいた is for a seat not in the combat
            assert combat(audience).locator("[data-command=join_check]").count() == 0
        for step in ("moving", "before", "turns"):
            click(first, "combat_next")
            step_is(first, step)

        # ---- (4) hands sealed to each seat, counts public; (5) initiative face up
        hands: dict[int, list[str]] = {}
        for seat, audience in seats.items():
            step_is(audience, "turns")
            expect(combat(audience).locator(".locke-combat-hand .locke-ccard")).to_have_count(7)
            hands[seat] = hand_of(audience)
            assert counts(audience) == {s: "7" for s in fighters}
            initiative = combat(audience).locator("tr[data-fighter] .locke-initiative")
            for i in range(3):
                assert initiative.nth(i).inner_text()[0] in "♠♥"
            facts = combat(audience).locator(".locke-ccard-facts").first.inner_text()
            assert facts.startswith("LV") and "火力4" in facts
        assert all(set(hands[s]) == held(table, s) for s in fighters)
        order: list[int] = view(table, "public")["combat"]["order"]
        assert sorted(order) == sorted(fighters)
        shown = combat(first).locator(".locke-order").inner_text()
        names = [NAMES[s - 1] for s in order]
        assert [shown.index(n) for n in names] == sorted(shown.index(n) for n in names)

        # ---- (6) the combat turns, each seeing whose turn it is
        one, two, three = (seats[s] for s in order)
        for audience in seats.values():
            expect(combat(audience).locator("tr.current")).to_have_attribute(
                "data-fighter", str(order[0]), timeout=TIMEOUT
            )
        assert combat(two).locator(".locke-combat-turn").count() == 0
        # the first discards a card face down: chosen by a click in its hand
        # the first attacks the third; the second, yet to act, is offered the 同調 and declines
        walk_to_main(one)
        attack_and_respond(one, three, order[2], joiner=two, cards=cards)
        # a target killed by it has its [死亡時] window first (ruling CL-090): its seat alone is
        # asked, and closes it by a click
        for dead in view(table, "public")["combat"]["dying"]:
            prompt = combat(seats[int(dead)]).locator(".locke-death")
            expect(prompt).to_be_visible(timeout=TIMEOUT)
            assert all(combat(a).locator(".locke-death").count() == 0 for a in (one, two))
            prompt.locator("[data-answer=done]").click()
            expect(prompt).to_have_count(0, timeout=TIMEOUT)
        end_turn(one)

        # the second discards a card face down, chosen by a click in its hand
        walk_to_main(two)
        gone = hand_of(two)[0]
        combat(two).locator(".locke-ccard").first.click()
        expect(combat(two).locator(".locke-ccard").first).to_have_attribute("aria-pressed", "true")
        click(two, "discard_card")
        for audience in seats.values():
            expect(
                combat(audience).locator(f"tr[data-fighter='{order[1]}'] .locke-hand-count")
            ).to_have_text("6", timeout=TIMEOUT)
        assert gone not in hand_of(two)
        end_turn(two)

        if view(table, "public")["combat"]["current"] == order[2]:  # alive after the attack
            walk_to_main(three)
            log = three.page.locator("#log li")
            before = log.count()
            click(three, "combat_pass")
            expect(log).not_to_have_count(before, timeout=TIMEOUT)
            end_turn(three)

        # ---- (7) the round end
        round_end(seats, order)

        # ---- round 2: the starter walks コマ移動 and 戦闘前 again; a 格闘 exchange
        for step in ("before", "turns"):
            click(first, "combat_next")
            step_is(first, step)
        melee(table, seats)

        # ---- nobody received another seat's cards (DOM, responses, stream messages)
        drawn = {s: held(table, s) for s in fighters}
        public = played(table)
        undrawn = [c["name"] for c in cards if not any(c["name"] in d for d in drawn.values())]
        for seat, audience in seats.items():
            assert not audience.errors, audience.errors
            received = audience.received()
            copies = received.count(undrawn[0])
            assert copies >= 1 and all(received.count(n) == copies for n in undrawn)
            for owner, owned in drawn.items():
                for card in owned - public:
                    seen = received.count(card) > copies
                    assert seen == (owner == seat), (seat, owner, card)
    finally:
        for audience in seats.values():
            audience.close()
