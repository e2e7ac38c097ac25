"""Hypothesis: random combat commands from random actors never show a C-card of one seat's hand
to another seat or the public, and every refusal appends nothing (the attacker's view: it may
name any card of the deck, someone else's included)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.rulesets.chojin_locke.combat_table import start, three_on_a_square
from tests.rulesets.chojin_locke.table import cmd, seen, view
from tests.table import Table

VIEWERS = ("public", "gm", *(f"seat:{n}" for n in range(1, 7)))

actors = st.sampled_from([f"seat:{n}" for n in range(1, 7)] + ["gm"])
# ("hand", owner index, card index): a card from the hand of the owner-th fighter, read when
# the step runs, so seats try to discard their own cards and each other's
card = st.tuples(st.just("hand"), st.integers(0, 2), st.integers(0, 8))
step = st.one_of(
    st.just(cmd("combat_next")),
    st.just(cmd("combat_pass")),
    st.just(cmd("next_phase")),
    st.just(cmd("start_combat")),
    st.builds(lambda go: cmd("continue_combat", go_on=go), st.booleans()),
    card.map(lambda c: ("discard_card", c)),
    st.lists(card, max_size=3).map(lambda cs: ("discard_down", cs)),
)


def _last_seq(table: Table) -> int:
    response = table.client.get(f"/games/{table.game_id}/events", headers=table.auth("gm"))
    last: int = response.json()["last_seq"]
    return last


def _body(table: Table, fighters: list[int], raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    name, chosen = raw
    secrets = view(table, "gm")["secrets"]

    def pick(c: tuple[str, int, int]) -> str:
        held = secrets[str(fighters[c[1]])]["combat_hand"]
        return str(held[c[2] % len(held)]) if held else "C-none"

    if name == "discard_card":
        return cmd("discard_card", card=pick(chosen))
    return cmd("discard_down", cards=[pick(c) for c in chosen])


def _held(table: Table, seat: int) -> set[str]:
    cards: set[str] = set()
    for event in table.events(f"seat:{seat}"):
        drawn = event["type"] == "chojin_locke.CombatCardsDrawn" and event["secret"] is not None
        if drawn and event["public"]["fighter"] == seat:
            cards |= set(event["secret"]["cards"])
    return cards


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(st.tuples(actors, step), max_size=25))
def test_random_combat_commands_never_leak_a_hand(
    client: TestClient, steps: list[tuple[str, Any]]
) -> None:
    table, fighters = three_on_a_square(client)
    start(table, fighters)
    received: dict[str, bytes] = {v: b"" for v in VIEWERS}
    for actor, raw in steps:
        body = _body(table, fighters, raw)
        before = _last_seq(table)
        response = table.send(actor, body)
        if response.status_code == 201:
            received[actor] += response.content
        else:
            assert _last_seq(table) == before, response.text
    held = {seat: _held(table, seat) for seat in fighters}
    for viewer in VIEWERS:
        data = received[viewer] + seen(table, viewer)
        own = held.get(int(viewer[5:]), set()) if viewer.startswith("seat:") else set()
        for owner, cards in held.items():
            for name in cards - own:
                assert (name.encode() in data) == (viewer in (f"seat:{owner}", "gm")), (
                    viewer,
                    owner,
                )
