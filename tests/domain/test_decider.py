"""The lifecycle decider in isolation: pure, deterministic, and exact about who may do what."""

from __future__ import annotations

import pytest

from domain.model import lifecycle
from domain.model.codec import seal
from domain.model.commands import End, Note, Reveal, Roll, Start
from domain.model.envelope import genesis_hash
from domain.model.errors import Forbidden, RuleViolation
from domain.model.fairness import Draw, DrawTag
from domain.model.game import GameState
from domain.model.lifecycle_events import DiceRolled, GameOptions, Revealed
from domain.model.records import Draft
from tests.decided import decide

GAME = "6f1c1f4e-0000-4000-8000-000000000001"
SEED = "ab" * 32


def apply(state: GameState, drafts: list[Draft], actor: str = "gm") -> GameState:
    for draft in drafts:
        recorded = seal(
            draft,
            game_id=GAME,
            seq=state.version + 1,
            actor=actor,
            at="2026-01-01T00:00:00Z",
            prev_hash=state.head,
        )
        state = lifecycle.evolve(state, recorded)
    return state


def new_game(policy: str = "server") -> GameState:
    draft = lifecycle.create(
        ruleset="freeform",
        title="T",
        seat_names=["Aki", "Ben"],
        options=GameOptions(dice_policy=policy),  # type: ignore[arg-type]
        ruleset_options={},
        server_seed=SEED,
        token_hash="g",
        invite_hashes=["i1", "i2"],
    )
    recorded = seal(
        draft,
        game_id=GAME,
        seq=1,
        actor="gm",
        at="2026-01-01T00:00:00Z",
        prev_hash=genesis_hash(GAME),
    )
    state = lifecycle.initial_state(recorded)
    state = apply(state, [lifecycle.join(state, "i1", "t1", "seed-a")], "seat:1")
    return apply(state, decide(state, Start(), "gm"))


def test_decide_is_deterministic_and_leaves_the_state_alone() -> None:
    state = new_game()
    before = state.model_copy(deep=True)
    first = decide(state, Roll(expression="3d6", entropy="x"), "seat:1")
    second = decide(state, Roll(expression="3d6", entropy="x"), "seat:1")
    assert first == second
    assert state == before


def test_server_faces_come_from_the_committed_seed_and_public_inputs() -> None:
    state = new_game()
    [draft] = decide(state, Roll(expression="4d6", entropy="e"), "seat:1")
    assert isinstance(draft.event, DiceRolled) and draft.event.roll is not None
    draw = draft.event.roll.draw
    assert draw is not None
    expected = Draw(SEED, GAME, DrawTag(roll=1, seeds=("seed-a",), entropy="e")).faces([(4, 6)])
    assert draw.faces == expected
    # The next roll uses the next draw number, so faces never repeat by construction.
    state = apply(state, [draft], "seat:1")
    [again] = decide(state, Roll(expression="4d6", entropy="e"), "seat:1")
    assert again.event.roll.draw.roll == 2  # type: ignore[attr-defined]


def test_a_secret_roll_is_sealed_to_its_roller() -> None:
    [draft] = decide(new_game(), Roll(expression="S2D6"), "seat:2")
    assert draft.audience == ("seat:2",)
    assert draft.event.roll is None and draft.event.secret is not None  # type: ignore[attr-defined]


def test_end_reveals_every_secret_including_the_seed() -> None:
    state = new_game()
    state = apply(state, decide(state, Note(text="x", to=["seat:2"]), "seat:1"), "seat:1")
    assert set(state.unrevealed) == {1, state.version}
    drafts = decide(state, End(), "gm")
    revealed = [d.event.of_seq for d in drafts if isinstance(d.event, Revealed)]
    assert revealed == [1, state.version]
    assert drafts[1].event.body == {"server_seed": SEED}  # type: ignore[attr-defined]
    ended = apply(state, drafts)
    assert ended.status == "ended" and ended.unrevealed == {}


def test_reveal_permissions() -> None:
    state = new_game()
    state = apply(state, decide(state, Note(text="x"), "seat:1"), "seat:1")
    with pytest.raises(Forbidden, match="author"):
        decide(state, Reveal(seq=state.version), "seat:2")
    with pytest.raises(Forbidden) as error:
        decide(state, Reveal(seq=1), "gm")
    assert error.value.code == "server_secret"
    assert decide(state, Reveal(seq=state.version), "gm")


def test_manual_and_server_dice_follow_the_policy() -> None:
    with pytest.raises(RuleViolation):
        decide(new_game("server"), Roll(expression="1d6", faces=[3]), "seat:1")
    with pytest.raises(RuleViolation):
        decide(new_game("manual"), Roll(expression="1d6"), "seat:1")
    [draft] = decide(new_game("both"), Roll(expression="1d6", faces=[3]), "seat:1")
    assert draft.event.roll.manual and draft.event.roll.draw is None  # type: ignore[attr-defined]
