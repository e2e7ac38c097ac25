"""Weapon switching at 手番開始, attack styles on the record, and the end of a scenario."""

from __future__ import annotations

from .combat_setup import ADVANCE, MOBS, melee, table, to_turn_of
from .harness import PC_SHEET, Game

SWITCH = "ninja_slayer.switch_weapon"


def armed() -> Game:
    game = Game()
    game.add("seat:1", "aki", "pc", {**PC_SHEET, "weapons": [{"name": "カタナ"}], "neuron": 13})
    game.add(
        "gm", "m1", "mob", {"karate": 1, "neuron": 1, "wazamae": 1, "tairyoku": 1, "ninja": False}
    )
    return game


def test_a_combat_starts_unarmed_unless_declared_and_switches_once_per_teban() -> None:
    game = armed()
    begin = {"type": "ninja_slayer.begin_combat", "participants": ["aki", "m1"]}
    game.refused("gm", {**begin, "weapons": {"aki": "ノダチ"}}, "unknown_weapon")
    game.do("gm", begin)
    assert game.char("aki").weapon == "素手&スリケン"
    to_turn_of(game, "aki")
    game.refused("seat:1", {"type": SWITCH, "weapon": "ノダチ"}, "unknown_weapon")
    (switched,) = game.do("seat:1", {"type": SWITCH, "weapon": "カタナ"})
    assert switched.weapon == "カタナ" and game.char("aki").weapon == "カタナ"
    game.refused("seat:1", {"type": SWITCH, "weapon": "素手&スリケン"}, "already_switched")
    game.do("seat:1", ADVANCE)
    game.refused("seat:1", {"type": SWITCH, "weapon": "素手&スリケン"}, "wrong_phase")
    game.do("seat:1", ADVANCE)
    attack, _ = melee(game, "seat:1", "m1", [4] * 5, style="強攻撃")
    assert (attack.weapon, attack.style) == ("カタナ", "強攻撃")


def test_the_end_of_a_scenario_restores_dice_stat_damage_and_sixth_sense() -> None:
    game = armed()
    game.do(
        "seat:1",
        {
            "type": "ninja_slayer.check",
            "character": "aki",
            "stat": "カラテ",
            "reaction_dice": 3,
            "faces": [1] * 8,
        },
    )
    game.do(
        "seat:1",
        {
            "type": "ninja_slayer.sixth_sense",
            "character": "aki",
            "check_seq": game.state.version,
            "faces": [1] * 8,
        },
    )
    game.do(
        "gm",
        {
            "type": "ninja_slayer.adjust",
            "character": "aki",
            "changes": {"karate": -2, "tairyoku": -1},
            "reason": "サツバツ!",
        },
    )
    game.do("gm", {"type": "ninja_slayer.end_scenario"})
    aki = game.char("aki")
    assert aki.now.reaction == 4 and aki.now.karate == 5 and not aki.sixth_sense_used
    assert aki.now.tairyoku == 5  # 体力 is not part of the reset


def test_the_scenario_does_not_end_mid_combat() -> None:
    game = table()
    game.do(
        "gm",
        {
            "type": "ninja_slayer.begin_combat",
            "participants": ["aki", *MOBS],
            "enemy_tie_order": MOBS,
        },
    )
    game.refused("gm", {"type": "ninja_slayer.end_scenario"}, "combat_in_progress")
    game.refused("seat:1", {"type": "ninja_slayer.end_scenario"}, "gm_only")
