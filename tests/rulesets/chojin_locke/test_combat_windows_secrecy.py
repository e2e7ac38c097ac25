"""An attacker's tries at the windows rulings CL-088–CL-092 add (hypothesis): whatever a seat sends
—
`counter_ability` with any name, `discard_down` at the round end a leaver's combat begins with,
`use_ability` in a leaver's 支援フェイズ — a refusal changes nothing, and no ability of a sheet,
no card of a hand, reaches an event's public part or a sealed part meant for another seat
until its holder names or plays it itself."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.model.errors import RuleViolation
from domain.rulesets.chojin_locke.cards import Ability, CombatCard
from tests.rulesets.chojin_locke.combat_domain import Fight, fight

# markers: a name that shows up in bytes shows where it went
SHEET = [
    Ability(name="MARK-壁LV:2", tags=("戦闘", "対抗(攻撃)", "防御")),
    Ability(name="MARK-跳LV:6", tags=("全般", "対抗(攻撃)", "逃避")),
    Ability(name="MARK-援", tags=("戦闘", "支援")),
    Ability(name="MARK-隠", tags=("全般",)),
]
KEPT = [f"MARK-C{n}" for n in range(6)]  # each card once in the deck


def _leaks(f: Fight, secrets: set[str], owner: str) -> list[tuple[str, str]]:
    """(event type, secret) for each secret in a public part, or in a sealed part whose
    audience is not only `owner`."""
    found = []
    for event, audience in f.events:
        public = json.dumps(event.public_part(), ensure_ascii=False)
        whole = json.dumps(event.model_dump(mode="json"), ensure_ascii=False)
        for secret in secrets:
            if secret in public or (secret in whole and tuple(audience) != (owner,)):
                found.append((event.type, secret))
    return found


def _try(f: Fight, actor: str, name: str, **fields: Any) -> bool:
    before, count = f.state, len(f.events)
    try:
        f.do(actor, name, **fields)
    except RuleViolation:
        assert f.state is before and len(f.events) == count  # nothing appended, nothing changed
        return False
    return True


names = st.sampled_from([a.name for a in SHEET] + ["時間停止", "MARK-無"])


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([1, 2, 3]),
            names,
            st.sampled_from([None, "blocked", "evaded"]),
            st.booleans(),
        ),
        max_size=8,
    )
)
def test_counter_window_tries_leak_no_unused_ability(tries: list[Any]) -> None:
    f = fight({1: ["ビームキャノン"]}, sheet_updates={2: {"abilities": tuple(SHEET)}})
    f.do("seat:1", "play_card", card="ビームキャノン", kind="攻撃", target=2, esp_level=3)
    if f.combat.attack is not None and f.combat.attack.awaiting == "sync":
        f.do("seat:3", "no_sync")
    used: set[str] = set()
    for seat, name, avoid, answer in tries:
        if f.state.combat is None or f.combat.attack is None:
            break
        if answer and seat == 2 and f.combat.attack.awaiting == "response":
            _try(f, "seat:2", "respond")
            continue
        if _try(f, f"seat:{seat}", "counter_ability", ability=name, avoid=avoid):
            used.add(name)
    unused = {a.name for a in SHEET} - used
    assert _leaks(f, unused, "seat:2") == []


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([1, 3]),
            st.lists(st.sampled_from([*KEPT, "サイコブラスト", "テレポート"]), max_size=3),
        ),
        max_size=6,
    ),
    st.lists(names, max_size=4),
)
def test_a_carried_hand_and_a_leavers_support_leak_nothing(
    discards: list[Any], abilities: list[str]
) -> None:
    """Seat 3 leaves with 8 cards (2 手下: limit 9), uses support abilities after the combat,
    starts a combat with seat 1 and discards down at its round end."""
    f = fight(
        {1: ["テレポート"], 2: [], 3: ["テレポート", "テレポート", *KEPT, "サイコブラスト"]},
        sheet_updates={3: {"abilities": tuple(SHEET)}},
        fighter_updates={3: {"minions": 2, "hand_limit": 9}},
    )
    board = f.state.board.model_copy(update={"cards": {"0:0": "白紙"}})
    turn = f.state.turn.model_copy(update={"seat": 3})  # type: ignore[union-attr]
    marked = tuple(CombatCard(name=n, lv=2, kinds=("防御",)) for n in KEPT)
    cards = (*f.state.catalog.combat_cards, *marked)
    catalog = f.state.catalog.model_copy(update={"combat_cards": cards})
    f.state = f.state.model_copy(update={"board": board, "turn": turn, "catalog": catalog})
    for actor, square in (("seat:1", 5), ("seat:2", None), ("seat:3", 5)):
        if actor != "seat:1":
            f.do(actor, "combat_next")
            f.do(actor, "combat_next")
        if square is None:
            f.do(actor, "combat_pass")
        else:
            f.do(actor, "play_card", card="テレポート", kind="逃避", esp_level=1)
            f.do(actor, "escape_to", square=square)
        f.do(actor, "combat_next")
        f.do(actor, "combat_next")
    assert f.state.aftermath is not None and list(f.state.aftermath.queue) == [3, 1]
    hand = set(f.state.aftermath.hands[3])  # the marked six and サイコブラスト
    f.do("seat:3", "aftermath_next")
    named: set[str] = set()
    for name in abilities:
        if _try(f, "seat:3", "use_ability", ability=name):
            named.add(name)
    f.do("seat:3", "aftermath_next")
    f.do("seat:3", "start_combat")
    for seat, cards in discards:
        if f.state.combat is None or f.combat.step != "round_end":
            break
        _try(f, f"seat:{seat}", "discard_down", cards=cards)
    secrets = (set(KEPT) & hand) | ({a.name for a in SHEET} - named)
    assert len(secrets & hand) == 6
    assert _leaks(f, secrets, "seat:3") == []
