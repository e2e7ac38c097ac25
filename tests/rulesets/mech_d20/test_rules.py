"""The pure rules beside the numbers: action economy, initiative, saves, uses, off-turn limits."""

from __future__ import annotations

import pytest

from domain.model.errors import RuleViolation
from domain.rulesets.mech_d20 import actions, conditions, durations, hero, initiative, saves, uses
from domain.rulesets.mech_d20.effects import Effect, FailedSave
from domain.rulesets.mech_d20.sheet import Power
from domain.rulesets.mech_d20.state import Hero, Place, Turn

from .units import unit, with_effect


def test_a_turn_has_a_standard_a_move_and_a_minor_heavier_ones_taken_as_lighter() -> None:
    """L12–15 「標準アクションを移動アクションに変換したとすると…移動アクション2回と
    マイナーアクション」; L150 two minors and a standard are fine too."""
    turn, slot = actions.spend(Turn(unit="u"), "移動", None, "u")
    turn, slot = actions.spend(turn, "移動", None, "u")
    assert slot == "standard"
    turn, _ = actions.spend(turn, "マイナー", None, "u")
    with pytest.raises(RuleViolation) as refused:
        actions.spend(turn, "マイナー", None, "u")
    assert refused.value.code == "no_action_of_that_kind"


def test_a_lighter_action_is_never_taken_as_a_heavier_one() -> None:
    """L141 「重いアクションはそれより軽いアクションに任意で変換することができる」: never upward."""
    turn, _ = actions.spend(Turn(unit="u"), "標準", None, "u")
    with pytest.raises(RuleViolation) as refused:
        actions.spend(turn, "標準", None, "u")
    assert refused.value.code == "no_action_of_that_kind"


def test_dazed_takes_one_action_stunned_none_and_a_hero_point_adds_one() -> None:
    """L383 幻惑: 「1つのアクションしか行なうことができず」; L385–386 朦朧: none, but
    「ヒーローポイントを消費することで追加のアクションを得ることはできる」."""
    dazed = with_effect(unit("u"), {"conditions": ["幻惑"]})
    stunned = with_effect(unit("u"), {"conditions": ["朦朧"]})
    assert conditions.action_limit(dazed) == 1
    assert conditions.action_limit(stunned) == 0
    turn, _ = actions.spend(Turn(unit="u"), "マイナー", 1, "u")
    with pytest.raises(RuleViolation) as refused:
        actions.spend(turn, "移動", 1, "u")
    assert refused.value.code == "no_actions_left"
    bought = actions.hero_action(Turn(unit="u"))
    bought, _ = actions.spend(bought, "標準", 0, "u")
    with pytest.raises(RuleViolation):
        actions.spend(bought, "マイナー", 0, "u")


def test_nothing_after_a_charge() -> None:
    """L85 「突撃を行った後は、自身にアクションが残っていたとしてもそこで自身のターンは終了」."""
    with pytest.raises(RuleViolation) as refused:
        actions.spend(Turn(unit="u", charged=True, standard=0), "移動", None, "u")
    assert refused.value.code == "turn_over_after_charge"


def test_initiative_ties_go_to_agility_then_players_then_the_stated_order() -> None:
    """L41–42 「同値…【敏捷力】の高い順…【敏捷力】も同じだったならば、プレイヤー優先」; the
    rest by the table's order (ruling MD-003)."""
    places = [
        Place(unit="npc", value=15, agility=3, pc=False, tie=0),
        Place(unit="pc2", value=15, agility=3, pc=True, tie=2),
        Place(unit="pc1", value=15, agility=3, pc=True, tie=1),
        Place(unit="fast", value=15, agility=5, pc=False, tie=3),
        Place(unit="top", value=18, agility=0, pc=False, tie=4),
    ]
    assert [p.unit for p in initiative.ordered(places)] == ["top", "fast", "pc1", "pc2", "npc"]


def test_a_delayed_unit_keeps_its_lower_place() -> None:
    """L163–166 「イニシアチブ値を任意の値まで下げる…一度下げたイニシアチブ値はラウンドが回っても
    下がったまま」."""
    order = initiative.ordered(
        Place(unit=u, value=v, agility=0, pc=True, tie=i)
        for i, (u, v) in enumerate([("a", 20), ("b", 15), ("c", 10)])
    )
    later = initiative.delayed(order, "a", 12)
    assert [p.unit for p in later] == ["b", "a", "c"]
    assert initiative.next_up(later, done=(), out=()) == "b"
    assert initiative.next_up(later, done=("b", "a"), out=("c",)) is None


def test_a_save_ends_a_whole_rider_and_starts_its_aftereffect() -> None:
    """L313 「セーヴィング・スローを1回行ない成功すればそのパワーによる不利益は全て解除」; L323
    後効果 on a success."""
    after = Effect(conditions=("減速",))
    rider = Effect(conditions=("幻惑", "動けない"), aftereffect=after)
    target = with_effect(unit("u"), rider)
    (applied,) = saves.saving(target)
    result = saves.outcome(applied, 10)
    assert result.ends and result.starts == (after,)
    assert not saves.outcome(applied, 9).ends


def test_the_xth_failed_save_and_extra_saves_that_never_count() -> None:
    """L325 「セーヴ失敗・X回目とは、セーヴをX回失敗した際に発動する効果」; L328–329 「追加の
    セーヴィング・スローで失敗したとしても『セーヴ失敗・X回目』にはカウントされない」."""
    worse = Effect(conditions=("朦朧",))
    rider = Effect(conditions=("幻惑",), failed_saves=(FailedSave(count=2, effect=worse),))
    target = with_effect(unit("u"), rider, failed=1)
    (applied,) = saves.saving(target)
    assert saves.outcome(applied, 3, extra=True).failed == 1
    second = saves.outcome(applied, 3)
    assert (second.failed, second.starts, second.ends) == (2, (worse,), False)


def test_identical_riders_do_not_stack_different_ones_do() -> None:
    """L317–318 A and B both 「目標は幻惑状態になる(セーヴ・終了)」: one save suffices; L320–321
    C (幻惑 + AC−2) and D (幻惑 + attack −2) need two."""
    a = Effect(conditions=("幻惑",))
    c = Effect.model_validate(
        {"conditions": ["幻惑"], "modifiers": [{"name": "C", "value": -2, "applies": "AC"}]}
    )
    d = Effect.model_validate(
        {"conditions": ["幻惑"], "modifiers": [{"name": "D", "value": -2, "applies": "attack"}]}
    )
    dazed = with_effect(unit("u"), a)
    assert durations.already_has(dazed, Effect(conditions=("幻惑",)))
    with_c = with_effect(unit("u"), c)
    assert durations.already_has(with_c, c) and not durations.already_has(with_c, d)


def test_dropping_removes_every_harmful_effect_but_not_the_helpful_ones() -> None:
    """L444 「戦闘不能状態になると自身が被っている不利益な状態をすべて解消し」."""
    target = with_effect(unit("u"), {"ongoing": 5}, eid=1)
    target = with_effect(
        target, {"modifiers": [{"name": "盾", "value": 2, "applies": "AC"}]}, eid=2
    )
    assert durations.harmful(target) == (1,)


def test_encounter_and_daily_powers_once_one_spirit_command_per_encounter() -> None:
    """L10 「[精神コマンド]のキーワードを持つパワーを使用できるのは1遭遇に1回だけ」; L128 an
    無限回 spirit command shuts out the 1日毎 one."""
    smash = Power(name="必殺", frequency="遭遇毎")
    focus = Power(name="集中", frequency="無限回", keywords=("精神コマンド",))
    zeal = Power(name="熱血", frequency="1日毎", keywords=("精神コマンド",))
    me = uses.used(uses.used(unit("u"), smash), focus)
    for power, code in ((smash, "encounter_power_used"), (zeal, "spirit_command_used")):
        with pytest.raises(RuleViolation) as refused:
            uses.check(me, power, dominated=False)
        assert refused.value.code == code
    with pytest.raises(RuleViolation) as refused:
        uses.check(unit("u"), smash, dominated=True)
    assert refused.value.code == "dominated_limited_power"


def test_hero_points_hold_one_spend_one_a_day() -> None:
    """L424 「各プレイヤーが保持できるヒーローポイントは最大1点であり、1日のうちに最大で1点」."""
    held = hero.receive(Hero(), 1)
    with pytest.raises(RuleViolation):
        hero.receive(held, 1)
    spent = hero.spend(held, 1, day=1)
    again = hero.receive(spent, 1)
    with pytest.raises(RuleViolation) as refused:
        hero.spend(again, 1, day=1)
    assert refused.value.code == "hero_point_spent_today"
    assert hero.spend(again, 1, day=2).held == 0


def test_off_turn_actions_need_an_able_unit_that_sees_the_trigger() -> None:
    """L203–208: not 幻惑/朦朧/戦闘不能; sees the trigger's source (a 盲目 unit never does),
    unless it triggered it itself."""
    able = unit("u")
    assert conditions.cannot_act_off_turn(able, self_trigger=False, sees_trigger=True) is None
    dazed = with_effect(able, {"conditions": ["幻惑"]})
    assert conditions.cannot_act_off_turn(dazed, self_trigger=False, sees_trigger=True)
    blind = with_effect(able, {"conditions": ["盲目"]})
    assert conditions.cannot_act_off_turn(blind, self_trigger=False, sees_trigger=True)
    assert conditions.cannot_act_off_turn(blind, self_trigger=True, sees_trigger=True) is None
    down = unit("u", status="戦闘不能", hp=0)
    assert conditions.cannot_act_off_turn(down, self_trigger=True, sees_trigger=True)
