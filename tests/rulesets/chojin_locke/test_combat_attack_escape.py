"""3.1 l.293–300 in a combat turn (combat/exclusive.py, rulings CL-096–CL-099): a [支援] ability or
ability card with [逃避] takes its user out of the combat, one with [攻撃] is an attack action;
and after an [攻撃] action by a main or support action no [逃避] one in the same combat turn,
and vice versa — 格闘 an attack, an answer to an attack neither. Refusals append nothing."""

from __future__ import annotations

from typing import Any

from domain.model.events import Event
from domain.rulesets.chojin_locke.card_events import AbilityCardUsed, AbilityUsed
from domain.rulesets.chojin_locke.cards import Ability, AbilityCard
from domain.rulesets.chojin_locke.combat.flow_events import CombatTurnBegun
from domain.rulesets.chojin_locke.combat.state import CombatPhase
from domain.rulesets.chojin_locke.combat.view import combat_view
from domain.rulesets.chojin_locke.party_events import PartyDissolved
from tests.rulesets.chojin_locke.combat_domain import Fight, fight, refused
from tests.rulesets.chojin_locke.lines import described

P1, P2, P3 = "seat:1", "seat:2", "seat:3"
STRIKE = Ability(name="念動撃", tags=("戦闘", "支援", "攻撃"))
BLINK = Ability(name="瞬間離脱", tags=("戦闘", "支援", "逃避"))
LUNGE = Ability(name="突撃", tags=("戦闘", "主要", "攻撃"))
FLEE = Ability(name="遁走", tags=("戦闘", "主要", "逃避"))
HUNCH = Ability(name="勘", tags=("戦闘", "先制", "逃避"))
SMOKE = AbilityCard(name="煙幕", tags=("戦闘", "支援", "逃避"), text="姿を消す。")
FLARE = AbilityCard(name="閃光弾", tags=("戦闘", "支援", "攻撃"), text="相手の目をくらませる。")
HANDS = {1: ["ビームキャノン", "テレポート"], 2: ["ハイテレポート", "バリアー"], 3: []}


def _fight(hands: dict[int, list[str]] | None = None, **kw: Any) -> Fight:
    """Seat 1 (ロック) holds every ability above and the cards 煙幕 and 閃光弾; its combat turn."""
    abilities = (STRIKE, BLINK, LUNGE, FLEE, HUNCH)
    f = fight(HANDS if hands is None else hands, sheet_updates={1: {"abilities": abilities}}, **kw)
    cards = (*f.state.catalog.ability_cards, SMOKE, FLARE)
    rock = f.state.players[1].model_copy(update={"abilities": [SMOKE.name, FLARE.name]})
    f.state = f.state.model_copy(
        update={
            "catalog": f.state.catalog.model_copy(update={"ability_cards": cards}),
            "players": {**f.state.players, 1: rock},
        }
    )
    f.start = f.state
    return f


def _line(event: Event) -> str:
    """The log line everyone reads for `event`."""
    said = described(event.type, event.public_part(), None)
    assert said is not None
    return str(said[1])


def _phase(f: Fight, phase: CombatPhase) -> None:
    """Seat 1's combat turn in `phase` (the flow's combat_next walks there)."""
    f.state = f.state.model_copy(update={"combat": f.combat.model_copy(update={"phase": phase})})


def test_a_support_escape_ability_leaves_the_combat_and_dissolves_the_party() -> None:
    f = _fight(parties={1: [3]})
    _phase(f, "support1")
    used, dissolved = f.do(P1, "use_ability", ability=BLINK.name)
    assert isinstance(used, AbilityUsed) and used.escaped and used.ability == BLINK.name
    assert isinstance(dissolved, PartyDissolved) and dissolved.leader == 1
    assert f.combat.fighters[1].left and list(f.combat.turn_actions) == ["逃避"]
    assert not f.combat.attacked
    assert _line(used).endswith("戦闘から離脱")
    # 3.1 l.300: no [攻撃] after it in this combat turn — support or main
    refused(f, P1, "use_ability", "escaped_this_turn", ability=STRIKE.name)
    refused(f, P1, "use_ability_card", "escaped_this_turn", card=FLARE.name)
    f.do(P1, "combat_next")  # → 主要: out of the combat, it takes no action there but パス
    refused(
        f,
        P1,
        "play_card",
        "not_fighting",
        card="ビームキャノン",
        kind="攻撃",
        target=2,
        esp_level=6,
    )
    f.do(P1, "combat_pass")
    (moved,) = f.do(P1, "escape_to", square=5)  # 5.7: it moves away like any leaver
    assert f.combat.fighters[1].moved and moved is not None


def test_a_support_escape_card_leaves_the_combat() -> None:
    f = _fight()
    _phase(f, "support1")
    (used,) = f.do(P1, "use_ability_card", card=SMOKE.name)
    assert isinstance(used, AbilityCardUsed) and used.escaped
    assert f.combat.fighters[1].left and SMOKE.name in f.state.players[1].face_up
    assert _line(used).endswith("戦闘から離脱")


def test_a_support_attack_ability_is_an_attack_action_and_bars_an_escape() -> None:
    f = _fight()
    _phase(f, "support1")
    (used,) = f.do(P1, "use_ability", ability=STRIKE.name)
    assert isinstance(used, AbilityUsed) and not used.escaped
    assert f.combat.attacked and not f.combat.fighters[1].left  # l.933: the round saw one
    assert list(f.combat.turn_actions) == ["攻撃"]
    assert list(combat_view(f.combat).turn_actions) == ["攻撃"]
    # 3.1 l.295: no [逃避] by a support or main action in this combat turn
    refused(f, P1, "use_ability", "attacked_this_turn", ability=BLINK.name)
    refused(f, P1, "use_ability_card", "attacked_this_turn", card=SMOKE.name)
    (card,) = f.do(P1, "use_ability_card", card=FLARE.name)  # another [攻撃] is fine
    assert isinstance(card, AbilityCardUsed) and list(f.combat.turn_actions) == ["攻撃"]
    f.do(P1, "combat_next")  # → 主要
    refused(f, P1, "play_card", "attacked_this_turn", card="テレポート", kind="逃避", esp_level=6)
    refused(f, P1, "main_ability", "attacked_this_turn", ability=FLEE.name)
    refused(f, P1, "main_ability", "attacked_this_turn", ability=HUNCH.name, no_effect=True)
    f.do(P1, "main_ability", ability=LUNGE.name)
    assert f.combat.main_done


def test_after_an_attack_card_no_support_escape() -> None:
    f = _fight()
    f.faces = [1, 1]  # ニア takes the hit: damage 1 against endurance 3
    f.do(P1, "play_card", card="ビームキャノン", kind="攻撃", target=2, esp_level=6)
    f.do(P3, "no_sync")
    f.do(P2, "respond")
    f.do(P2, "declare_endurance", endurance=3)
    assert f.combat.attack is None and list(f.combat.turn_actions) == ["攻撃"]
    f.do(P1, "combat_next")  # → 支援フェイズ2
    refused(f, P1, "use_ability", "attacked_this_turn", ability=BLINK.name)
    refused(f, P1, "use_ability_card", "attacked_this_turn", card=SMOKE.name)
    f.do(P1, "use_ability", ability=STRIKE.name)


def test_after_melee_no_support_escape() -> None:
    """Ruling CL-098: 格闘 is an attack action (5.6 l.1097
    「格闘攻撃とは格闘による攻撃のことです」)."""
    f = _fight()
    f.faces = [1, 1, 1, 1]
    f.do(P1, "melee", target=2, endurance=5)
    f.do(P2, "respond")
    f.do(P2, "counter", endurance=3)
    assert list(f.combat.turn_actions) == ["攻撃"]
    f.do(P1, "combat_next")  # → 支援フェイズ2
    refused(f, P1, "use_ability", "attacked_this_turn", ability=BLINK.name)


def test_after_an_escape_card_no_support_attack() -> None:
    f = _fight()
    f.do(P1, "play_card", card="テレポート", kind="逃避", esp_level=6)
    assert f.combat.fighters[1].left and list(f.combat.turn_actions) == ["逃避"]
    f.do(P1, "combat_next")  # → 支援フェイズ2
    refused(f, P1, "use_ability", "escaped_this_turn", ability=STRIKE.name)
    refused(f, P1, "use_ability_card", "escaped_this_turn", card=FLARE.name)
    (again,) = f.do(P1, "use_ability_card", card=SMOKE.name)  # out already: leaves nothing
    assert isinstance(again, AbilityCardUsed) and not again.escaped


def test_a_preemptive_escape_that_did_nothing_still_counts() -> None:
    """Ruling CL-096: the [逃避] action was taken, though it did nothing; the next main action is
    no attack."""
    f = _fight()
    (used,) = f.do(P1, "main_ability", ability=HUNCH.name, no_effect=True)
    assert not f.combat.main_done and not f.combat.fighters[1].left
    assert list(f.combat.turn_actions) == ["逃避"] and _line(used)
    refused(
        f,
        P1,
        "play_card",
        "escaped_this_turn",
        card="ビームキャノン",
        kind="攻撃",
        target=2,
        esp_level=6,
    )
    refused(f, P1, "melee", "escaped_this_turn", target=2, endurance=3)
    refused(f, P1, "main_ability", "escaped_this_turn", ability=LUNGE.name)
    f.do(P1, "main_ability", ability=FLEE.name)
    after = f.combat  # read afresh (mypy keeps the narrowing of f.combat.main_done above)
    assert after.fighters[1].left and after.main_done


def test_an_answer_to_an_attack_is_no_support_or_main_action() -> None:
    """Ruling CL-099: the target's escape is [対抗(攻撃)], recorded in nobody's combat turn; and
    the list starts empty at each combat turn."""
    f = _fight()
    f.do(P1, "play_card", card="ビームキャノン", kind="攻撃", target=2, esp_level=6)
    f.do(P3, "no_sync")
    f.do(P2, "respond", card="ハイテレポート", kind="逃避", esp_level=4)
    assert f.combat.fighters[2].left and list(f.combat.turn_actions) == ["攻撃"]
    f.do(P1, "combat_next")  # → 支援フェイズ2
    f.do(P1, "use_ability", ability=STRIKE.name)
    out = f.do(P1, "combat_next")  # seat 3's combat turn
    assert any(isinstance(e, CombatTurnBegun) and e.fighter == 3 for e in out)
    assert list(f.combat.turn_actions) == []


def test_a_refusal_cites_the_rule() -> None:
    f = _fight()
    _phase(f, "support1")
    f.do(P1, "use_ability", ability=STRIKE.name)
    caught = refused(f, P1, "use_ability", "attacked_this_turn", ability=BLINK.name)
    assert "3.1" in str(caught)
