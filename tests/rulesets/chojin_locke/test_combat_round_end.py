"""5.1 (7) ラウンド終了フェイズ and the end of a combat, through the real deciders and folds on a
state set up by hand (an attack this round is the actions' doing: `flow_events.attack_made`,
as their folds call it, stands in for one).

②「このラウンド中に攻撃行動が行われていない場合 / 戦闘を続ける意思のあるものがいない場合 /
戦闘に参加しているキャラクター・障害が合わせて1体以下の場合」 end the combat; ③ discard to the
limit, then optionally one at the limit; ④ draw to the limit; an exhausted deck ends it at once.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from domain.model.commands import Command
from domain.model.draws import ShuffleDraw
from domain.model.errors import RuleViolation
from domain.model.game import SeatState
from domain.model.lifecycle_events import GameOptions, RollRecord
from domain.model.records import Draft
from domain.model.table import Dice, Table
from domain.rulesets.chojin_locke import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.catalog import sample
from domain.rulesets.chojin_locke.changes import combat as changed_combat
from domain.rulesets.chojin_locke.combat.flow import CombatNext, CombatPass
from domain.rulesets.chojin_locke.combat.flow_events import attack_made
from domain.rulesets.chojin_locke.combat.round_end import ContinueCombat, DiscardDown
from domain.rulesets.chojin_locke.combat.start import forced_targets
from domain.rulesets.chojin_locke.combat.state import Combat, Fighter
from domain.rulesets.chojin_locke.state import Board, ChojinState, Player, Position, Turn

HERE = Position(planet=0, square=0)


def _no_roll(*_: object) -> RollRecord:
    raise AssertionError("no roll expected")


def _shuffle(items: int, number: int, entropy: str) -> ShuffleDraw:
    # a fixed permutation: reversed
    return ShuffleDraw(
        roll=number,
        seeds=("s",),
        entropy=entropy,
        shuffle=items,
        order=tuple(reversed(range(items))),
    )


def _table(state: ChojinState) -> Table[ChojinState]:
    seats = tuple(SeatState(seat=n, name=f"P{n}", joined=True) for n in range(1, state.seats + 1))
    dice = Dice(_no_roll, _no_roll, _shuffle, 1)  # type: ignore[arg-type]
    return Table(status="started", seats=seats, options=GameOptions(), rules=state, dice=dice)


def _run(state: ChojinState, command: Command, actor: str) -> tuple[ChojinState, list[Draft]]:
    drafts = CHOJIN_LOCKE.decide(_table(state), command, actor)
    for offset, draft in enumerate(drafts):
        state = CHOJIN_LOCKE.fold(state, draft.event, 100 + offset)
    return state, drafts


def _types(drafts: Sequence[Draft]) -> list[str]:
    return [type(d.event).__name__ for d in drafts]


def _state(hands: dict[int, int], deck: int = 30, attacked: bool = True) -> ChojinState:
    """Five seats: 1–3 explorers fighting on planet 0's spaceport (seat 3 a base player who
    joined), in the last support phase of seat 3's turn; seat 1 started it in its combat
    phase. `hands`: fighter → cards held."""
    catalog = sample()
    characters = catalog.characters
    players = {
        n: Player(
            seat=n,
            sheet=characters[n - 1],
            side="base" if n == 3 else "explorer",
            position=HERE if n <= 3 else Position(planet=n, square=1),
            power_spent=2 if n <= 3 else 1,
            revealed_silhouette=characters[n - 1].silhouette,
        )
        for n in range(1, 6)
    }
    fighters = {n: Fighter(id=n, name=f"Seat {n}", seat=n, acted=n != 3) for n in (1, 2, 3)}
    cards = iter(f"C{i}" for i in range(100))
    combat = Combat(
        square="0:0",
        stage="planet",
        started_by=1,
        step="turns",
        fighters=fighters,
        order=[1, 2, 3],
        current=3,
        phase="support2",
        main_done=True,
        deck=[f"D{i}" for i in range(deck)],
        hands={n: [next(cards) for _ in range(count)] for n, count in hands.items()},
    )
    state = ChojinState(
        catalog=catalog,
        seats=5,
        stage="planet",
        players=players,
        board=Board(cards={"5:5": catalog.planet_cards[0].name}),  # 惑星編 goes on
        turn=Turn(seat=1, number=4, phase="combat", main="pass"),
        combat=combat,
    )
    return attack_made(state) if attacked else state


def test_a_round_without_an_attack_ends_the_combat_and_the_turn() -> None:
    state, drafts = _run(_state({1: 7, 2: 7, 3: 7}, attacked=False), CombatNext(), "seat:3")
    assert _types(drafts) == [
        "CombatTurnEnded",
        "CombatRoundEnding",
        "CombatEnded",
        "TurnBegun",
    ]
    assert drafts[2].event.reason == "no_attack"  # type: ignore[attr-defined]
    assert state.combat is None
    # ESP power refilled for the fighters only; the base player's piece leaves 惑星編's board
    assert [state.players[n].power_spent for n in range(1, 6)] == [0, 0, 0, 1, 1]
    assert state.players[3].position is None and state.players[2].position == HERE
    assert state.turn is not None and state.turn.seat == 2 and state.turn.phase == "check"


def test_nobody_wanting_to_go_on_ends_it_one_who_does_continues_it() -> None:
    state, drafts = _run(_state({1: 7, 2: 7, 3: 7}), CombatNext(), "seat:3")
    assert _types(drafts)[-1] == "CombatRoundEnding"
    assert state.combat is not None and state.combat.step == "round_end"
    with pytest.raises(RuleViolation) as refused:
        _run(state, CombatPass(), "seat:1")
    assert refused.value.code == "wrong_step"
    ended, _ = _run(state, ContinueCombat(go_on=False), "seat:1")
    ended, _ = _run(ended, ContinueCombat(go_on=False), "seat:2")
    with pytest.raises(RuleViolation) as twice:
        _run(ended, ContinueCombat(go_on=True), "seat:2")
    assert twice.value.code == "not_asked"
    ended, drafts = _run(ended, ContinueCombat(go_on=False), "seat:3")
    assert _types(drafts)[:2] == ["ContinueAnswered", "CombatEnded"]
    assert drafts[1].event.reason == "nobody_continues"  # type: ignore[attr-defined]
    assert ended.combat is None
    going, drafts = _run(state, ContinueCombat(go_on=True), "seat:2")
    assert _types(drafts) == ["ContinueAnswered", "CombatContinues"]
    assert going.combat is not None and list(going.combat.discarding) == [1, 2, 3]


def test_one_fighter_left_ends_it_at_the_round_end() -> None:
    state = _state({1: 7, 2: 7, 3: 7})
    for n in (2, 3):
        state = state.model_copy(
            update={
                "players": {
                    **state.players,
                    n: state.players[n].model_copy(update={"condition": "dead"}),
                }
            }
        )
    state = changed_combat(state, current=1, phase="support2")
    state, drafts = _run(state, CombatNext(), "seat:1")
    assert _types(drafts)[:3] == ["CombatTurnEnded", "CombatRoundEnding", "CombatEnded"]
    assert drafts[2].event.reason == "one_left"  # type: ignore[attr-defined]


def test_discard_down_to_the_limit_then_one_more_then_draw_and_round_two() -> None:
    state, _ = _run(_state({1: 9, 2: 7, 3: 5}), CombatNext(), "seat:3")
    state, drafts = _run(state, ContinueCombat(go_on=True), "seat:1")
    assert state.combat is not None and list(state.combat.discarding) == [1, 2]  # 3 is under
    hand1 = list(state.combat.hands[1])
    for wrong in ([], hand1[:1], hand1[:4]):
        with pytest.raises(RuleViolation) as refused:
            _run(state, DiscardDown(cards=wrong), "seat:1")
        assert refused.value.code == "wrong_count"
    with pytest.raises(RuleViolation) as foreign:
        _run(state, DiscardDown(cards=["C9", "C10"]), "seat:1")  # seat 2's cards
    assert foreign.value.code == "not_in_hand"
    with pytest.raises(RuleViolation) as unasked:
        _run(state, DiscardDown(cards=[]), "seat:3")
    assert unasked.value.code == "not_asked"
    state, drafts = _run(state, DiscardDown(cards=hand1[:3]), "seat:1")  # down to 7, one more
    assert drafts[0].audience == ("seat:1",)
    assert state.combat is not None and len(state.combat.hands[1]) == 6
    state, drafts = _run(state, DiscardDown(cards=[]), "seat:2")  # keeps its 7
    assert _types(drafts) == [
        "HandDiscardedDown",
        "CombatCardsDrawn",
        "CombatCardsDrawn",
        "CombatRoundBegun",
    ]
    assert [d.audience for d in drafts[1:3]] == [("seat:1",), ("seat:3",)]
    fight = state.combat
    assert fight is not None and (fight.round, fight.step) == (2, "moving")
    assert {n: len(h) for n, h in fight.hands.items()} == {1: 7, 2: 7, 3: 7}
    assert len(fight.deck) == 30 - 3 and list(fight.hands[1][-1:]) == ["D0"]
    assert list(fight.hands[3][-2:]) == ["D1", "D2"]  # drawn in fighter order
    assert fight.discard == hand1[:3] and list(fight.face_down) == [0, 1, 2]
    # round 2: 戦闘参加 was round 1's; コマ移動 → 戦闘前 → initiative, nobody new to deal
    state, _ = _run(state, CombatNext(), "seat:1")
    state, drafts = _run(state, CombatNext(), "seat:1")
    assert _types(drafts) == ["InitiativeDealt", "CombatTurnBegun"]
    fight = state.combat
    assert fight is not None and fight.step == "turns" and not fight.attacked
    # the reversed shuffle deals red10, red9, red8 to fighters 1, 2, 3: 3 acts first
    assert list(fight.order) == [3, 2, 1] and fight.current == 3


def test_an_exhausted_deck_ends_the_combat_at_once() -> None:
    state, _ = _run(_state({1: 5, 2: 7, 3: 7}, deck=1), CombatNext(), "seat:3")
    state, drafts = _run(state, ContinueCombat(go_on=True), "seat:2")
    state, _ = _run(state, DiscardDown(cards=[]), "seat:2")
    state, drafts = _run(state, DiscardDown(cards=[]), "seat:3")
    assert _types(drafts) == ["HandDiscardedDown", "CombatCardsDrawn", "CombatEnded", "TurnBegun"]
    assert drafts[2].event.reason == "deck_exhausted"  # type: ignore[attr-defined]
    assert state.combat is None


def test_identical_silhouettes_are_the_forced_targets() -> None:
    """3.2 (l.401–402): an attacker whose twin fights must target it."""
    state = _state({1: 7, 2: 7, 3: 7})
    twin = state.players[1].revealed_silhouette
    changed = state.players[3].model_copy(update={"revealed_silhouette": twin})
    state = state.model_copy(update={"players": {**state.players, 3: changed}})
    assert forced_targets(state, 1) == [3] and forced_targets(state, 3) == [1]
    assert forced_targets(state, 2) == []
