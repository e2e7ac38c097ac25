"""5.1 (2) l.899–901 through the real decider: an explorer whose piece moves onto the combat's
square at round 1's コマ移動 plays the square phase there at once (a face-down card turned,
情報入手 taken); the next arrival finds it face up; a later round's arrival or a base player's
has none (combat/arrival.py, ruling CL-104)."""

from __future__ import annotations

from typing import Any

from domain.rulesets.chojin_locke.combat.flow_events import CombatStepEntered
from domain.rulesets.chojin_locke.combat.joining_events import ArrivedOnSquare
from domain.rulesets.chojin_locke.turn_events import SquareTurned
from tests.rulesets.chojin_locke.decided_combat import SQUARE, CombatGame


def _face_down(game: CombatGame, card: str, **players: Any) -> None:
    """The combat's square holds the face-down `card`; `players` updates seats (seat N → fields)."""
    rules = game.rules
    board = rules.board.model_copy(update={"cards": {SQUARE: card}})
    updated = dict(rules.players)
    for seat, fields in players.items():
        updated[int(seat)] = updated[int(seat)].model_copy(update=fields)
    rules = rules.model_copy(update={"board": board, "players": updated})
    game.state = game.state.model_copy(update={"rules": rules})


def _arrive(game: CombatGame) -> list[Any]:
    game.do("seat:3", "join_check", check="there", faces=[1, 1])  # the leader and its partner
    game.do("seat:1", "combat_next")  # → コマ移動
    return game.do("seat:1", "combat_next")  # the pieces move in → 戦闘前


def test_a_round_one_explorer_arrival_turns_the_square_at_once() -> None:
    game = CombatGame()
    _face_down(game, "情報入手")
    events = _arrive(game)
    kinds = [type(e) for e in events]
    assert kinds == [ArrivedOnSquare, ArrivedOnSquare, SquareTurned, CombatStepEntered]
    (turned,) = [e for e in events if isinstance(e, SquareTurned)]
    assert (turned.seat, turned.card, turned.kind) == (3, "情報入手", "info")
    assert game.rules.players[3].info == 1 and game.rules.players[5].info == 0
    assert SQUARE not in game.rules.board.cards
    assert game.combat.step == "before"


def test_a_later_rounds_arrival_has_no_square_phase() -> None:
    game = CombatGame(round_=2)
    _face_down(game, "情報入手")
    events = _arrive(game)
    assert not any(isinstance(e, SquareTurned) for e in events)
    assert game.rules.board.cards == {SQUARE: "情報入手"}


def test_a_base_players_arrival_has_no_square_phase() -> None:
    game = CombatGame()
    _face_down(game, "白紙", **{"3": {"side": "base"}, "5": {"side": "base"}})
    events = _arrive(game)
    assert [type(e) for e in events] == [ArrivedOnSquare, ArrivedOnSquare, CombatStepEntered]
    assert game.rules.board.cards == {SQUARE: "白紙"}
