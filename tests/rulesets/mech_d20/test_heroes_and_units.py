"""Hero points per seat (L418–428), units and their sheets, the day."""

from __future__ import annotations

from domain.rulesets.mech_d20.attacks import AttackRolled

from .harness import Game, sheet


def test_hero_points_are_per_seat_awarded_given_and_spent_once_a_day() -> None:
    """L422–424: the GM awards, a player gives, hold ≤ 1, spend ≤ 1 a day; a new day resets."""
    game = Game()
    game.add("aki")
    game.add("aki2")  # a second unit of the same seat shares its hero point
    game.add("ben", owner="seat:2")
    game.do("gm", "award_hero_point", seat=1)
    game.refused("gm", "award_hero_point", "hero_point_full", seat=1)
    game.refused("seat:1", "give_hero_point", "same_seat", seat=1)
    game.refused("seat:2", "give_hero_point", "no_hero_point", seat=1)
    game.refused("seat:1", "award_hero_point", "gm_only", seat=2)
    game.begin({"aki": 15, "aki2": 14, "ben": 5})
    game.do("seat:1", "start_turn")
    game.do("seat:1", "hero_action", unit="aki")
    assert game.encounter.turn is not None and game.encounter.turn.standard == 2
    game.do("seat:1", "end_turn")
    game.do("gm", "award_hero_point", seat=1)
    game.do("seat:1", "start_turn")
    game.refused("seat:1", "hero_action", "hero_point_spent_today", unit="aki2")
    game.refused("seat:2", "hero_action", "not_your_unit", unit="aki2")
    game.do("seat:1", "end_turn")
    game.do("seat:1", "give_hero_point", seat=2)
    assert game.rules.hero[1].held == 0 and game.rules.hero[2].held == 1
    game.do("gm", "end_encounter")
    game.do("gm", "new_day")
    game.do("gm", "award_hero_point", seat=1)
    game.begin({"aki": 15, "ben": 5})
    game.do("seat:1", "start_turn")
    game.do("seat:1", "hero_action", unit="aki")


def test_a_dazed_unit_may_buy_a_second_action() -> None:
    """Ruling MD-011: L386 names 朦朧 (may) and L391 支配 (may not); 幻惑 may."""
    game = Game()
    game.add("aki")
    game.add("boss", kind="npc")
    game.do("gm", "award_hero_point", seat=1)
    game.begin({"aki": 15, "boss": 5})
    game.do("gm", "add_effect", unit="aki", effect={"conditions": ["幻惑"]}, reason="t")
    game.do("seat:1", "start_turn")
    game.do("seat:1", "move", unit="aki", kind="シフト")
    game.refused("seat:1", "move", "no_actions_left", unit="aki", kind="シフト")
    game.do("seat:1", "hero_action", unit="aki")
    game.do("seat:1", "move", unit="aki", kind="シフト")
    game.refused("seat:1", "act", "no_actions_left", unit="aki", action="マイナー", what="x")


def test_a_hero_point_rerolls_ones_own_attack_roll() -> None:
    """L428 「自身の行った命中ロールが気に入らない時…振り直す」."""
    game = Game()
    game.add("aki")
    game.add("boss", kind="npc")
    game.do("gm", "award_hero_point", seat=1)
    game.begin({"aki": 15, "boss": 5})
    game.do("seat:1", "start_turn")
    game.do(
        "seat:1",
        "use_power",
        unit="aki",
        power="近接基礎攻撃",
        targets=["boss"],
        weapon="ビームサーベル",
    )
    game.refused("seat:1", "hero_reroll", "wrong_stage", target="boss")
    (first,) = game.do("seat:1", "attack_roll", faces=[7])  # 17 against AC 18: a miss
    assert not first.complete  # it waits: the player may spend the hero point
    spent, again = game.do("seat:1", "hero_reroll", target="boss", face=12)
    assert spent.use == "reroll" and isinstance(again, AttackRolled) and again.reroll
    assert again.rolls[0].outcome == "hit" and again.rolls[0].total == 22
    assert game.encounter.attacks[-1].rolls[0].hit
    game.refused("seat:1", "hero_reroll", "no_hero_point", target="boss")
    (dealt, *_) = game.do("seat:1", "damage_roll", faces=[3])
    assert dealt.dealt[0].amount == 8


def test_daily_powers_come_back_with_a_new_day() -> None:
    snipe = {
        "name": "スナイプ",
        "frequency": "1日毎",
        "keywords": ["攻撃", "武器"],
        "range": "遠隔",
        "attack": {"ability": "敏捷力", "defence": "AC"},
        "hit": {"weapon_dice": 2},
    }
    game = Game()
    game.add("aki", powers=[snipe])
    game.add("boss", kind="npc")
    game.begin({"aki": 15, "boss": 5})
    game.do("seat:1", "start_turn")
    game.do(
        "seat:1",
        "use_power",
        unit="aki",
        power="スナイプ",
        targets=["boss"],
        weapon="ビームライフル",
    )
    game.do("seat:1", "attack_roll", faces=[1])
    game.do("seat:1", "end_turn")
    game.refused("gm", "new_day", "encounter_in_progress")
    game.do("gm", "end_encounter")
    game.begin({"aki": 15, "boss": 5})
    game.do("seat:1", "start_turn")
    game.refused(
        "seat:1",
        "use_power",
        "daily_power_used",
        unit="aki",
        power="スナイプ",
        targets=["boss"],
        weapon="ビームライフル",
    )
    game.do("seat:1", "end_turn")
    game.do("gm", "start_turn")
    game.do("gm", "end_turn")
    game.do("gm", "end_encounter")
    game.do("gm", "new_day")
    game.begin({"aki": 15, "boss": 5})
    game.do("seat:1", "start_turn")
    game.do(
        "seat:1",
        "use_power",
        unit="aki",
        power="スナイプ",
        targets=["boss"],
        weapon="ビームライフル",
    )


def test_sheets_name_the_games_defences_and_units_their_owners() -> None:
    game = Game()
    game.refused(
        "seat:1",
        "add_unit",
        "bad_defences",
        id="x",
        name="x",
        owner="seat:1",
        sheet=sheet(defences={"AC": 18}),
    )
    game.refused(
        "seat:2", "add_unit", "not_your_seat", id="x", name="x", owner="seat:1", sheet=sheet()
    )
    game.refused("seat:1", "add_unit", "gm_only", id="x", name="x", kind="npc", sheet=sheet())
    game.add("aki")
    game.refused("seat:1", "add_unit", "duplicate_unit", id="aki", name="x", sheet=sheet())
    custom = Game(defences=["AC", "精神"])
    custom.add("aki", defences={"AC": 15, "精神": 12})
