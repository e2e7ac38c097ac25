"""6.2 l.1330–1332 through the real deciders: an エスパー NPC holding a usable テレポート negates
a character's テレポート escape — as a main action or as an answer (the attack still evaded) —;
the character stays, its party holds; no negation without a テレポート in hand, while fainted,
for another escape card, or for a base player's escape in 秘密基地編 (ruling CL-105)."""

from __future__ import annotations

from domain.rulesets.chojin_locke.combat.action_events import AttackLanded, CardActivated
from domain.rulesets.chojin_locke.combat.negation import EscapeNegated
from domain.rulesets.chojin_locke.party_events import PartyDissolved
from tests.rulesets.chojin_locke.test_combat_esper import ESPER, of, with_esper

ESCAPE = {"card": "テレポート", "kind": "逃避", "esp_level": 1}


def test_a_main_action_teleport_is_negated_and_the_party_holds() -> None:
    f = with_esper({1: ["テレポート"], 2: [], 3: []}, ["ショックウェーブ", "テレポート"])
    f.state = f.state.model_copy(update={"parties": {1: [2]}})
    events = f.do("seat:1", "play_card", **ESCAPE)
    assert [type(e) for e in events] == [CardActivated, EscapeNegated]
    (negated,) = of(f, EscapeNegated)
    assert (negated.esper, negated.fighter, negated.card, negated.lv) == (ESPER, 1, "テレポート", 1)
    assert not f.combat.fighters[1].left
    assert f.hand(ESPER) == ["ショックウェーブ"]
    assert f.combat.discard == ["テレポート", "テレポート"]
    assert f.combat.turn_actions == ["逃避"]  # the [逃避] action was taken (3.1 l.300)
    assert dict(f.state.parties) == {1: [2]} and not of(f, PartyDissolved)


def test_an_answering_teleport_still_evades_but_its_user_stays() -> None:
    f = with_esper({1: [], 2: ["テレポート"], 3: []}, ["テレポート"])
    f.do("seat:1", "melee", target=2, endurance=1)  # a 格闘 is an LV 1 attack (5.6 l.1103)
    events = f.do("seat:2", "respond", card="テレポート", esp_level=1)
    landed = next(e for e in events if isinstance(e, AttackLanded))
    assert landed.outcome == "evaded"
    assert isinstance(events[-1], EscapeNegated) and events[-1].fighter == 2
    assert not f.combat.fighters[2].left and f.combat.attack is None


def test_no_negation_without_a_usable_teleport() -> None:
    for esper_hand, update in ((["ショックウェーブ"], {}), (["テレポート"], {"fainted_until": 1})):
        f = with_esper({1: ["テレポート"], 2: [], 3: []}, esper_hand, **update)
        events = f.do("seat:1", "play_card", **ESCAPE)
        assert not any(isinstance(e, EscapeNegated) for e in events)
        assert f.combat.fighters[1].left


def test_another_escape_card_is_not_negated() -> None:
    f = with_esper({1: ["ハイテレポート"], 2: [], 3: []}, ["テレポート"])
    events = f.do("seat:1", "play_card", card="ハイテレポート", kind="逃避", esp_level=4)
    assert not any(isinstance(e, EscapeNegated) for e in events)
    assert f.combat.fighters[1].left


def test_in_the_base_stage_only_an_explorers_teleport_is_negated() -> None:
    f = with_esper({1: ["テレポート"], 2: [], 3: []}, ["テレポート"])
    base = f.state.players[1].model_copy(update={"side": "base"})
    f.state = f.state.model_copy(update={"stage": "base", "players": {**f.state.players, 1: base}})
    events = f.do("seat:1", "play_card", **ESCAPE)
    assert not any(isinstance(e, EscapeNegated) for e in events)
    assert f.combat.fighters[1].left
