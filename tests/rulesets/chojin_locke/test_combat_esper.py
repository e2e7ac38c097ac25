"""6.2 エスパーの性質 through the real deciders: an esper NPC's hand is sealed to nobody, the
server picks its card (highest LV, then firepower, never above its level) and its target (named
or at random on the dice), it 格闘s when no card serves, defends with its best defence, declares
all its endurance and always fights back (l.1282–1288, 1320–1340; rulings CL-085–CL-086)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.model.errors import Forbidden
from domain.rulesets.chojin_locke.cards import CombatCard
from domain.rulesets.chojin_locke.combat.action_events import (
    AttackLanded,
    CardActivated,
    DamageRolled,
    DefenceDropped,
    MeleeAnswered,
    MeleeDeclared,
)
from domain.rulesets.chojin_locke.combat.death import FighterDied
from domain.rulesets.chojin_locke.combat.esper import NpcTargetChosen
from domain.rulesets.chojin_locke.combat.flow_events import (
    CombatCardsDrawn,
    CombatPassed,
    InitiativeDealt,
)
from domain.rulesets.chojin_locke.combat.initiative import in_play
from domain.rulesets.chojin_locke.combat.state import Fighter, Maintained
from domain.rulesets.chojin_locke.combat.view import combat_view
from tests.rulesets.chojin_locke.combat_domain import Fight, fight, refused
from tests.rulesets.chojin_locke.lines import described

ESPER = 101


def with_esper(
    hands: dict[int, list[str]],
    esper_hand: list[str],
    *,
    level: int = 3,
    endurance: int = 4,
    shift: int = 0,
    **update: Any,
) -> Fight:
    """Seats 1–3 and an esper NPC (101) with `esper_hand`, level `level`; seat 1's main phase."""
    f = fight({**hands, ESPER: esper_hand})
    esper = Fighter(
        id=ESPER,
        name="エスパー",
        kind="esper",
        members=[endurance],
        esp_level=level,
        shift=shift,
        **update,
    )
    f.state = f.state.model_copy(
        update={
            "combat": f.combat.model_copy(
                update={
                    "fighters": {**f.combat.fighters, ESPER: esper},
                    "order": [1, 2, 3, ESPER],
                }
            )
        }
    )
    f.start = f.state
    return f


def of(f: Fight, kind: type, start: int = 0) -> list[Any]:
    return [e for e, _ in f.events[start:] if isinstance(e, kind)]


def test_the_host_brings_an_esper_in_before_the_hands_and_it_draws_sealed_to_nobody() -> None:
    f = fight({1: [], 2: [], 3: []})
    count = len(f.events)
    with pytest.raises(Forbidden):
        f.do("seat:1", "add_esper", name="エスパー", esp_level=3, endurance=4)
    assert len(f.events) == count
    refused(f, "host", "add_esper", "wrong_combat_step", name="エスパー", esp_level=3, endurance=4)
    deck = ["ビームキャノン"] * 5 + ["バリアー"] * 5
    f.state = f.state.model_copy(
        update={"combat": f.combat.model_copy(update={"step": "before", "deck": deck})}
    )
    f.do("host", "add_esper", name="エスパー", esp_level=3, endurance=4, shift=1)
    esper = f.combat.fighters[ESPER]
    assert (esper.kind, list(esper.members), esper.esp_level, esper.shift) == (
        "esper",
        [4],
        3,
        1,
    )
    start = len(f.events)
    f.do("host", "combat_next")  # (4) hands, (5) initiative, (6) the first turn
    drawn = [(e, a) for e, a in f.events[start:] if isinstance(e, CombatCardsDrawn)]
    assert [(e.fighter, e.count, a) for e, a in drawn] == [(ESPER, 7, ())]  # sealed to nobody
    (dealt,) = of(f, InitiativeDealt, start)
    assert ESPER in dealt.order


def test_it_attacks_with_its_highest_lv_then_firepower_card_at_a_random_target() -> None:
    """l.1325: the highest LV it can use (LV 5 is above its level 3), the higher firepower."""
    hand = ["ショックウェーブ", "サイコブラスト", "ビームキャノン", "バリアー"]
    f = with_esper({1: [], 2: ["バリアー"], 3: []}, hand)
    f.turn_of(ESPER)
    count = len(f.events)
    with pytest.raises(Forbidden):
        f.do("seat:1", "esper_act")
    assert len(f.events) == count
    f.faces = [2]  # 1D3 over 1, 2, 3 → seat 2
    out = f.do("host", "esper_act", target="random")
    chosen, used = out
    assert isinstance(chosen, NpcTargetChosen) and chosen.candidates == (1, 2, 3)
    assert chosen.target == 2 and chosen.roll is not None and chosen.roll.expression == "1D3"
    assert isinstance(used, CardActivated)
    assert (used.card, used.lv, used.target, used.success) == ("ビームキャノン", 3, 2, True)
    assert used.sync_waiting == ()  # an NPC asks nobody for 同調 (ruling CL-085)
    attack = f.combat.attack
    assert attack is not None and attack.awaiting == "response" and f.combat.main_done
    refused(f, "host", "esper_act", "main_action_used")
    f.faces = [6, 6]
    f.do("seat:2", "respond")
    f.do("seat:2", "declare_endurance", endurance=3)
    (damage,) = of(f, DamageRolled)
    assert (damage.roller, damage.target) == (ESPER, 2)


def test_without_a_usable_attack_card_it_fights_with_all_its_endurance() -> None:
    """l.1287–1288 → 格闘; l.1337: its whole endurance; the target's 反撃 can kill it."""
    f = with_esper({1: [], 2: [], 3: []}, ["サイコブラスト"], endurance=2)
    f.turn_of(ESPER)
    out = f.do("host", "esper_act", target=1)
    assert [type(e) for e in out] == [NpcTargetChosen, MeleeDeclared]
    attack = f.combat.attack
    assert attack is not None and (attack.firepower, attack.lv, attack.awaiting) == (
        2,
        1,
        "response",
    )
    f.do("seat:1", "respond")
    # ロック declares 5: the esper's 2:5 → 1:2以下 total 2 → 0; ロック's 5:2 → 2:1 total 2 → 2
    f.faces = [1, 1, 1, 1]
    out = f.do("seat:1", "counter", endurance=5)
    assert [(d.roller, d.target, d.damage) for d in of(f, DamageRolled)] == [
        (ESPER, 1, 0),
        (1, ESPER, 2),
    ]
    assert [e.fighter for e in out if isinstance(e, FighterDied)] == [ESPER]
    assert ESPER not in {x.id for x in in_play(f.state)}
    assert list(f.combat.fighters[ESPER].members) == [0]


def test_it_defends_with_its_best_defence_and_keeps_it_up_while_it_holds_an_attack() -> None:
    """l.1326–1328: the highest LV defence of the attack's LV or more and its level or less."""
    hand = ["バリアー", "シールド", "ショックウェーブ"]  # シールド LV5 is above its level 3
    f = with_esper({1: ["ショックウェーブ"], 2: [], 3: []}, hand)
    f.do("seat:1", "play_card", card="ショックウェーブ", kind="攻撃", target=ESPER, esp_level=6)
    f.do("seat:2", "no_sync")
    out = f.do("seat:3", "no_sync")
    used = [e for e in out if isinstance(e, CardActivated)]
    assert [(e.fighter, e.card, e.use, e.maintain) for e in used] == [
        (ESPER, "バリアー", "response", True)
    ]
    assert [e.outcome for e in out if isinstance(e, AttackLanded)] == ["blocked"]
    assert f.combat.fighters[ESPER].defence == Maintained(card="バリアー", lv=2)


def test_with_no_attack_card_left_it_keeps_up_no_defence() -> None:
    f = with_esper({1: ["ショックウェーブ"], 2: [], 3: []}, ["バリアー"])
    f.do("seat:1", "play_card", card="ショックウェーブ", kind="攻撃", target=ESPER, esp_level=6)
    f.do("seat:2", "no_sync")
    f.do("seat:3", "no_sync")
    (used,) = [e for e in of(f, CardActivated) if e.fighter == ESPER]
    assert used.card == "バリアー" and not used.maintain
    assert f.combat.fighters[ESPER].defence is None


def test_unanswered_it_declares_all_its_endurance() -> None:
    """l.1335–1336: 「必ず宣言できる最大の値で宣言します。」"""
    f = with_esper({1: ["サイコブラスト"], 2: [], 3: []}, ["テレポート"], endurance=4)
    f.faces = [3, 3]  # 12:4 → 3:1, total 6 → 3
    out = f.do("seat:1", "play_card", card="サイコブラスト", kind="攻撃", target=ESPER, esp_level=6)
    assert [e.outcome for e in out if isinstance(e, AttackLanded)] == ["hit"]  # no escape: l.1329
    (damage,) = of(f, DamageRolled)
    assert (damage.target, damage.endurance, damage.member, damage.damage) == (ESPER, 4, 0, 3)
    assert list(f.combat.fighters[ESPER].members) == [1] and f.combat.attack is None


def test_a_melee_on_it_is_always_fought_back() -> None:
    """l.1339–1340 「NPCは必ず格闘攻撃の反撃を行います」, with its [格闘:X]."""
    f = with_esper({1: [], 2: [], 3: []}, [], endurance=3, shift=1)
    # ロック 4 vs 3: ロック's 1:1 shifted left by 1 → 1:2以下, total 7 → 1; the esper's 3:4 →
    # 1:2以下 shifted right → 1:1, total 7 → 2
    f.faces = [3, 4, 3, 4]
    out = f.do("seat:1", "melee", target=ESPER, endurance=4)
    (answered,) = [e for e in out if isinstance(e, MeleeAnswered)]
    assert (answered.target, answered.endurance, answered.shift, answered.fights_back) == (
        ESPER,
        3,
        1,
        True,
    )
    assert [(d.roller, d.target, d.column, d.damage) for d in of(f, DamageRolled)] == [
        (1, ESPER, "1:2以下", 1),
        (ESPER, 1, "1:1", 2),
    ]
    assert f.state.players[1].endurance_damage == 2


def test_a_kept_defence_with_no_attack_card_falls_before_its_melee() -> None:
    kept = Maintained(card="バリアー", lv=2)
    f = with_esper({1: [], 2: [], 3: []}, ["バリアー"], defence=kept)
    f.turn_of(ESPER)
    out = f.do("host", "esper_act", target=2)
    assert [type(e) for e in out][:3] == [NpcTargetChosen, DefenceDropped, MeleeDeclared]
    assert f.combat.fighters[ESPER].defence is None


def test_a_kept_defence_and_only_unusable_attack_cards_leave_it_nothing_to_do() -> None:
    kept = Maintained(card="バリアー", lv=2)
    f = with_esper({1: [], 2: [], 3: []}, ["サイコブラスト"], defence=kept)
    f.turn_of(ESPER)
    out = f.do("host", "esper_act", target=2)  # no card it may use, no 格闘: パス
    assert [type(e) for e in out] == [CombatPassed] and f.combat.main_done
    assert f.combat.fighters[ESPER].defence == kept and f.faces == []


def test_in_the_base_it_picks_among_explorers_characters_only() -> None:
    f = with_esper({1: [], 2: [], 3: []}, ["ビームキャノン"])
    players = {**f.state.players, 2: f.state.players[2].model_copy(update={"side": "base"})}
    f.state = f.state.model_copy(
        update={"players": players, "combat": f.combat.model_copy(update={"stage": "base"})}
    )
    f.turn_of(ESPER)
    refused(f, "host", "esper_act", "bad_target", target=2)
    f.faces = [2]
    chosen = f.do("host", "esper_act")[0]
    assert isinstance(chosen, NpcTargetChosen)
    assert chosen.candidates == (1, 3) and chosen.target == 3


def test_the_esper_lines_read_as_the_table_says_them() -> None:
    f = with_esper({1: [], 2: [], 3: []}, ["ビームキャノン"])
    f.turn_of(ESPER)
    f.faces = [1]
    f.do("host", "esper_act")
    said = [described(e.type, e.public_part(), None) for e, _ in f.events]
    texts = [line[1] for line in said if line is not None]
    assert texts[0] == "NPC101の攻撃対象 → 席1 (ランダム: 席1・席2・席3から [(1D3) ＞ 1])"
    assert texts[1].startswith("NPC101: Cカード「ビームキャノン」(LV3 攻撃)使用 → 席1")


def test_an_attack_above_its_defences_hits_it() -> None:
    """5.4 l.1053: a defence of the attack's LV or more; バリアー (LV 2) does not answer LV 3."""
    f = with_esper({1: ["ビームキャノン"], 2: [], 3: []}, ["バリアー"], endurance=6)
    f.do("seat:1", "play_card", card="ビームキャノン", kind="攻撃", target=ESPER, esp_level=6)
    f.do("seat:2", "no_sync")
    f.faces = [1, 1]  # 6:6 → 1:1, total 2 → 1
    out = f.do("seat:3", "no_sync")
    assert [e.outcome for e in out if isinstance(e, AttackLanded)] == ["hit"]
    assert f.hand(ESPER) == ["バリアー"] and list(f.combat.fighters[ESPER].members) == [5]


ESPER_CARDS = tuple(
    CombatCard(
        name=f"E{kind}-{lv}-{fp}", lv=lv, kinds=(kind,), firepower=fp, maintain=kind == "防御"
    )
    for kind in ("攻撃", "防御")
    for lv in range(1, 7)
    for fp in ((2, 9) if kind == "攻撃" else (0,))
)


@settings(max_examples=60, deadline=None)
@given(
    hand=st.lists(st.sampled_from([c.name for c in ESPER_CARDS]), min_size=0, max_size=7),
    level=st.integers(1, 6),
    attack_first=st.booleans(),
)
def test_its_choices_follow_6_2_and_its_hand_stays_sealed(
    hand: list[str], level: int, attack_first: bool
) -> None:
    """Hypothesis: whatever its hand and level, its attack is the highest LV then firepower it
    may use (else 格闘), its defence the highest LV it may use; no public part of any event,
    no view of any audience, names a card of its hand it has not played."""
    f = with_esper({1: ["ショックウェーブ"], 2: [], 3: []}, hand, level=level, endurance=9)
    cards = {c.name: c for c in ESPER_CARDS}
    catalog = f.state.catalog.model_copy(
        update={"combat_cards": (*f.state.catalog.combat_cards, *ESPER_CARDS)}
    )
    f.state = f.state.model_copy(update={"catalog": catalog})
    f.faces = [3] * 40
    if attack_first:
        f.turn_of(ESPER)
        out = f.do("host", "esper_act", target=1)
        used = [e for e in out if isinstance(e, CardActivated)]
        attacks = [cards[n] for n in hand if n.startswith("E攻撃") and cards[n].lv <= level]
        if attacks:
            best = max(attacks, key=lambda c: (c.lv, c.firepower))
            assert [(e.card, e.lv, e.firepower) for e in used] == [
                (best.name, best.lv, best.firepower)
            ]
        else:
            assert not used and [e for e in out if isinstance(e, MeleeDeclared)]
    else:
        f.do("seat:1", "play_card", card="ショックウェーブ", kind="攻撃", target=ESPER, esp_level=6)
        f.do("seat:2", "no_sync")
        out = f.do("seat:3", "no_sync")
        used = [e for e in out if isinstance(e, CardActivated) and e.fighter == ESPER]
        defences = [cards[n] for n in hand if n.startswith("E防御") and cards[n].lv <= level]
        if defences:
            assert [e.card for e in used] == [max(defences, key=lambda c: c.lv).name]
        else:
            assert not used
    played = {e.card for e, _ in f.events if isinstance(e, CardActivated)}
    hidden = set(hand) - played
    public = "".join(json.dumps(e.public_part(), ensure_ascii=False) for e, _ in f.events)
    state_view = combat_view(f.combat).model_dump_json()
    for name in hidden:
        assert name not in public and name not in state_view


def test_a_fainted_esper_neither_defends_nor_fights_back() -> None:
    """6.1 l.1266–1267 (ruling CL-084): an エスパー NPC is a character, and faints like one."""
    f = with_esper({1: [], 2: [], 3: []}, ["バリアー", "ショックウェーブ"], endurance=5)
    f.do("host", "faint", fighter=ESPER, rounds=1)
    f.faces = [1, 1, 1, 1]
    out = f.do("seat:1", "melee", target=ESPER, endurance=2)
    assert [e.outcome for e in out if isinstance(e, AttackLanded)] == ["hit"]
    (answered,) = [e for e in out if isinstance(e, MeleeAnswered)]
    assert not answered.fights_back and answered.endurance == 5
    assert [d.roller for d in of(f, DamageRolled)] == [1]
    assert f.hand(ESPER) == ["バリアー", "ショックウェーブ"]


def test_a_remnant_hits_an_esper_which_declares_all_it_has() -> None:
    f = with_esper({1: [], 2: [], 3: []}, ["バリアー"], endurance=5)
    ghost = Fighter(id=102, name="残留思念", kind="remnant", seat=3, firepower=10)
    players = {**f.state.players, 3: f.state.players[3].model_copy(update={"condition": "dead"})}
    fighters = {**f.combat.fighters, 102: ghost}
    f.state = f.state.model_copy(
        update={
            "players": players,
            "combat": f.combat.model_copy(update={"fighters": fighters, "current": 102}),
        }
    )
    f.faces = [1, 1]
    f.do("seat:3", "remnant_attack", target=ESPER)
    (damage,) = of(f, DamageRolled)
    assert (damage.roller, damage.target, damage.endurance) == (102, ESPER, 5)
    assert not [e for e in of(f, CardActivated) if e.fighter == ESPER]  # no answer to it
