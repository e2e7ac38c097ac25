"""Outside one's turn: opportunity attacks, interrupts, reactions (L178–208)."""

from __future__ import annotations

from typing import Any

from domain.rulesets.mech_d20.damage_rolls import DamageRolled
from domain.rulesets.mech_d20.resolution import ReactionResolved

from .harness import Game

GUARD = {
    "name": "ガード",
    "frequency": "遭遇毎",
    "action": "即応・割込",
    "range": "近接範囲",
    "targets": 1,
    "effects": [
        {
            "modifiers": [{"name": "ガード", "value": 5, "type": "パワー", "applies": "AC"}],
            "duration": "start_of_next_turn",
        }
    ],
}
RIPOSTE = {
    "name": "リポスト",
    "frequency": "遭遇毎",
    "action": "即応・対応",
    "keywords": ["攻撃", "武器"],
    "range": "近接",
    "attack": {"ability": "出力", "defence": "AC"},
    "hit": {"weapon_dice": 1, "ability": "出力"},
}
STEP = {"name": "ステップ", "action": "即応・割込", "range": "自身", "targets": 0}


def three(**aki: Any) -> Game:
    """aki (seat 1) and ben (seat 2) against the boss; the boss acts first."""
    game = Game()
    game.add("aki", **aki)
    game.add("ben", owner="seat:2", powers=[GUARD, RIPOSTE, STEP])
    game.add("boss", kind="npc", max_hp=80)
    game.begin({"boss": 19, "aki": 10, "ben": 5})
    game.do("gm", "start_turn")
    return game


def claw(game: Game, target: str, **body: Any) -> int:
    """The boss's melee basic attack, declared: its seq (the trigger to answer)."""
    game.do("gm", "use_power", unit="boss", power="近接基礎攻撃", targets=[target], **body)
    return game.encounter.attacks[-1].seq


def test_melee_attacks_do_not_provoke_ranged_ones_do() -> None:
    """L227 「近接攻撃は機会攻撃を発生させない」; L252 「遠隔攻撃は機会攻撃を発生させる」."""
    game = three()
    trigger = claw(game, "aki", weapon="ビームサーベル")
    game.refused("seat:1", "opportunity_attack", "does_not_provoke", unit="aki", trigger=trigger)
    game = three()
    game.do(
        "gm",
        "use_power",
        unit="boss",
        power="遠隔基礎攻撃",
        targets=["aki"],
        weapon="ビームライフル",
    )
    shot = game.rules.encounter.attacks[-1].seq  # type: ignore[union-attr]
    game.refused(
        "seat:1",
        "opportunity_attack",
        "not_a_melee_basic_attack",
        unit="aki",
        trigger=shot,
        power="遠隔基礎攻撃",
    )
    game.do("seat:1", "opportunity_attack", unit="aki", trigger=shot, weapon="ビームサーベル")
    assert [a.unit for a in game.encounter.attacks] == ["boss", "aki"]  # resolved first
    game.refused("seat:2", "attack_roll", "not_your_unit", faces=[2])
    game.do("seat:1", "attack_roll", faces=[2])
    assert [a.unit for a in game.encounter.attacks] == ["boss"]


def test_a_normal_move_away_provokes_a_shift_does_not() -> None:
    """L105 シフト 「機会攻撃を誘発しない」; L188 normal move away."""
    game = three()
    (shift,) = game.do("gm", "move", unit="boss", kind="シフト")
    assert not shift.provokes
    game.refused(
        "seat:1", "opportunity_attack", "does_not_provoke", unit="aki", trigger=game.state.version
    )
    game.do("gm", "move", unit="boss", kind="通常移動")
    game.do(
        "seat:1",
        "opportunity_attack",
        unit="aki",
        trigger=game.state.version,
        weapon="ビームサーベル",
    )


def test_immediate_actions_only_off_turn_and_with_a_trigger() -> None:
    """Ruling MD-010: never on one's own turn; L192–193: they answer a trigger."""
    game = three()
    game.refused("seat:2", "use_power", "trigger_needed", unit="ben", power="ステップ")
    game.do("gm", "end_turn")
    game.do("seat:1", "start_turn")
    game.do("seat:1", "end_turn")
    game.do("seat:2", "start_turn")
    game.refused("seat:2", "use_power", "not_on_own_turn", unit="ben", power="ステップ")


def test_an_interrupt_after_the_roll_can_turn_a_hit_into_a_miss() -> None:
    """L195–196 「防御値が上がった結果トリガーとなった攻撃を防ぐこともできる」."""
    game = three()
    trigger = claw(game, "aki", weapon="ビームサーベル")
    game.do("gm", "attack_roll", faces=[10])  # 10 + 4 + 3 + 2 + 1 = 20 ≥ AC 18
    assert game.encounter.attacks[-1].rolls[0].hit
    game.do("seat:2", "use_power", unit="ben", power="ガード", targets=["aki"], trigger=trigger)
    (dealt, *rest) = game.do("gm", "damage_roll", faces=[8])
    assert isinstance(dealt, DamageRolled)
    assert dealt.dealt[0].negated and dealt.dealt[0].amount == 0 and not rest
    assert game.unit("aki").hp == 40
    game.refused(
        "seat:2",
        "use_power",
        "immediate_action_used",
        unit="ben",
        power="ステップ",
        trigger=trigger,
    )


def test_a_reaction_declared_while_its_trigger_waits_resolves_after_it() -> None:
    """L197–198 「自分がダメージを受けてからそのアクションを処理する」."""
    game = three()
    trigger = claw(game, "ben", weapon="ビームサーベル")
    (queued,) = game.do(
        "seat:2",
        "use_power",
        unit="ben",
        power="リポスト",
        targets=["boss"],
        weapon="ビームサーベル",
        trigger=trigger,
    )
    assert queued.queued and game.encounter.immediate_used == ("ben",)
    game.do("gm", "attack_roll", faces=[15])
    after = game.do("gm", "damage_roll", faces=[3])
    (resolved,) = [e for e in after if isinstance(e, ReactionResolved)]
    assert not resolved.voided and game.unit("ben").hp == 40 - 8
    assert [a.unit for a in game.encounter.attacks] == ["ben"]
    game.do("seat:2", "attack_roll", faces=[12])


def test_a_reaction_is_void_with_nothing_spent_when_its_trigger_drops_its_user() -> None:
    """L199 「戦闘不能になったり…宣言がされなかったものとしてパワーの使用回数は消費されない」."""
    game = three()
    game.do("gm", "adjust", unit="ben", hp=-35, reason="earlier fight")
    trigger = claw(game, "ben", weapon="ビームサーベル")
    game.do(
        "seat:2",
        "use_power",
        unit="ben",
        power="リポスト",
        targets=["boss"],
        weapon="ビームサーベル",
        trigger=trigger,
    )
    game.do("gm", "attack_roll", faces=[15])
    after = game.do("gm", "damage_roll", faces=[3])
    (resolved,) = [e for e in after if isinstance(e, ReactionResolved)]
    assert resolved.voided and game.unit("ben").status == "戦闘不能"
    assert game.encounter.immediate_used == () and not game.encounter.attacks


def test_no_off_turn_action_while_dazed_or_unable_to_see() -> None:
    """L203–207."""
    game = three()
    game.do("gm", "add_effect", unit="aki", effect={"conditions": ["幻惑"]}, reason="test")
    game.do(
        "gm",
        "use_power",
        unit="boss",
        power="遠隔基礎攻撃",
        targets=["ben"],
        weapon="ビームライフル",
    )
    shot = game.encounter.attacks[-1].seq
    game.refused("seat:1", "opportunity_attack", "cannot_act_off_turn", unit="aki", trigger=shot)
    game.refused(
        "seat:2",
        "opportunity_attack",
        "cannot_act_off_turn",
        unit="ben",
        trigger=shot,
        sees_trigger=False,
    )


def test_the_immediate_action_comes_back_with_the_next_round() -> None:
    """Ruling MD-001: L194 「1ラウンドに1回」, reset when a new round begins (L28)."""
    game = three()
    first = claw(game, "ben", weapon="ビームサーベル")
    game.do("seat:2", "use_power", unit="ben", power="ステップ", trigger=first)
    game.do("gm", "attack_roll", faces=[1])
    game.do("gm", "end_turn")
    game.do("seat:1", "start_turn")
    game.do("seat:1", "end_turn")
    game.do("seat:2", "start_turn")
    game.do("seat:2", "end_turn")
    assert game.encounter.round == 2 and game.encounter.immediate_used == ()
    game.do("gm", "start_turn")
    second = claw(game, "ben", weapon="ビームサーベル")
    game.do("seat:2", "use_power", unit="ben", power="ステップ", trigger=second)


def test_a_queued_reaction_without_an_attack_takes_effect_after_its_trigger() -> None:
    """L197: a 即応・対応 resolves once its trigger has; its effects on its user start then."""
    brace = {
        "name": "ブレース",
        "action": "即応・対応",
        "range": "自身",
        "targets": 0,
        "self_effects": [
            {
                "modifiers": [{"name": "ブレース", "value": 2, "applies": "defences"}],
                "duration": "encounter",
            }
        ],
    }
    game = Game()
    game.add("aki")
    game.add("ben", owner="seat:2", powers=[brace])
    game.add("boss", kind="npc", max_hp=80)
    game.begin({"boss": 19, "aki": 10, "ben": 5})
    game.do("gm", "start_turn")
    trigger = claw(game, "ben", weapon="ビームサーベル")
    game.do("seat:2", "use_power", unit="ben", power="ブレース", trigger=trigger)
    assert not game.unit("ben").effects  # declared, not yet in effect
    after = game.do("gm", "attack_roll", faces=[1])
    assert [type(e).__name__ for e in after] == [
        "AttackRolled",
        "ReactionResolved",
        "EffectApplied",
    ]
    assert game.unit("ben").effects[0].power == "ブレース"


def test_a_reaction_whose_trigger_did_not_happen_is_withdrawn_with_nothing_spent() -> None:
    """L199's 「宣言がされなかったものとして」 for a trigger that turned out otherwise (a miss
    for 「攻撃が自身にヒットする」); only the GM withdraws other waiting powers."""
    game = three()
    trigger = claw(game, "ben", weapon="ビームサーベル")
    game.do(
        "seat:2",
        "use_power",
        unit="ben",
        power="リポスト",
        targets=["boss"],
        weapon="ビームサーベル",
        trigger=trigger,
    )
    game.refused("seat:1", "withdraw", "not_your_unit", reason="x")
    game.do("gm", "attack_roll", faces=[1])  # a miss: the riposte's trigger did not happen
    assert game.encounter.attacks[-1].unit == "ben"
    assert "リポスト" in game.unit("ben").used_encounter  # it went ahead: its use was spent
    game.do("seat:2", "withdraw", reason="ミスだった")
    assert not game.encounter.attacks and game.encounter.immediate_used == ()
    assert "リポスト" not in game.unit("ben").used_encounter

    game = three()
    claw(game, "aki", weapon="ビームサーベル")
    game.refused("seat:2", "withdraw", "not_your_unit", reason="x")
    (withdrawn,) = game.do("gm", "withdraw", reason="宣言の誤り")
    assert not withdrawn.refunded and not game.encounter.attacks
