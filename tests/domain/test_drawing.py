"""Rulesets draw through domain.model.drawing; the draws verify like any roll."""

from __future__ import annotations

from domain import dice
from domain.model.drawing import draw_dice, draw_roll, draw_shuffle
from domain.model.draws import find_draws, recompute
from domain.rulesets.ninja_slayer.dice import parse  # the common commands and N5 …
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


def test_a_roll_draws_exactly_what_drawing_its_dice_up_front_did() -> None:
    """Fixed-count commands: drawing die by die gives the same draw as before rerolls."""
    state = new_game()
    for text in ("2D6+1D20>=10", "N5,3,4", "x2 3B6>=4", "(2D6+1)*3/2U", "CHOICE[a,b,c]"):
        expression = parse(text)
        requests = [(r.count, r.sides) for r in expression.dice]
        before = draw_dice(state, requests, number=7, entropy="e")
        draw, result = draw_roll(state, expression, number=7, entropy="e")
        assert draw == before
        assert result == expression.evaluate(before.faces)


def test_a_reroll_draw_recomputes_request_by_request() -> None:
    state = new_game()
    expression = dice.parse("30R6[3]>=5")  # 4 in 6 faces reroll: several rounds for sure
    draw, result = draw_roll(state, expression, number=3)
    assert draw.dice[0] == (30, 6) and len(draw.dice) > 1
    assert recompute(SEED, GAME, draw.model_dump(mode="json"))
    assert result == expression.evaluate(draw.faces)
    assert [(r.count, r.sides) for r in expression.requests_for(draw.faces)] == list(draw.dice)
