"""6.2 障害に対する幻覚 through the real deciders: no 幻覚 against an unaffected obstacle's
attack, none in the main phase when only unaffected obstacles are left to it, none aimed at one;
an affected obstacle takes it without a resistance check (l.1312–1318, ruling CL-087)."""

from __future__ import annotations

from typing import Any

from domain.rulesets.chojin_locke.cards import CombatCard
from domain.rulesets.chojin_locke.combat.action_events import AttackLanded, CardActivated
from domain.rulesets.chojin_locke.combat.illusion import IllusionTook
from domain.rulesets.chojin_locke.combat.obstacles import ObstacleJoined
from domain.rulesets.chojin_locke.combat.state import Fighter
from tests.rulesets.chojin_locke.combat_domain import ROCK, Fight, fight, refused
from tests.rulesets.chojin_locke.lines import described

ILLUSIONS = (
    CombatCard(name="幻覚", lv=2, kinds=("特殊",), illusion=True, count=2),
    CombatCard(name="幻影", lv=2, kinds=("防御",), illusion=True, count=2),
)


def with_illusions(f: Fight) -> Fight:
    catalog = f.state.catalog.model_copy(
        update={"combat_cards": (*f.state.catalog.combat_cards, *ILLUSIONS)}
    )
    f.state = f.state.model_copy(update={"catalog": catalog})
    f.start = f.state
    return f


def obstacle(f: Fight, name: str, immune: bool) -> int:
    (joined,) = f.do(
        "host", "add_obstacle", name=name, members=[2], firepower=3, illusion_immune=immune
    )
    assert isinstance(joined, ObstacleJoined)
    return joined.fighter


def of(f: Fight, kind: type, start: int = 0) -> list[Any]:
    return [e for e, _ in f.events[start:] if isinstance(e, kind)]


def test_no_illusion_in_the_main_phase_when_only_unaffected_obstacles_are_left() -> None:
    """l.1317–1318: 「自分以外の全ての戦闘参加者が幻覚の効果を受けない障害のみの場合、主要
    フェイズで幻覚を使用することもできません。」"""
    f = with_illusions(fight({1: ["幻覚", "幻覚"]}, (ROCK,)))
    golem = obstacle(f, "ゴーレム", immune=True)
    refused(f, "seat:1", "play_card", "illusion_no_effect", card="幻覚", kind="特殊", esp_level=6)
    police = obstacle(f, "警官隊", immune=False)
    refused(
        f,
        "seat:1",
        "play_card",
        "illusion_immune",
        card="幻覚",
        kind="特殊",
        target=golem,
        esp_level=6,
    )
    out = f.do("seat:1", "play_card", card="幻覚", kind="特殊", target=police, esp_level=6)
    (used,) = [e for e in out if isinstance(e, CardActivated)]
    assert used.target == police and used.success and f.combat.attack is None
    (took,) = [e for e in out if isinstance(e, IllusionTook)]
    assert (took.fighter, took.obstacle, took.card, took.use) == (1, police, "幻覚", "main")


def test_an_illusion_among_characters_needs_no_target() -> None:
    f = with_illusions(fight({1: ["幻覚"], 2: [], 3: []}))
    obstacle(f, "ゴーレム", immune=True)
    f.do("seat:1", "play_card", card="幻覚", kind="特殊", esp_level=6)
    assert not of(f, IllusionTook) and f.combat.main_done


def test_no_illusion_against_an_unaffected_obstacles_attack() -> None:
    """l.1316: 「幻覚の効果を受けない障害の攻撃に対しては幻覚を使用できません。」"""
    f = with_illusions(fight({1: [], 2: ["幻影", "幻影"], 3: []}))
    golem = obstacle(f, "ゴーレム", immune=True)
    f.turn_of(golem)
    f.do("host", "obstacle_attack", target=2, lv=1)
    refused(f, "seat:2", "respond", "illusion_immune", card="幻影", kind="防御", esp_level=4)
    f.faces = [1, 1]
    f.do("seat:2", "respond")
    f.do("seat:2", "declare_endurance", endurance=3)


def test_an_affected_obstacle_takes_the_illusion_without_a_check() -> None:
    """l.1314: 「幻覚の効果を受ける障害は幻覚の抵抗チェックを行えません。必ず幻覚の効果を受け
    ます。」"""
    f = with_illusions(fight({1: [], 2: ["幻影"], 3: []}))
    police = obstacle(f, "警官隊", immune=False)
    f.turn_of(police)
    f.do("host", "obstacle_attack", target=2, lv=1)
    out = f.do("seat:2", "respond", card="幻影", kind="防御", esp_level=4)
    assert [type(e) for e in out] == [CardActivated, IllusionTook, AttackLanded]
    assert [e.outcome for e in out if isinstance(e, AttackLanded)] == ["blocked"]
    said = [described(e.type, e.public_part(), None) for e in out]
    assert (
        "rules",
        "NPC101の攻撃に対する席2の幻覚「幻影」: 障害は抵抗チェックを行えず、効果を受ける",
    ) in said


def test_an_esper_answers_an_unaffected_obstacle_with_no_illusion() -> None:
    f = with_illusions(fight({1: [], 2: [], 3: [], 102: ["幻影", "バリアー"]}))
    esper = Fighter(id=102, name="エスパー", kind="esper", members=[5], esp_level=3)
    f.state = f.state.model_copy(
        update={
            "combat": f.combat.model_copy(update={"fighters": {**f.combat.fighters, 102: esper}})
        }
    )
    golem = obstacle(f, "ゴーレム", immune=True)
    assert golem == 103
    f.turn_of(golem)
    out = f.do("host", "obstacle_attack", target=102, lv=1)
    (used,) = [e for e in out if isinstance(e, CardActivated)]
    assert used.card == "バリアー"  # 幻影 (LV 2 as well, first in hand) may not answer a ゴーレム
