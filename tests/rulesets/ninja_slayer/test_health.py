"""体力 and 精神力: 気絶, 爆発四散, mobs leaving the map, revival, アドレナリン・ブースト."""

from __future__ import annotations

from typing import Any

from .combat_setup import ADVANCE, begin, evade, melee, table, to_attack
from .harness import Game

ADJUST = "ninja_slayer.adjust"


def adjust(game: Game, who: str, reason: str = "test", **changes: int) -> Any:
    (event,) = game.do(
        "gm", {"type": ADJUST, "character": who, "changes": changes, "reason": reason}
    )
    return event


def test_a_pc_at_zero_tairyoku_faints_and_below_zero_explodes() -> None:
    game = table()
    adjust(game, "aki", tairyoku=-6)
    assert game.char("aki").status == "気絶"
    game.refused(
        "seat:1",
        {"type": "ninja_slayer.check", "character": "aki", "stat": "カラテ"},
        "cannot_act",
    )
    # A resistance check is rolled even by a character who cannot act.
    game.do(
        "seat:1",
        {
            "type": "ninja_slayer.check",
            "character": "aki",
            "stat": "ニューロン",
            "purpose": "resistance",
            "faces": [1, 2, 3, 4],
        },
    )
    # ニンジャ耐久力の発露: 【精神力】 3 takes what goes below 体力 0, until none is left.
    adjust(game, "aki", tairyoku=-1)
    aki = game.char("aki")
    assert (aki.status, aki.now.tairyoku, aki.now.seishin) == ("気絶", 0, 2)
    adjust(game, "aki", tairyoku=-3)
    aki = game.char("aki")
    assert (aki.status, aki.now.tairyoku, aki.now.seishin) == ("爆発四散", -1, 0)


def test_seishin_below_zero_faints_a_ninja_at_tairyoku_zero() -> None:
    game = table()
    adjust(game, "ben", seishin=-3)
    assert game.char("ben").status == "気絶" and game.char("ben").now.tairyoku == 0


def test_a_non_ninja_boss_or_mob_with_negative_seishin_leaves_the_map() -> None:
    game = table(ninja=False)
    adjust(game, "boss", seishin=-5)
    assert game.char("boss").status == "removed"
    adjust(game, "m1", seishin=-1)
    assert game.char("m1").status == "removed"


def test_attacks_on_a_fainted_target_hit_automatically_without_evasion() -> None:
    game = table()
    begin(game)
    adjust(game, "aki", tairyoku=-6)
    to_attack(game, "boss")
    attack, taken = melee(game, "gm", "aki", [1, 1, 1, 1, 1, 1, 1, 1])
    # Hit while 気絶 with 【精神力】 3: 「軽減を続けられる」 (L149).
    assert attack.strikes[0].hit is True and (taken.status, taken.endured) == ("気絶", 1)
    assert game.char("aki").now.seishin == 2


def test_stat_damage_never_takes_a_stat_below_one() -> None:
    game = table()
    adjust(game, "aki", karate=-9, reason="サツバツ!")
    assert game.char("aki").now.karate == 1


def test_fainted_characters_with_seishin_revive_when_the_combat_ends() -> None:
    game = table()
    begin(game)
    adjust(game, "aki", tairyoku=-6)  # 気絶, 精神力 3
    adjust(game, "ben", tairyoku=-5, seishin=-2)  # 気絶, 精神力 0: stays down
    (ended,) = game.do("gm", {"type": "ninja_slayer.end_combat"})
    assert ended.revived == ("aki",)
    aki, ben = game.char("aki"), game.char("ben")
    assert (aki.status, aki.now.tairyoku, aki.now.seishin) == ("active", 1, 0)
    assert ben.status == "気絶"
    assert game.rules.combat is None


def test_adrenaline_boost_once_per_combat_for_one_seishin() -> None:
    game = table()
    body = {"type": "ninja_slayer.adrenaline_boost", "character": "aki"}
    game.refused("seat:1", body, "no_combat")
    begin(game)
    game.do("seat:1", body)
    assert game.char("aki").now.seishin == 2
    game.refused("seat:1", body, "adrenaline_used")
    game.to_turn_end()
    game.do("gm", {"type": "ninja_slayer.end_combat"})
    begin(game)
    game.do("seat:1", body)  # a new combat
    assert game.char("aki").now.seishin == 1
    adjust(game, "ben", seishin=-2)
    game.refused("seat:2", {**body, "character": "ben"}, "not_enough_seishin")


def test_pending_damage_blocks_the_end_of_the_combat() -> None:
    game = table()
    begin(game)
    to_attack(game, "boss")
    melee(game, "gm", "aki", [4, 1, 1, 1, 1, 1, 1, 1])
    game.refused("gm", {"type": "ninja_slayer.end_combat"}, "damage_pending")
    evade(game, "seat:1", "aki", [1], [5])
    game.do("gm", ADVANCE)


def test_a_ninja_boss_explodes_and_a_non_ninja_boss_leaves_the_map() -> None:
    game = table()
    adjust(game, "boss", tairyoku=-10)  # 体力 9, 精神力 4: holds at 体力 0
    assert (game.char("boss").status, game.char("boss").now.seishin) == ("気絶", 3)
    adjust(game, "boss", tairyoku=-4)
    assert game.char("boss").status == "爆発四散"
    human = table(ninja=False)
    adjust(human, "boss", tairyoku=-10)
    assert human.char("boss").status == "removed"
    adjust(human, "m1", tairyoku=-1)
    assert human.char("m1").status == "removed"
