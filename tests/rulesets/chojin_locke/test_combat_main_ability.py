"""5.2 主要フェイズ l.975: a [主要] or [先制] ability or ability card as a combat turn's main
action (combat/main_ability.py, ruling CL-095)."""

from __future__ import annotations

from domain.rulesets.chojin_locke.combat.main_ability import MainAbilityUsed
from domain.rulesets.chojin_locke.party_events import PartyDissolved
from tests.rulesets.chojin_locke.combat_domain import fight, refused, with_ability

P1, P2 = "seat:1", "seat:2"


def test_a_main_ability_is_the_main_action_named_aloud() -> None:
    f = fight({}, sheet_updates={1: with_ability("念動波", "主要", "攻撃")})
    refused(f, P1, "main_ability", "no_such_ability", ability="瞬間移動")
    refused(f, P2, "main_ability", "not_your_combat_turn", ability="念動波")
    (used,) = f.do(P1, "main_ability", ability="念動波", effect="席2に火力3")
    assert isinstance(used, MainAbilityUsed) and used.ability == "念動波" and not used.escaped
    assert f.combat.main_done and f.combat.attacked  # l.933: an attack action
    refused(f, P1, "main_ability", "main_action_used", ability="念動波")
    refused(f, P1, "combat_pass", "main_action_used")


def test_a_support_or_counter_ability_is_no_main_action() -> None:
    f = fight({}, sheet_updates={1: with_ability("援護", "支援")})
    refused(f, P1, "main_ability", "wrong_timing", ability="援護")
    daily = fight({}, sheet_updates={1: {"abilities": ()}})
    refused(daily, P1, "main_ability", "no_such_ability", ability="援護")


def test_a_preemptive_ability_that_did_nothing_gives_another_main_action() -> None:
    """3.1 l.269: 「[先制]の能力による効果が何もなかった場合、別の主要行動を即座に行う。」"""
    f = fight({}, sheet_updates={1: with_ability("予知", "先制")})
    (used,) = f.do(P1, "main_ability", ability="予知", no_effect=True)
    assert isinstance(used, MainAbilityUsed) and used.no_effect
    assert not f.combat.main_done
    f.do(P1, "combat_pass")
    after = f.combat  # read afresh (mypy keeps the narrowing of f.combat.main_done above)
    assert after.main_done
    main = fight({}, sheet_updates={1: with_ability("念動波", "主要")})
    refused(main, P1, "main_ability", "not_preemptive", ability="念動波", no_effect=True)


def test_an_escape_ability_leaves_the_combat_and_dissolves_the_party() -> None:
    f = fight({}, sheet_updates={1: with_ability("瞬間移動", "主要", "逃避")}, parties={1: [3]})
    events = f.do(P1, "main_ability", ability="瞬間移動")
    assert isinstance(events[0], MainAbilityUsed) and events[0].escaped
    assert any(isinstance(e, PartyDissolved) for e in events)
    assert f.combat.fighters[1].left and f.combat.main_done


def test_not_while_a_proxy_fights() -> None:
    f = fight(
        {}, sheet_updates={1: with_ability("念動波", "主要")}, fighter_updates={1: {"proxy": True}}
    )
    refused(f, P1, "main_ability", "proxy_in_use", ability="念動波")
