"""5.2 l.963–968: a combat turn's support phases take [支援] abilities and ability cards — the
fighter whose combat turn it is, each ability once in the turn, a [戦闘] one as well as a
[全般] one, never a [通常] one (ruling CL-093). Refusals append nothing."""

from __future__ import annotations

from domain.rulesets.chojin_locke.card_events import AbilityCardUsed, AbilityUsed
from domain.rulesets.chojin_locke.cards import Ability
from tests.rulesets.chojin_locke.combat_domain import fight, refused

P1, P2 = "seat:1", "seat:2"
ASSIST = Ability(name="援護", tags=("戦闘", "支援"))
ORDERS = Ability(name="指揮", tags=("全般", "支援"))
TALK = Ability(name="世間話", tags=("通常", "支援"))
SIGHT = Ability(name="透視", tags=("全般",))


def test_support_abilities_in_a_combat_turns_support_phases() -> None:
    f = fight({1: [], 2: [], 3: []}, sheet_updates={2: {"abilities": (ASSIST, ORDERS, TALK)}})
    f.state = f.state.model_copy(
        update={
            "players": {
                **f.state.players,
                2: f.state.players[2].model_copy(
                    update={"abilities": ["テレパシー", "ランダムテレポート"]}
                ),
            }
        }
    )
    refused(f, P2, "use_ability", "not_your_combat_turn", ability=ASSIST.name)
    f.do(P1, "combat_pass")
    f.do(P1, "combat_next")
    f.do(P1, "combat_next")  # seat 2's combat turn, check phase
    refused(f, P2, "use_ability", "wrong_phase", ability=ASSIST.name)
    f.do(P2, "combat_next")  # → 支援フェイズ1
    (used,) = f.do(P2, "use_ability", ability=ASSIST.name)
    assert isinstance(used, AbilityUsed) and used.ability == ASSIST.name and not used.main
    assert list(f.combat.supported) == [ASSIST.name]
    assert f.state.turn is not None and list(f.state.turn.supported) == []
    refused(f, P2, "use_ability", "used_this_turn", ability=ASSIST.name)
    f.do(P2, "use_ability", ability=ORDERS.name)
    refused(f, P2, "use_ability", "not_in_combat", ability=TALK.name)
    refused(f, P2, "use_ability", "no_such_ability", ability="時間停止")
    (card,) = f.do(P2, "use_ability_card", card="テレパシー")  # [全般][支援]
    assert isinstance(card, AbilityCardUsed) and list(f.state.players[2].face_up) == ["テレパシー"]
    f.do(P2, "combat_next")  # → 主要
    refused(f, P2, "use_ability", "wrong_phase", ability=ORDERS.name)
    f.do(P2, "combat_pass")
    f.do(P2, "combat_next")  # → 支援フェイズ2: the same turn, each still once
    refused(f, P2, "use_ability", "used_this_turn", ability=ASSIST.name)
    f.do(P2, "combat_next")  # seat 3's turn
    assert list(f.combat.supported) == []


def test_other_abilities_keep_the_normal_turns_way() -> None:
    # an unnamed [全般] ability is the turn player's at any time of its turn (3.1 l.261–262)
    f = fight({1: []}, sheet_updates={1: {"abilities": (SIGHT,)}})
    (used,) = f.do(P1, "use_ability", ability=SIGHT.name)
    assert isinstance(used, AbilityUsed) and used.ability is None and used.secret is not None
