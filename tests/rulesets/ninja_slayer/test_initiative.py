"""Initiative order and placement (2-3), with the ties as the seed settles them."""

from __future__ import annotations

from typing import Any

from .harness import MOB_SHEET, PC_SHEET, Game

BEGIN = "ninja_slayer.begin_combat"


def sheet(neuron: int, **extra: Any) -> dict[str, Any]:
    return {**PC_SHEET, "neuron": neuron, **extra}


def test_the_seed_example_order_and_reverse_placement() -> None:
    # PC1, ブラックマンバ, PC2, PC3, クローンヤクザ (イニシアチブ管理表 の例)
    game = Game(seats=3)
    game.add("seat:1", "pc1", "pc", sheet(8))
    game.add("gm", "mamba", "boss", sheet(7))
    game.add("seat:2", "pc2", "pc", sheet(6))
    game.add("seat:3", "pc3", "pc", sheet(5))
    game.add("gm", "yakuza", "mob", MOB_SHEET)
    began, turn = game.do(
        "gm", {"type": BEGIN, "participants": ["yakuza", "pc3", "pc2", "mamba", "pc1"]}
    )
    assert turn.order == ("pc1", "mamba", "pc2", "pc3", "yakuza")
    assert began.placement_order == ("yakuza", "pc3", "pc2", "mamba", "pc1")


def test_a_pc_acts_before_an_enemy_with_the_same_initiative() -> None:
    game = Game()
    game.add("gm", "boss", "boss", sheet(6))
    game.add("seat:1", "aki", "pc", sheet(6))
    _, turn = game.do("gm", {"type": BEGIN, "participants": ["boss", "aki"]})
    assert turn.order == ("aki", "boss")


def test_pc_ties_are_settled_once_and_kept() -> None:
    game = Game()
    game.add("seat:1", "aki", "pc", sheet(5))
    game.add("seat:2", "ben", "pc", sheet(5))
    game.add("gm", "yakuza", "mob", MOB_SHEET)  # a combat has an enemy (ruling NS-053)
    body: dict[str, Any] = {"type": BEGIN, "participants": ["aki", "ben", "yakuza"]}
    game.refused("gm", body, "pc_tie_order_required")
    _, turn = game.do("gm", {**body, "pc_tie_order": ["ben", "aki"]})
    assert turn.order == ("ben", "aki", "yakuza")
    game.to_turn_end()
    assert game.combat.phase == "turn_end"
    (turn2,) = game.do("gm", {"type": "ninja_slayer.next_turn"})
    assert turn2.order == ("ben", "aki", "yakuza")


def test_a_combat_without_an_opposing_side_is_refused() -> None:
    """Ruling NS-053: PCs alone, or enemies alone, are no 戦闘シーケンス."""
    game = Game()
    game.add("seat:1", "aki", "pc", sheet(5))
    game.add("seat:2", "ben", "pc", sheet(6))
    game.add("gm", "yakuza", "mob", MOB_SHEET)
    game.refused("gm", {"type": BEGIN, "participants": ["aki", "ben"]}, "no_opposing_side")
    game.refused("gm", {"type": BEGIN, "participants": ["yakuza"]}, "no_opposing_side")
    _, turn = game.do("gm", {"type": BEGIN, "participants": ["aki", "yakuza"]})
    assert turn.order == ("aki", "yakuza")


def test_enemy_ties_are_the_gms_choice_every_turn() -> None:
    game = Game()
    game.add("seat:1", "aki", "pc", sheet(9))
    game.add("gm", "m1", "mob", MOB_SHEET)
    game.add("gm", "m2", "mob", MOB_SHEET)
    body: dict[str, Any] = {"type": BEGIN, "participants": ["aki", "m1", "m2"]}
    game.refused("gm", body, "enemy_tie_order_required")
    _, turn = game.do("gm", {**body, "enemy_tie_order": ["m2", "m1"]})
    assert turn.order == ("aki", "m2", "m1")
    game.to_turn_end()
    game.refused("gm", {"type": "ninja_slayer.next_turn"}, "enemy_tie_order_required")
    (turn2,) = game.do("gm", {"type": "ninja_slayer.next_turn", "enemy_tie_order": ["m1", "m2"]})
    assert turn2.order == ("aki", "m1", "m2")


def test_initiative_zero_or_less_counts_as_one_for_the_order() -> None:
    game = Game()
    game.add("seat:1", "aki", "pc", sheet(1))
    game.add("gm", "slow", "boss", sheet(0, initiative_modifier=-3))
    _, turn = game.do("gm", {"type": BEGIN, "participants": ["slow", "aki"]})
    assert turn.order == ("aki", "slow")  # both count as 1: the PC first
    assert game.state.rules.characters["slow"].now.neuron == 0


def test_a_changed_neuron_reorders_from_the_next_turn() -> None:
    game = Game()
    game.add("seat:1", "aki", "pc", sheet(6))
    game.add("gm", "boss", "boss", sheet(5))
    game.do("gm", {"type": BEGIN, "participants": ["aki", "boss"]})
    game.do(
        "gm",
        {
            "type": "ninja_slayer.adjust",
            "character": "aki",
            "changes": {"neuron": -3},
            "reason": "サツバツ!: ニューロン damage",
        },
    )
    assert game.combat.order == ("aki", "boss")
    game.to_turn_end()
    (turn2,) = game.do("gm", {"type": "ninja_slayer.next_turn"})
    assert turn2.order == ("boss", "aki")


def test_pc_ties_settled_at_the_start_last_the_whole_scenario() -> None:
    game = Game()
    game.add("seat:1", "aki", "pc", sheet(5))
    game.add("seat:2", "ben", "pc", sheet(5))
    game.add("gm", "yakuza", "mob", MOB_SHEET)
    body: dict[str, Any] = {"type": BEGIN, "participants": ["aki", "ben", "yakuza"]}
    game.do("gm", {**body, "pc_tie_order": ["ben", "aki"]})
    game.do("gm", {"type": "ninja_slayer.end_combat"})
    _, turn = game.do("gm", body)  # the second combat keeps the order
    assert turn.order == ("ben", "aki", "yakuza")
    game.do("gm", {"type": "ninja_slayer.end_combat"})
    game.do("gm", {"type": "ninja_slayer.end_scenario"})
    game.refused("gm", body, "not_in_honpen")  # the 評価 has no combat
    for stage in ("余暇", "ダンゴウ", "本編"):
        game.do("gm", {"type": "ninja_slayer.scenario_stage", "stage": stage})
    game.refused("gm", body, "pc_tie_order_required")  # a new scenario settles it again
