"""No card of a hand reaches anyone until it is played (issue #20, 17.): whatever the fighters
try — legal or refused — a card never revealed by its holder is in no event's public part and
in no sealed part meant for another seat; a dead fighter's hand goes to the discard unseen."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.model.errors import RuleViolation
from domain.rulesets.chojin_locke.combat.action_events import CardActivated
from tests.rulesets.chojin_locke.combat_domain import Fight, fight

HANDS = {
    1: ["ショックウェーブ", "サイコブラスト"],
    2: ["バリアー", "テレポート"],
    3: ["シールド", "ハイテレポート", "ビームキャノン"],
}
ALL = [card for hand in HANDS.values() for card in hand]
KINDS = ["攻撃", "防御", "逃避"]

moves = st.lists(
    st.tuples(
        st.sampled_from([1, 2, 3]),
        st.sampled_from(
            ["play_card", "respond", "sync", "no_sync", "declare_endurance", "melee", "counter"]
        ),
        st.integers(0, 20),  # a card: the actor's own hand first, then any
        st.sampled_from(KINDS),
        st.integers(1, 6),
        st.sampled_from([1, 2, 3]),
    ),
    max_size=25,
)


def _fields(name: str, card: str, kind: str, n: int, target: int) -> dict[str, Any]:
    fields: dict[str, dict[str, Any]] = {
        "play_card": {"card": card, "kind": kind, "target": target, "esp_level": n, "willpower": n},
        "respond": {"card": card, "kind": kind, "esp_level": n, "willpower": n},
        "sync": {"card": card, "esp_level": n, "willpower": n},
        "no_sync": {},
        "respond_none": {},
        "declare_endurance": {"endurance": n},
        "melee": {"target": target, "endurance": n},
        "counter": {"endurance": n},
    }
    return fields[name]


def _actor(f: Fight, chosen: int, name: str) -> tuple[int, str]:
    """Mostly the fighter and the answer the attack waits for, so that sequences go deep; a
    drawn main action while one is pending, or anything by a drawn seat, now and then."""
    attack = f.combat.attack
    if attack is None or name in ("play_card", "melee") or (chosen == 3 and name == "sync"):
        return chosen, name
    if attack.awaiting == "sync" and attack.sync_waiting:
        return attack.sync_waiting[0], name if name in ("sync", "no_sync") else "no_sync"
    answer = {"endurance": "declare_endurance", "counter": "counter"}.get(attack.awaiting)
    return attack.target, answer or ("respond" if name == "respond" else "respond_none")


@settings(max_examples=60, deadline=None)
@given(moves, st.lists(st.integers(1, 6), min_size=200, max_size=200))
def test_an_unplayed_card_is_seen_by_nobody(plays: list[Any], faces: list[int]) -> None:
    f = fight({k: list(v) for k, v in HANDS.items()}, faces=faces)
    for chosen, name, pick, kind, n, target in plays:
        if f.state.combat is None or f.state.ending is not None:
            break
        seat, name = _actor(f, chosen, name)
        options = f.hand(seat) if pick < 15 and f.hand(seat) else ALL
        card = options[pick % len(options)]
        if kind != "逃避":  # mostly the card's own kind, so activations happen
            kind = next(c.kinds[0] for c in f.state.catalog.combat_cards if c.name == card)
        if name in ("play_card", "melee") and f.combat.attack is None:
            f.turn_of(seat)
        fields = _fields(name, card, kind, n, target)
        with contextlib.suppress(RuleViolation):
            f.do(f"seat:{seat}", name.removesuffix("_none"), **fields)
    # revealed by its holder only: a card "played" from someone else's hand would be a leak
    played = {
        e.card
        for e, _ in f.events
        if isinstance(e, CardActivated) and e.card in HANDS.get(e.fighter, [])
    }
    for event, audience in f.events:
        public = json.dumps(event.public_part(), ensure_ascii=False)
        secret = json.dumps(event.secret_part(), ensure_ascii=False)
        for holder, hand in HANDS.items():
            for card in set(hand) - played:
                quoted = json.dumps(card, ensure_ascii=False)  # テレポート is in ハイテレポート
                assert quoted not in public, (card, event)
                if audience and f"seat:{holder}" not in audience:
                    assert quoted not in secret, (card, event)
