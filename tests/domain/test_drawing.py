"""Rulesets draw through domain.drawing; the draws verify like any roll."""

from __future__ import annotations

from domain.drawing import draw_dice, draw_shuffle
from domain.draws import find_draws, recompute
from tests.domain.test_decider import GAME, SEED, new_game


def test_dice_and_shuffles_are_recomputable_from_the_seed() -> None:
    state = new_game()
    dice = draw_dice(state, [(3, 6), (1, 20)], number=state.draws + 1, entropy="e")
    shuffle = draw_shuffle(state, 52, number=state.draws + 2)
    assert len(dice.faces) == 4 and all(1 <= f <= 6 for f in dice.faces[:3])
    assert sorted(shuffle.order) == list(range(52))
    for draw in (dice, shuffle):
        [found] = find_draws(draw.model_dump(mode="json"))
        assert recompute(SEED, GAME, found)
    tampered = shuffle.model_dump(mode="json")
    tampered["order"][0], tampered["order"][1] = tampered["order"][1], tampered["order"][0]
    assert not recompute(SEED, GAME, tampered)


def test_draw_numbers_give_independent_outcomes() -> None:
    state = new_game()
    first = draw_shuffle(state, 20, number=1)
    second = draw_shuffle(state, 20, number=2)
    assert first.order != second.order
    assert draw_shuffle(state, 20, number=1) == first
