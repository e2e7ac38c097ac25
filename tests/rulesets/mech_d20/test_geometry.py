"""Geometry from the seed on a battle map, over the decider: movement cost and speed, reach and
range, line of effect, opportunity-attack triggers, charge, coup de grace, flanking, area
templates, forced movement, teleport, flight and falling (L18–19, L82–111, L180–191, L213–263,
L348–416)."""

from __future__ import annotations

from typing import Any

from domain.rulesets.mech_d20 import MECH_D20
from domain.rulesets.mech_d20.state import Position

from .harness import RIFLE, SABER, Game

WALL = [[6, y] for y in range(5)]
GRID = {"width": 12, "height": 12, "blocking": WALL, "difficult": [[1, 1]], "hazardous": [[11, 5]]}
RIFLE6 = {**RIFLE, "range": 6}
BURST = {
    "name": "ミサイル",
    "keywords": ["攻撃"],
    "range": "遠隔範囲",
    "shape": "爆発",
    "size": 1,
    "distance": 5,
    "attack": {"ability": None, "defence": "反応", "bonus": 5},
}
CLOSE_BURST = {**BURST, "name": "全方位", "range": "近接範囲", "distance": None}
BLAST = {**BURST, "name": "火炎放射", "range": "近接範囲", "shape": "噴射", "size": 2}
LINE = {**BURST, "name": "貫通砲", "range": "近接範囲", "shape": "直線", "size": 3}
SHOVE = {
    "name": "シールドバッシュ",
    "keywords": ["攻撃"],
    "range": "近接",
    "attack": {"ability": None, "defence": "頑健", "bonus": 5},
    "forced": {"kind": "押しやる", "squares": 2},
}
GRAB = {**SHOVE, "name": "アンカー", "forced": {"kind": "引き寄せる", "squares": 2}}


def board(places: dict[str, tuple[int, int]], **aki: Any) -> Game:
    game = Game()
    powers = [BURST, CLOSE_BURST, BLAST, LINE, SHOVE, GRAB, *aki.pop("powers", [])]
    game.add("aki", weapons=[SABER, RIFLE6], powers=powers, **aki)
    game.add("ben", owner="seat:2")
    game.add("boss", kind="npc")
    game.add("m1", kind="npc")
    game.do("gm", "set_map", grid=GRID)
    for uid, (x, y) in places.items():
        game.do("gm", "place_unit", unit=uid, x=x, y=y)
    game.begin({"aki": 20, "ben": 15, "boss": 10, "m1": 5})
    game.do("seat:1", "start_turn")
    return game


def use(game: Game, power: str, **body: Any) -> None:
    game.do("seat:1", "use_power", unit="aki", power=power, **body)


def test_diagonals_count_one_and_difficult_terrain_costs_one_more() -> None:
    game = board({"aki": (0, 0), "ben": (0, 5), "boss": (10, 10), "m1": (10, 0)})
    game.refused("seat:1", "move", "bad_path", unit="aki", to=[5, 6], path=[[1, 0], [2, 1], [5, 6]])
    # five diagonal steps are five squares (L18); through 移動困難地形 (1,1) it costs six (L103)
    game.refused(
        "seat:1",
        "move",
        "too_far",
        unit="aki",
        to=[5, 5],
        path=[[1, 1], [2, 2], [3, 3], [4, 4], [5, 5]],
    )
    game.do(
        "seat:1",
        "move",
        unit="aki",
        to=[4, 4],
        path=[[1, 0], [2, 1], [3, 2], [4, 3], [4, 4]],
    )
    assert game.unit("aki").position == Position(x=4, y=4)


def test_shift_crawl_slowed_and_immobilized() -> None:
    game = board({"aki": (0, 0), "ben": (0, 5), "boss": (10, 10), "m1": (10, 0)})
    game.refused("seat:1", "move", "too_far", unit="aki", kind="シフト", to=[1, 1], path=[[1, 1]])
    game.do(
        "gm",
        "add_effect",
        unit="aki",
        effect={"conditions": ["減速"], "duration": "save_ends"},
        reason="x",
    )
    game.refused("seat:1", "move", "unreachable", unit="aki", to=[3, 0])
    game.do("seat:1", "move", unit="aki", to=[2, 0])
    game.do("gm", "adjust", unit="aki", prone=True, reason="転倒")
    assert game.encounter.turn is not None
    moves = MECH_D20.view(game.state, "seat:1")["encounter"]["moves"]
    assert (
        set(moves) == {"這い進み"}
        and [3, 0] in moves["這い進み"]
        and [4, 0] not in moves["這い進み"]
    )


def test_the_end_square_must_be_free_and_enemies_block_the_way_but_not_a_flight() -> None:
    game = board({"aki": (0, 0), "ben": (1, 0), "boss": (0, 1), "m1": (1, 1)})
    game.refused("seat:1", "move", "square_occupied", unit="aki", to=[1, 0], path=[[1, 0]])
    game.do(
        "seat:1", "move", unit="aki", to=[2, 0], path=[[1, 0], [2, 0]]
    )  # through an ally (L101)
    game.refused("seat:1", "move", "path_blocked", unit="aki", to=[0, 2], path=[[1, 1], [0, 2]])
    game.do(
        "seat:1", "move", unit="aki", kind="飛行移動", to=[0, 2], path=[[1, 1], [0, 2]], altitude=2
    )
    assert game.unit("aki").position == Position(x=0, y=2, altitude=2)
    game.do("seat:1", "move", unit="aki", kind="伏せる")  # falls to the ground (L369)
    assert game.unit("aki").position == Position(x=0, y=2, altitude=0)


def test_teleport_needs_a_seen_square_within_speed() -> None:
    game = board({"aki": (5, 0), "ben": (0, 5), "boss": (10, 10), "m1": (11, 11)})
    game.refused("seat:1", "move", "cannot_see_square", unit="aki", kind="瞬間移動", to=[8, 0])
    game.refused("seat:1", "move", "too_far", unit="aki", kind="瞬間移動", to=[5, 11])
    game.do(
        "gm",
        "add_effect",
        unit="aki",
        effect={"conditions": ["動けない"], "duration": "save_ends"},
        reason="x",
    )
    game.do("seat:1", "move", unit="aki", kind="瞬間移動", to=[5, 5])


def test_reach_range_and_line_of_effect() -> None:
    game = board({"aki": (5, 2), "ben": (0, 5), "boss": (7, 2), "m1": (5, 9)})
    game.refused(
        "seat:1",
        "use_power",
        "out_of_range",
        unit="aki",
        power="近接基礎攻撃",
        targets=["m1"],
        weapon="ビームサーベル",
    )
    error = game.refused(
        "seat:1",
        "use_power",
        "no_line_of_effect",
        unit="aki",
        power="遠隔基礎攻撃",
        targets=["boss"],
        weapon="ビームライフル",
    )
    assert "効果線" in error.message
    game.refused(
        "seat:1",
        "use_power",
        "out_of_range",
        unit="aki",
        power="遠隔基礎攻撃",
        targets=["m1"],
        weapon="ビームライフル",
    )


def test_opportunity_attacks_come_from_adjacent_enemies_only() -> None:
    game = board({"aki": (3, 3), "ben": (0, 5), "boss": (4, 4), "m1": (9, 9)})
    game.do("seat:1", "move", unit="aki", to=[2, 3], path=[[2, 3]])
    assert MECH_D20.view(game.state, "gm")["encounter"]["opportunities"] == ["boss"]
    trigger = game.encounter.last_action
    game.refused("gm", "opportunity_attack", "not_adjacent", unit="m1", trigger=trigger)
    game.do("gm", "opportunity_attack", unit="boss", trigger=trigger, weapon="ビームサーベル")


def test_a_shift_or_a_move_from_afar_offers_nothing() -> None:
    game = board({"aki": (3, 3), "ben": (0, 5), "boss": (4, 4), "m1": (9, 9)})
    game.do("seat:1", "move", unit="aki", kind="シフト", to=[2, 3])
    assert MECH_D20.view(game.state, "gm")["encounter"]["opportunities"] == []


def test_charge_distance_and_approach() -> None:
    game = board({"aki": (0, 0), "ben": (0, 5), "boss": (1, 1), "m1": (4, 0)})
    game.refused(
        "seat:1",
        "charge",
        "charge_too_close",
        unit="aki",
        targets=["boss"],
        weapon="ビームサーベル",
    )
    game.refused(
        "seat:1",
        "charge",
        "charge_not_closer",
        unit="aki",
        targets=["m1"],
        weapon="ビームサーベル",
        path=[[1, 0], [1, 1]],
    )
    game.do("seat:1", "charge", unit="aki", targets=["m1"], weapon="ビームサーベル")
    aki = game.unit("aki")
    assert aki.position is not None and aki.position.square == (3, 0)


def test_coup_de_grace_needs_adjacency() -> None:
    game = board({"aki": (0, 0), "ben": (0, 5), "boss": (3, 0), "m1": (9, 9)})
    game.do(
        "gm",
        "add_effect",
        unit="boss",
        effect={"conditions": ["無防備"], "duration": "save_ends"},
        reason="x",
    )
    game.refused(
        "seat:1",
        "use_power",
        "out_of_range",
        unit="aki",
        power="近接基礎攻撃",
        targets=["boss"],
        weapon="ビームサーベル",
        coup_de_grace=True,
    )


def test_flanking_comes_from_positions() -> None:
    game = board({"aki": (2, 2), "ben": (4, 2), "boss": (3, 2), "m1": (9, 9)})
    events = game.do(
        "seat:1",
        "use_power",
        unit="aki",
        power="近接基礎攻撃",
        targets=["boss"],
        weapon="ビームサーベル",
    )
    assert "挟撃" in events[0].advantage
    other = board({"aki": (2, 2), "ben": (4, 1), "boss": (3, 2), "m1": (9, 9)})
    other.refused(
        "seat:1",
        "use_power",
        "cannot_flank",
        unit="aki",
        power="近接基礎攻撃",
        targets=["boss"],
        weapon="ビームサーベル",
        advantage=["挟撃"],
    )
    diagonal = board({"aki": (2, 1), "ben": (4, 3), "boss": (3, 2), "m1": (9, 9)})
    events = diagonal.do(
        "seat:1",
        "use_power",
        unit="aki",
        power="近接基礎攻撃",
        targets=["boss"],
        weapon="ビームサーベル",
    )
    assert "挟撃" in events[0].advantage


def test_area_templates_give_the_targets() -> None:
    game = board({"aki": (0, 0), "ben": (0, 5), "boss": (3, 3), "m1": (4, 4)})
    events = game.do("seat:1", "use_power", unit="aki", power="ミサイル", origin=[3, 4])
    assert events[0].targets == ("boss", "m1")
    game2 = board({"aki": (0, 0), "ben": (0, 5), "boss": (3, 3), "m1": (4, 4)})
    game2.refused(
        "seat:1", "use_power", "out_of_range", unit="aki", power="ミサイル", origin=[8, 8]
    )
    game2.refused(
        "seat:1",
        "use_power",
        "not_in_area",
        unit="aki",
        power="ミサイル",
        origin=[1, 1],
        targets=["boss"],
    )
    game3 = board({"aki": (3, 3), "ben": (0, 5), "boss": (4, 4), "m1": (6, 6)})
    assert game3.do("seat:1", "use_power", unit="aki", power="全方位")[0].targets == ("boss",)
    game4 = board({"aki": (3, 3), "ben": (0, 5), "boss": (4, 4), "m1": (5, 5)})
    game4.refused(
        "seat:1", "use_power", "bad_template", unit="aki", power="火炎放射", origin=[3, 3]
    )
    assert game4.do("seat:1", "use_power", unit="aki", power="火炎放射", origin=[4, 4])[
        0
    ].targets == ("boss", "m1")
    game5 = board({"aki": (3, 3), "ben": (0, 5), "boss": (4, 4), "m1": (6, 6)})
    assert game5.do("seat:1", "use_power", unit="aki", power="貫通砲", direction=[1, 1])[
        0
    ].targets == ("boss", "m1")


def test_a_wall_stops_the_ranged_burst_origin() -> None:
    game = board({"aki": (5, 2), "ben": (0, 5), "boss": (8, 2), "m1": (9, 9)})
    game.refused("seat:1", "use_power", "bad_origin", unit="aki", power="ミサイル", origin=[6, 2])
    game.refused(
        "seat:1", "use_power", "cannot_see_square", unit="aki", power="ミサイル", origin=[8, 2]
    )


def test_forced_movement_push_pull_and_the_hazard_save() -> None:
    game = board({"aki": (9, 5), "ben": (0, 5), "boss": (10, 5), "m1": (3, 9)})
    game.refused(
        "seat:1",
        "force_move",
        "not_away",
        unit="aki",
        power="シールドバッシュ",
        target="boss",
        path=[[9, 6]],
    )
    game.refused(
        "seat:1",
        "force_move",
        "too_far",
        unit="aki",
        power="シールドバッシュ",
        target="boss",
        path=[[11, 5], [11, 6], [11, 7]],
    )
    saved = game.do(
        "seat:1",
        "force_move",
        unit="aki",
        power="シールドバッシュ",
        target="boss",
        path=[[11, 5]],
        faces=[14],
    )
    assert saved[0].hazard and saved[0].saved
    boss = game.unit("boss")
    assert boss.prone and boss.position is not None and boss.position.square == (10, 5)
    fell = game.do(
        "seat:1",
        "force_move",
        unit="aki",
        power="シールドバッシュ",
        target="boss",
        path=[[11, 5]],
        faces=[3],
    )
    assert not fell[0].saved and game.unit("boss").position == Position(x=11, y=5)
    game.refused(
        "seat:1",
        "force_move",
        "not_closer",
        unit="aki",
        power="アンカー",
        target="m1",
        path=[[2, 10]],
    )
    game.do(
        "seat:1", "force_move", unit="aki", power="アンカー", target="m1", path=[[4, 8], [5, 7]]
    )
    game.refused(
        "seat:1",
        "force_move",
        "no_forced_movement",
        unit="aki",
        power="近接基礎攻撃",
        target="m1",
        path=[[5, 6]],
    )


def test_shooting_next_to_an_enemy_offers_it_the_opportunity_attack() -> None:
    game = board({"aki": (3, 3), "ben": (0, 5), "boss": (4, 4), "m1": (3, 8)})
    game.do(
        "seat:1",
        "use_power",
        unit="aki",
        power="遠隔基礎攻撃",
        targets=["m1"],
        weapon="ビームライフル",
    )
    assert MECH_D20.view(game.state, "gm")["encounter"]["opportunities"] == ["boss"]
    trigger = game.encounter.attacks[-1].seq
    game.refused("gm", "opportunity_attack", "not_adjacent", unit="m1", trigger=trigger)
    game.do("gm", "opportunity_attack", unit="boss", trigger=trigger, weapon="ビームサーベル")


def test_a_hidden_unit_is_no_player_s_target() -> None:
    game = Game()
    game.add("aki", weapons=[SABER, RIFLE6])
    game.add("boss", kind="npc")
    game.do("gm", "set_map", grid=GRID)
    game.do("gm", "place_unit", unit="aki", x=3, y=3)
    game.do("gm", "place_unit", unit="boss", x=4, y=4, hidden=True)
    game.begin({"aki": 20, "boss": 10})
    game.do("seat:1", "start_turn")
    body = {"unit": "aki", "targets": ["boss"], "weapon": "ビームサーベル"}
    game.refused("seat:1", "use_power", "hidden_target", power="近接基礎攻撃", **body)
    game.refused("seat:1", "charge", "hidden_target", **body)


def test_a_slide_goes_any_way_but_never_through_a_unit() -> None:
    slide = {**SHOVE, "name": "スピンキック", "forced": {"kind": "横滑り", "squares": 3}}
    game = board({"aki": (2, 2), "ben": (4, 2), "boss": (3, 3), "m1": (3, 5)}, powers=[slide])
    body = {"unit": "aki", "power": "スピンキック", "target": "boss"}
    game.refused("seat:1", "force_move", "path_blocked", path=[[3, 4], [3, 5], [3, 6]], **body)
    game.refused("seat:1", "force_move", "path_blocked", path=[[4, 2], [5, 3], [5, 4]], **body)
    game.do("seat:1", "force_move", path=[[2, 3], [2, 4], [1, 4]], **body)  # towards, then away
    assert game.unit("boss").position == Position(x=1, y=4)


def test_blind_units_see_only_within_their_super_sight() -> None:
    blind = {"conditions": ["盲目"], "duration": "save_ends"}
    game = board({"aki": (0, 0), "ben": (0, 5), "boss": (1, 1), "m1": (3, 3)}, super_sight=2)
    game.do("gm", "add_effect", unit="aki", effect=blind, reason="カメラ破損")
    events = game.do(
        "seat:1",
        "use_power",
        unit="aki",
        power="遠隔基礎攻撃",
        targets=["m1"],
        weapon="ビームライフル",
    )
    assert events[0].unseen == ("m1",)  # 3 squares: beyond 超視覚2 (L380), -5 to hit (L381)
    other = board({"aki": (0, 0), "ben": (0, 5), "boss": (1, 1), "m1": (2, 2)}, super_sight=2)
    other.do("gm", "add_effect", unit="aki", effect=blind, reason="カメラ破損")
    events = other.do(
        "seat:1",
        "use_power",
        unit="aki",
        power="遠隔基礎攻撃",
        targets=["m1"],
        weapon="ビームライフル",
    )
    assert events[0].unseen == ()
