"""The numbers of the seed, pinned one by one (mech-d20-seed-notes.md), each with its line."""

from __future__ import annotations

import pytest

from domain.rulesets.mech_d20 import advantage, attack_roll, damage, health, saves
from domain.rulesets.mech_d20.bonuses import Modifier, stacked
from domain.rulesets.mech_d20.durations import ending, ending_at_start
from domain.rulesets.mech_d20.manoeuvres import CHARGE_MODIFIERS, TOTAL_DEFENCE_EFFECT
from domain.rulesets.mech_d20.rounding import halved
from domain.rulesets.mech_d20.sheet import basic_attacks

from .units import sheet, unit, with_effect

MELEE, RANGED = basic_attacks(3)
BURST = RANGED.model_copy(update={"name": "拡散ビーム", "range": "遠隔範囲", "targets": 20})


def test_saving_throw_succeeds_on_10_or_more() -> None:
    """L306 「1d20を1回振り、10以上が出れば成功、9以下ならば失敗」."""
    assert [saves.succeeds(n) for n in (1, 9, 10, 20)] == [False, False, True, True]


@pytest.mark.parametrize(
    ("natural", "surges", "outcome"),
    [
        (1, 2, "failure"),
        (9, 2, "failure"),
        (10, 2, "success"),
        (19, 2, "success"),
        (20, 2, "recovered"),
        (20, 0, "success"),  # ruling MD-005
    ],
)
def test_death_save_outcomes(natural: int, surges: int, outcome: str) -> None:
    """L446–448 「9以下が失敗、10以上で成功である…達成値が20以上であった場合…回復力を消費して
    hpを回復力値まで回復し」; with no 回復力 left a 20 is a plain success (ruling MD-005)."""
    assert health.death_save(natural, surges) == outcome


def test_three_death_save_failures_wreck_the_unit() -> None:
    """L447 「1遭遇中にこのセーヴに合計3回以上失敗すると君の機体は修理不能となり」."""
    assert [health.wrecked(n) for n in (0, 1, 2, 3)] == [False, False, False, True]


def test_total_defence_is_plus_3_untyped_until_the_start_of_the_next_turn() -> None:
    """L90 「次の自身のターン開始時まで全ての防御値に+3の無名ボーナスを得る」."""
    me = unit("me", turns=2)
    shield = {
        "modifiers": [{"name": "シールド", "value": 2, "type": "盾", "applies": "AC"}],
        "duration": "encounter",
    }
    guarded = with_effect(me, shield, eid=1)
    assert attack_roll.defence(guarded, "AC").value == 20
    when = ending(TOTAL_DEFENCE_EFFECT, user=me, target=me)
    both = with_effect(guarded, TOTAL_DEFENCE_EFFECT, eid=2, ending=when)
    assert attack_roll.defence(both, "AC").value == 23  # untyped: stacks with the typed +2
    assert attack_roll.defence(both, "反応").value == 18  # every defence
    assert (when.kind, when.unit, when.turn) == ("start_of_next_turn", "me", 3)
    assert ending_at_start({"me": both}, "me", 2) == ()
    assert ending_at_start({"me": both}, "me", 3) == (2,)


def test_charge_is_plus_1_untyped_to_attack_and_damage() -> None:
    """L84 「命中ロールとダメージロールに+1の無名ボーナスを得て近接基礎攻撃を行なう」."""
    typed = Modifier(name="集中", value=1, type="パワー")
    assert stacked([*CHARGE_MODIFIERS[:1], typed]) == 2  # untyped stacks with typed
    assert stacked([CHARGE_MODIFIERS[0], CHARGE_MODIFIERS[0]]) == 1  # same name: once
    terms = damage.terms(
        sheet(), MELEE, sheet().weapon("ビームサーベル"), modifiers=CHARGE_MODIFIERS[1:]
    )
    assert terms.expression == "1D8+6"  # 【出力】4 + 強化1 + 突撃1


def test_typed_bonuses_take_the_highest_untyped_stack_except_same_named() -> None:
    """L8–9 「同じ種類のボーナスは累積せず、最も高いもののみ…無名ボーナスは累積するが…同じ名称の
    パワーやアイテムから得られるボーナスは累積されない」."""
    mods = [
        Modifier(name="A", value=2, type="パワー"),
        Modifier(name="B", value=3, type="パワー"),
        Modifier(name="C", value=1),
        Modifier(name="D", value=1),
        Modifier(name="D", value=2),
    ]
    assert stacked(mods) == 3 + 1 + 2


def test_penalties_stack_except_same_named() -> None:
    """Ruling MD-009 (seed silent on penalties): all stack, except two from the same-named
    source."""
    mods = [
        Modifier(name="X", value=-2),
        Modifier(name="X", value=-1),
        Modifier(name="Y", value=-2),
    ]
    assert stacked(mods) == -4


def test_unseen_target_is_minus_5_or_minus_3_for_area_attacks() -> None:
    """L381 「不可視の目標に対して近接攻撃または遠隔攻撃を行なう場合、命中ロールに-5のペナルティ
    …近接範囲攻撃および遠隔範囲攻撃は-5のペナルティではなく-3のペナルティを受ける」."""
    target = unit("t")
    assert [m.value for m in attack_roll.situational(target, MELEE, seen=False)] == [-5]
    assert [m.value for m in attack_roll.situational(target, RANGED, seen=False)] == [-5]
    assert [m.value for m in attack_roll.situational(target, BURST, seen=False)] == [-3]
    assert attack_roll.situational(target, MELEE, seen=True) == []


def test_prone_target_is_minus_2_for_ranged_and_area_attacks() -> None:
    """L347 「倒れて伏せ状態の敵に対して行なう遠隔攻撃および遠隔範囲攻撃は…命中ロールに-2」."""
    target = unit("t", prone=True)
    assert [m.value for m in attack_roll.situational(target, RANGED, seen=True)] == [-2]
    assert [m.value for m in attack_roll.situational(target, BURST, seen=True)] == [-2]
    assert attack_roll.situational(target, MELEE, seen=True) == []


def test_combat_advantage_is_plus_2_never_more() -> None:
    """L335–337 「+2のボーナス…複数の戦術的優位を与えるような状態…増加したり重複したりする
    ことはない」: 伏せ and 幻惑 against a melee attack are still +2."""
    attacker = unit("a")
    target = with_effect(unit("t", prone=True), {"conditions": ["幻惑"]})
    found = advantage.sources(attacker, target, MELEE, declared=["挟撃"], seen=True)
    assert found == ("幻惑", "伏せ", "挟撃")
    bonus = advantage.modifier(found)
    assert bonus is not None and bonus.value == 2


def test_combat_advantage_needs_sight_of_the_target() -> None:
    """L340 「戦術的優位を得るためには目標を見ることができなければならない」."""
    blind = with_effect(unit("a"), {"conditions": ["盲目"]})
    target = with_effect(unit("t"), {"conditions": ["朦朧"]})
    assert advantage.sources(blind, target, MELEE, declared=(), seen=True) == ()
    assert advantage.sources(unit("a"), target, MELEE, declared=(), seen=False) == ()


def test_helpless_is_minus_5_to_every_defence() -> None:
    """L393 「無防備状態のキャラクター…全ての防御値に-5のペナルティを受ける」; 戦闘不能 makes a
    unit 無防備 (L444)."""
    down = unit("t", status="戦闘不能", hp=-2)
    assert attack_roll.defence(down, "AC").value == 13
    assert attack_roll.defence(down, "反応").value == 10


def test_fractions_round_toward_minus_infinity() -> None:
    """L11 「負の数の場合より小さい方に合わせるので、厳密には切り捨てではなく切り下げである」."""
    assert [halved(v) for v in (7, 6, 1, 0, -1, -7)] == [3, 3, 0, 0, -1, -4]
    assert damage.dealt(hit=False, critical=False, half_on_miss=True, rolled=13, crit_total=0) == 6


def test_critical_hit_maximises_the_normal_dice_and_rolls_crit_only_dice() -> None:
    """L297–298 「2W+【出力】…1Wが1d10だったとすると…20であるものとして扱われ、20+【出力】」;
    L299 class-feature extra dice maximised too; L300–301 crit-only dice rolled."""
    rifle = {"name": "ライフル", "die": "1d10", "crit_dice": "1d6"}
    owner = sheet(weapons=[rifle])
    strike = MELEE.model_copy(update={"hit": MELEE.hit.model_copy(update={"weapon_dice": 2})})  # type: ignore[union-attr]
    terms = damage.terms(owner, strike, owner.weapon("ライフル"), extra_dice=["1d6"])
    assert terms.expression == "2D10+1D6+4"
    assert terms.maximum == 20 + 6 + 4
    assert terms.crit_dice == ((1, 6),)


def test_basic_attacks_deal_2w_from_level_14() -> None:
    """L68–69 「ヒット 1W+【出力】ダメージ。レベル14 2W+【出力】ダメージ。」"""
    assert basic_attacks(13)[0].hit.weapon_dice == 1  # type: ignore[union-attr]
    assert basic_attacks(14)[0].hit.weapon_dice == 2  # type: ignore[union-attr]
    assert basic_attacks(14)[1].attack.ability == "敏捷力"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("level", "threshold"), [(1, -8), (4, -8), (5, -13), (9, -18), (13, -23), (17, -28), (30, -28)]
)
def test_explosion_thresholds_by_level(level: int, threshold: int) -> None:
    """L453–454 「hpがマイナス耐久力基本値…レベル5…-(耐久力基本値+5)以下、9レベル…+10…
    13レベル…+15…13レベル(read as 17)…+20」 (ruling MD-004), with 耐久力基本値 8."""
    assert health.explosion_threshold(level, 8) == threshold


def test_explosion_happens_at_the_threshold_not_only_below() -> None:
    """Ruling MD-004: 「マイナス耐久力基本値になった場合」 read as 以下."""
    hurt = unit("u", hp=1)
    assert health.damaged(hurt, 9).status == "爆散"  # hp −8 = −B
    assert health.damaged(hurt, 8).status == "戦闘不能"  # hp −7


def test_bloodied_at_half_max_hp_or_less() -> None:
    """L437 「機体のhpが最大hpの1/2以下になった状態」: max 41 → 20 is 半壊, 21 is not."""
    assert [health.bloodied(hp, 41) for hp in (21, 20, 0)] == [False, True, True]


def test_healing_from_below_zero_counts_from_zero() -> None:
    """L461–462 「現在hpがマイナス9点の際に10点のhp回復を受けたとすると…現在hpが10点」."""
    down = unit("u", hp=-9, status="戦闘不能")
    change = health.healed(down, 10)
    assert (change.hp, change.status, change.revived) == (10, "active", True)
