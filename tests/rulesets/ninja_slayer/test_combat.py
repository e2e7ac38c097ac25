"""The combat sequence: phases, attacks, evasion, counters, criticals, atmosphere, Wasshoi!."""

from __future__ import annotations

from typing import Any

from .combat_setup import ADVANCE, MOBS, begin, evade, melee, table, to_attack, to_turn_of
from .harness import Game


def started() -> Game:
    game = table()
    begin(game)
    return game


def test_phases_follow_in_order_and_each_change_is_an_event() -> None:
    game = started()
    assert game.combat.order == ("boss", "ben", "aki", *MOBS)
    assert game.combat.phase == "turn_start"
    game.refused("seat:1", ADVANCE, "gm_only")  # the turn start is the GM's
    (changed,) = game.do("gm", ADVANCE)
    assert (changed.phase, changed.character) == ("teban_start", "boss")
    game.refused("seat:1", ADVANCE, "not_your_turn")
    game.refused("gm", {"type": "ninja_slayer.move"}, "wrong_phase")
    assert [game.do("gm", ADVANCE)[0].phase for _ in range(3)] == [
        "movement",
        "attack",
        "teban_end",
    ]
    game.refused("seat:2", ADVANCE, "not_your_turn")  # the boss's 手番 ends by the GM
    (next_one,) = game.do("gm", ADVANCE)
    assert (next_one.phase, next_one.character) == ("teban_start", "ben")


def test_wrong_actor_and_wrong_phase_append_nothing() -> None:
    game = started()
    to_turn_of(game, "ben")
    body = {"type": "ninja_slayer.attack", "allocations": [{"target": "boss", "faces": [1]}]}
    game.refused("seat:2", body, "wrong_phase")
    game.refused("seat:1", ADVANCE, "not_your_turn")
    game.refused("seat:1", {"type": "ninja_slayer.concentrate"}, "not_your_turn")
    game.refused("seat:2", {"type": "ninja_slayer.wasshoi"}, "gm_only")
    game.refused("gm", {"type": "ninja_slayer.wasshoi", "faces": [1, 1]}, "wrong_phase")
    game.refused("gm", {"type": "ninja_slayer.next_turn"}, "wrong_phase")


def test_concentration_skips_movement_and_eases_attack_phase_actions() -> None:
    game = started()
    to_turn_of(game, "ben")
    game.do("seat:2", {"type": "ninja_slayer.concentrate"})
    (changed,) = game.do("seat:2", ADVANCE)
    assert changed.phase == "attack"
    attack, _ = melee(game, "seat:2", "m1", [3, 1, 1])
    assert attack.detail.strikes[0].difficulty == "E"  # 集中状態: NORMAL −1
    assert attack.strikes[0].hit is True


def test_sokuten_is_a_wazamae_check_and_makes_the_next_attack_harder() -> None:
    game = started()
    to_turn_of(game, "ben")
    game.do("seat:2", ADVANCE)
    rolled, moved = game.do(
        "seat:2", {"type": "ninja_slayer.move", "style": "連続側転", "faces": [1, 1, 1, 1, 1, 4]}
    )
    assert rolled.purpose == "連続側転" and rolled.detail.pool.stat_value == 6
    assert moved.success is True
    game.refused("seat:2", {"type": "ninja_slayer.move"}, "already_moved")
    game.do("seat:2", ADVANCE)
    (attack,) = melee(game, "seat:2", "m1", [4, 4, 1])
    assert attack.detail.strikes[0].difficulty == "H"  # 連続側転: +1
    assert attack.strikes[0].hit is False
    assert game.char("ben").next_attack_difficulty == 0


def test_one_attack_phase_action_only() -> None:
    game = started()
    to_attack(game, "ben")
    game.do("seat:2", {"type": "ninja_slayer.other_action", "action": "ハッキング"})
    game.refused(
        "seat:2",
        {"type": "ninja_slayer.attack", "allocations": [{"target": "m1", "faces": [1, 1, 1]}]},
        "already_acted",
    )


def test_a_hit_on_a_mob_removes_it_at_once() -> None:
    game = started()
    to_attack(game, "ben")
    attack, taken = melee(game, "seat:2", "m1", [1, 1, 5])
    assert attack.strikes[0].hit and taken.character == "m1" and taken.status == "removed"
    assert game.combat.damages == ()
    game.to_turn_end()
    game.do("gm", {"type": "ninja_slayer.next_turn", "enemy_tie_order": ["m2", "m3"]})
    assert "m1" not in game.combat.order


def test_multi_attack_is_declared_before_rolling_and_evaded_one_by_one() -> None:
    game = started()
    to_attack(game, "boss")
    body: dict[str, Any] = {
        "type": "ninja_slayer.attack",
        "allocations": [
            {"target": "aki", "dice": 4, "faces": [4, 1, 1, 1]},
            {"target": "aki", "dice": 4, "faces": [5, 5, 1, 1]},
        ],
    }
    game.refused("gm", {**body, "allocations": body["allocations"] * 2}, "too_many_attacks")
    bad = [{**body["allocations"][0], "dice": 3}, body["allocations"][1]]
    game.refused("gm", {**body, "allocations": bad}, "allocation_mismatch")
    (attack,) = game.do("gm", body)
    assert [s.successes for s in attack.strikes] == [1, 2]
    assert all(d.time_lag for d in attack.damages)  # two attacks on one target: 時間差
    assert attack.detail is None and attack.secret is not None  # the boss's dice are the GM's
    game.refused(
        "seat:1",
        {
            "type": "ninja_slayer.evade",
            "character": "aki",
            "damages": [1, 2],
            "evasion_dice": 2,
            "faces": [4, 4],
        },
        "batch_not_allowed",
    )
    game.refused("gm", ADVANCE, "damage_pending")
    evade(game, "seat:1", "aki", [1], [4, 4])
    (taken,) = game.do("seat:1", {"type": "ninja_slayer.take_damage", "damages": [2]})
    assert game.char("aki").now.evasion == 3 and game.char("aki").now.tairyoku == 5
    assert taken.amount == 1


def test_mobs_of_one_kind_are_evaded_all_together_and_counter_one_of_them() -> None:
    game = started()
    to_attack(game, "m1")
    melee(game, "gm", "aki", [4, 1, 1])
    game.do("gm", ADVANCE)
    game.do("gm", ADVANCE)  # m2's 手番: m1's damage may wait for the squad
    game.do("gm", ADVANCE)
    game.do("gm", ADVANCE)
    melee(game, "gm", "aki", [5, 4, 1])
    assert [d.attacker for d in game.combat.damages] == ["m1", "m2"]
    (evaded,) = evade(game, "seat:1", "aki", [1, 2], [4, 4, 4])
    assert evaded.success and evaded.counter_against == ("m1", "m2")
    counter, taken = game.do(
        "seat:1", {"type": "ninja_slayer.counter_karate", "character": "aki", "target": "m2"}
    )
    assert counter.damage.kind == "counter" and taken.status == "removed"
    game.refused(
        "seat:1",
        {"type": "ninja_slayer.counter_karate", "character": "aki", "target": "m1"},
        "counter_not_earned",
    )


def test_mob_damage_must_be_resolved_before_the_turn_ends() -> None:
    game = started()
    to_attack(game, "m3")
    melee(game, "gm", "aki", [4, 1, 1])
    game.do("gm", ADVANCE)
    game.refused("gm", ADVANCE, "damage_pending")


def test_counter_karate_needs_strictly_more_successes_and_no_counter_to_a_counter() -> None:
    game = started()
    to_attack(game, "boss")
    melee(game, "gm", "aki", [6, 6, 1, 1, 1, 1, 1, 1])
    (damage,) = game.combat.damages
    assert damage.critical == "サツバツ" and damage.difficulty == "N"
    evade(game, "seat:1", "aki", [1], [4, 4, 1])  # 2 successes = the attack's 2: no counter
    game.refused(
        "seat:1",
        {"type": "ninja_slayer.counter_karate", "character": "aki", "target": "boss"},
        "counter_not_earned",
    )
    game = started()
    to_attack(game, "boss")
    melee(game, "gm", "aki", [6, 6, 1, 1, 1, 1, 1, 1])
    (evaded,) = evade(game, "seat:1", "aki", [1], [4, 4, 4])
    assert evaded.counter_against == ("boss",)
    (counter,) = game.do(
        "seat:1", {"type": "ninja_slayer.counter_karate", "character": "aki", "target": "boss"}
    )
    assert counter.damage.difficulty == "N" and counter.damage.amount == 1
    (boss_evades,) = evade(game, "gm", "boss", [2], [6, 6, 6, 6])
    assert boss_evades.success and boss_evades.counter_against == ()
    assert boss_evades.detail is None  # the boss's evasion pool stays the GM's


def test_namuamidabutsu_is_evaded_one_step_harder_and_unevaded_criticals_are_noted() -> None:
    game = started()
    to_attack(game, "boss")
    melee(game, "gm", "ben", [6, 6, 6, 1, 1, 1, 1, 1])
    (damage,) = game.combat.damages
    assert damage.critical == "ナムアミダブツ" and damage.difficulty == "H"
    evaded, taken = evade(game, "seat:2", "ben", [1], [4, 4])
    assert not evaded.success and taken.unevaded_critical == "ナムアミダブツ"


def test_mobs_and_ranged_attacks_never_crit() -> None:
    game = started()
    to_attack(game, "m1")
    (attack,) = melee(game, "gm", "aki", [6, 6, 6])
    assert attack.strikes[0].critical is None
    game = started()
    to_attack(game, "ben")
    body = {
        "type": "ninja_slayer.attack",
        "kind": "ranged",
        "allocations": [{"target": "boss", "faces": [6, 6, 6, 1, 1, 1]}],
    }
    (attack,) = game.do("seat:2", body)
    assert attack.strikes[0].critical is None and attack.detail.pool.stat == "ワザマエ"


def test_tsuda_adds_to_the_base_damage_and_only_one_applies() -> None:
    # 戦闘用バイオサイバネ: base damage 2, 痛打+1 → 3; two 痛打 do not add up.
    game = started()
    to_attack(game, "ben")
    attack, taken = melee(game, "seat:2", "m1", [4, 1, 1], base_damage=2, tsuda=[1, 1])
    assert attack.damages[0].amount == 3 and taken.amount == 3


def test_evasion_dice_reset_each_turn_and_limits_are_enforced() -> None:
    game = started()
    assert game.char("aki").now.evasion == 5  # max(カラテ 5, ニューロン 4, ワザマエ 3)
    assert game.char("ben").now.evasion == 6
    assert game.char("m1").now.evasion == 0  # mobs have none
    to_attack(game, "boss")
    melee(game, "gm", "aki", [4, 1, 1, 1, 1, 1, 1, 1])
    body = {"type": "ninja_slayer.evade", "character": "aki", "damages": [1]}
    game.refused("seat:1", {**body, "evasion_dice": 6, "faces": [1] * 6}, "not_enough_evasion_dice")
    game.refused(
        "seat:1",
        {**body, "evasion_dice": 1, "emergency_dice": 1, "faces": [1, 1]},
        "not_enough_emergency_dice",
    )
    game.refused(
        "seat:1",
        {**body, "evasion_dice": 1, "reaction_dice": 1, "faces": [1]},
        "reaction_dice_not_allowed",
    )
    game.refused("seat:2", {**body, "evasion_dice": 1, "faces": [4]}, "not_your_character")
    evade(game, "seat:1", "aki", [1], [5, 5, 5, 5, 5])
    assert game.char("aki").now.evasion == 0
    game.to_turn_end()
    game.do("gm", {"type": "ninja_slayer.next_turn", "enemy_tie_order": MOBS})
    assert game.char("aki").now.evasion == 5


def test_emergency_dice_are_usable_with_no_evasion_dice_left() -> None:
    game = Game()
    game.add(
        "seat:1",
        "aki",
        "pc",
        {"karate": 1, "neuron": 1, "wazamae": 1, "tairyoku": 3, "emergency_dice": 2},
    )
    game.add("gm", "boss", "boss", {"karate": 4, "neuron": 2, "wazamae": 2, "tairyoku": 3})
    game.do("gm", {"type": "ninja_slayer.begin_combat", "participants": ["aki", "boss"]})
    to_attack(game, "aki")
    game.to_turn_end()
    game.do("gm", {"type": "ninja_slayer.next_turn"})
    to_attack(game, "boss")
    melee(game, "gm", "aki", [4, 1, 1, 1])
    evade(game, "seat:1", "aki", [1], [1])  # the one evasion die, missed: 1 damage
    game.do("gm", ADVANCE)
    game.to_turn_end()
    game.do("gm", {"type": "ninja_slayer.next_turn"})
    game.do(
        "gm",
        {
            "type": "ninja_slayer.adjust",
            "character": "aki",
            "changes": {"evasion": -3},
            "reason": "回避ダイスダメージ",
        },
    )
    to_attack(game, "boss")
    melee(game, "gm", "aki", [4, 1, 1, 1])
    (evaded,) = evade(game, "seat:1", "aki", [2], [5, 1], emergency_dice=2, evasion_dice=0)
    assert evaded.success and evaded.detail.pool.emergency == 2
    assert game.char("aki").now.emergency == 0 and game.char("aki").now.evasion == -2


def test_atmosphere_rises_after_turns_3_and_6_in_a_boss_fight() -> None:
    game = started()
    raised = []
    for turn in range(1, 7):
        game.to_turn_end()
        raised += [e.level for e in game.events[-1:] if e.type == "ninja_slayer.AtmosphereRaised"]
        if turn < 6:
            game.do("gm", {"type": "ninja_slayer.next_turn", "enemy_tie_order": MOBS})
        if turn == 3:
            to_attack(game, "boss")
            melee(game, "gm", "aki", [4, 1, 1, 1, 1, 1, 1, 1])
            assert game.combat.damages[0].difficulty == "H"  # HARD mode: melee +1
            game.do("seat:1", {"type": "ninja_slayer.take_damage", "damages": [1]})
            to_attack(game, "m1")
            melee(game, "gm", "aki", [4, 1, 1])
            assert game.combat.damages[0].difficulty == "N"  # mob damage ignores it
            game.do("seat:1", {"type": "ninja_slayer.take_damage", "damages": [2]})
    assert raised == [1, 2]
    assert game.combat.atmosphere == 2
    game.do("gm", {"type": "ninja_slayer.next_turn", "enemy_tie_order": MOBS})
    to_attack(game, "ben")
    body = {
        "type": "ninja_slayer.attack",
        "kind": "ranged",
        "shuriken": True,
        "allocations": [{"target": "boss", "faces": [5, 1, 1, 1, 1, 1]}],
    }
    (attack,) = game.do("seat:2", body)
    assert attack.damages[0].difficulty == "H"  # ULTRA-HARD mode: スリケン +1


def test_no_atmosphere_without_a_boss() -> None:
    game = Game()
    game.add("seat:1", "aki", "pc", {"karate": 3, "neuron": 3, "wazamae": 3, "tairyoku": 3})
    game.add("gm", "m1", "mob", {"karate": 1, "neuron": 1, "wazamae": 1, "tairyoku": 1})
    game.do("gm", {"type": "ninja_slayer.begin_combat", "participants": ["aki", "m1"]})
    for _ in range(4):
        game.to_turn_end()
        game.do("gm", {"type": "ninja_slayer.next_turn"})
    assert game.combat.atmosphere == 0 and game.combat.turn == 5


def test_wasshoi_at_turn_end_against_the_highest_dkk() -> None:
    game = started()
    game.to_turn_end()
    (rolled,) = game.do("gm", {"type": "ninja_slayer.wasshoi", "faces": [2, 2]})
    assert rolled.target == 4 and rolled.highest == "ben" and rolled.success is True
    game.refused("gm", {"type": "ninja_slayer.wasshoi", "faces": [6, 6]}, "wasshoi_rolled")
    game.do("gm", {"type": "ninja_slayer.next_turn", "enemy_tie_order": MOBS})
    game.to_turn_end()
    (again,) = game.do("gm", {"type": "ninja_slayer.wasshoi", "modifier": 1, "faces": [3, 3]})
    assert again.target == 5 and again.success is False


def test_wasshoi_outside_a_combat_whenever_the_gm_sees_fit() -> None:
    game = table()
    (rolled,) = game.do("gm", {"type": "ninja_slayer.wasshoi", "faces": [1, 3]})
    assert rolled.target == 4 and rolled.success is True


def test_only_a_ninja_earns_a_counter() -> None:
    game = table(ninja=False)
    begin(game)
    to_attack(game, "ben")
    melee(game, "seat:2", "boss", [4, 1, 1])
    (evaded,) = evade(game, "gm", "boss", [1], [6, 6, 6])
    assert evaded.success and evaded.counter_against == ()


def test_a_wazamae_melee_style_uses_multi_shot_and_a_jitsu_attack_rolls_jitsu() -> None:
    game = Game()
    game.add(
        "seat:1",
        "aki",
        "pc",
        {"karate": 3, "neuron": 5, "wazamae": 6, "jitsu": 4, "tairyoku": 5, "multi_shot": 2},
    )
    game.add("gm", "boss", "boss", {"karate": 2, "neuron": 1, "wazamae": 2, "tairyoku": 9})
    game.do("gm", {"type": "ninja_slayer.begin_combat", "participants": ["aki", "boss"]})
    to_attack(game, "aki")
    body = {
        "type": "ninja_slayer.attack",
        "style": "精密攻撃",
        "stat": "ワザマエ",
        "allocations": [
            {"target": "boss", "dice": 3, "faces": [1, 1, 1]},
            {"target": "boss", "dice": 3, "faces": [1, 1, 1]},
        ],
    }
    (attack,) = game.do("seat:1", body)
    assert attack.detail.pool.stat == "ワザマエ" and attack.detail.pool.stat_value == 6
    game.to_turn_end()
    game.do("gm", {"type": "ninja_slayer.next_turn"})
    to_attack(game, "aki")
    missile = {
        "type": "ninja_slayer.attack",
        "kind": "ranged",
        "stat": "ジツ",
        "shuriken": True,
        "allocations": [{"target": "boss", "faces": [5, 1, 1, 1]}],
    }
    attack, taken = game.do("seat:1", missile)
    assert attack.detail.pool.stat_value == 4 and taken.amount == 1
