"""半壊, 戦闘不能, death saves, 爆散 and healing in play (L430–464)."""

from __future__ import annotations

from domain.rulesets.mech_d20.changes import HpChanged
from domain.rulesets.mech_d20.turns import DeathSaveRolled

from .harness import Game

REPAIR = {
    "name": "リペアキット",
    "action": "マイナー",
    "range": "近接範囲",
    "targets": 1,
    "heal": {"surge": True, "amount": 2},
}


def fight() -> Game:
    game = Game()
    game.add("aki", powers=[REPAIR])
    game.add("ben", owner="seat:2")
    game.add("boss", kind="npc", max_hp=30, durability=10)
    game.begin({"ben": 18, "boss": 12, "aki": 5})
    return game


def test_dropping_ends_harmful_effects_and_leaves_the_unit_helpless() -> None:
    """L443–444 「不利益な状態をすべて解消し…無防備状態になる」."""
    game = fight()
    game.do("gm", "add_effect", unit="ben", effect={"ongoing": 5}, reason="t")
    game.do(
        "gm",
        "add_effect",
        unit="ben",
        effect={
            "modifiers": [{"name": "盾", "value": 2, "applies": "AC"}],
            "duration": "encounter",
        },
        reason="t",
    )
    (adjusted,) = game.do("gm", "adjust", unit="ben", hp=-40, reason="t")
    assert adjusted.status == "戦闘不能" and adjusted.end_effects == (1,)
    ben = game.unit("ben")
    assert [a.id for a in ben.effects] == [2]
    from domain.rulesets.mech_d20.conditions import conditions

    assert {"無防備", "伏せ"} <= conditions(ben)


def test_a_death_save_of_20_spends_a_surge_and_the_unit_acts() -> None:
    """L448 「回復力を消費してhpを回復力値まで回復し、そのまま自身のターンを行なう」; L463 伏せ."""
    game = fight()
    game.do("gm", "adjust", unit="ben", hp=-43, reason="t")  # hp −3
    events = game.do("seat:2", "start_turn", faces=[20])
    save = next(e for e in events if isinstance(e, DeathSaveRolled))
    healed = next(e for e in events if isinstance(e, HpChanged))
    assert save.outcome == "recovered" and healed.change == 10 and healed.surge
    ben = game.unit("ben")
    assert (ben.hp, ben.status, ben.surges, ben.prone) == (10, "active", 1, True)
    game.do("seat:2", "move", unit="ben", kind="立ち上がる")
    assert not game.unit("ben").prone
    game.refused("seat:2", "move", "not_prone", unit="ben", kind="立ち上がる")


def test_a_20_without_surges_is_a_plain_success() -> None:
    """Ruling MD-005."""
    game = fight()
    game.do("gm", "adjust", unit="ben", hp=-43, surges=-2, reason="t")
    events = game.do("seat:2", "start_turn", faces=[20])
    assert [e.outcome for e in events if isinstance(e, DeathSaveRolled)] == ["success"]
    assert game.unit("ben").status == "戦闘不能"


def test_explosion_at_minus_durability_and_no_healing_after() -> None:
    """L453 (level 5: −(B+5)); L455 爆散 like 修理不能; L447 healing cannot reach it."""
    game = fight()
    game.do("gm", "adjust", unit="ben", hp=-52, reason="t")  # −12: 戦闘不能 (threshold −13)
    assert game.unit("ben").status == "戦闘不能"
    game.do("gm", "adjust", unit="ben", hp=-1, reason="t")  # −13
    assert game.unit("ben").status == "爆散"
    game.refused("gm", "heal", "cannot_heal", unit="ben", amount=5)


def test_healing_from_below_zero_counts_from_zero_and_comes_back_prone() -> None:
    """L461–463; a healing power spends the target's 回復力 (回復力値 + 2)."""
    game = fight()
    game.do("gm", "adjust", unit="ben", hp=-49, reason="t")  # −9
    game.do("seat:2", "start_turn", faces=[12])
    game.do("seat:2", "end_turn")
    game.do("gm", "start_turn")
    game.do("gm", "end_turn")
    game.do("seat:1", "start_turn")
    events = game.do("seat:1", "use_power", unit="aki", power="リペアキット", targets=["ben"])
    healed = next(e for e in events if isinstance(e, HpChanged))
    assert healed.change == 12 and healed.prone
    ben = game.unit("ben")
    assert (ben.hp, ben.status, ben.prone, ben.surges) == (12, "active", True, 1)


def test_enemies_at_zero_are_out_and_not_healed() -> None:
    """L464 「敵の機体はhpが0以下になると…戦闘に復帰はできない」."""
    game = fight()
    (adjusted,) = game.do("gm", "adjust", unit="boss", hp=-30, reason="t")
    assert adjusted.out and adjusted.secret.hp == -30 and adjusted.numbers is None
    game.refused("gm", "heal", "cannot_heal", unit="boss", amount=5)
    assert game.unit("boss").status == "戦闘不能"


def test_three_failures_wreck_even_across_a_recovery() -> None:
    """L447 「1遭遇中にこのセーヴに合計3回以上失敗すると」 (ruling MD-006: kept across
    recoveries)."""
    game = fight()
    game.do("gm", "adjust", unit="ben", hp=-41, reason="t")
    for face in (3, 5):
        game.do("seat:2", "start_turn", faces=[face])
        game.do("seat:2", "end_turn")
        game.do("gm", "start_turn")
        game.do("gm", "end_turn")
        game.do("seat:1", "start_turn")
        game.do("seat:1", "end_turn")
    assert game.unit("ben").death_failures == 2
    game.do("gm", "heal", unit="ben", amount=3)
    game.do("gm", "adjust", unit="ben", hp=-4, reason="t")
    game.do("seat:2", "start_turn", faces=[9])
    assert game.unit("ben").status == "修理不能"
