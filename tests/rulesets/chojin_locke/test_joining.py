"""5.1 (1) 戦闘参加フェイズ: 実はそこにいた / 実は生きていた / 実は参加していた on the sample's
(invented) charts, through the real decider."""

from __future__ import annotations

import pytest

from domain.rulesets.chojin_locke.combat.joining_events import (
    JoinAnswered,
    JoinChecked,
    JoinedCombat,
    JoinRequested,
)
from tests.rulesets.chojin_locke.decided_combat import CombatGame


def test_there_joins_the_leader_and_its_partner() -> None:
    game = CombatGame()
    checked, *joined = game.do("seat:3", "join_check", check="there", faces=[1, 1])
    assert isinstance(checked, JoinChecked) and checked.total == 2 and checked.joins
    assert [(e.id, e.seat, e.joined_round) for e in joined] == [(3, 3, 1), (5, 5, 1)]
    assert all(isinstance(e, JoinedCombat) and e.kind == "character" for e in joined)
    assert set(game.combat.fighters) == {1, 2, 3, 5}
    assert game.combat.join_checked == [3]
    game.refused("seat:3", "join_check", "already_fighting", check="there", faces=[1, 1])


def test_a_delayed_arrival_joins_from_the_next_round() -> None:
    game = CombatGame()
    checked, joined, _partner = game.do("seat:3", "join_check", check="there", faces=[2, 2])
    assert checked.delay == 1 and checked.result.startswith("駆けつけた")
    assert joined.joined_round == 2 and game.combat.fighters[3].joined_round == 2


def test_a_miss_joins_nobody_and_is_made_once_per_combat() -> None:
    game = CombatGame()
    (checked,) = game.do("seat:3", "join_check", check="there", faces=[3, 4])
    assert checked.total == 7 and not checked.joins and checked.result == "そこにはいなかった"
    assert set(game.combat.fighters) == {1, 2}
    game.refused("seat:3", "join_check", "already_checked", check="there", faces=[1, 1])


@pytest.mark.parametrize(
    ("actor", "check", "code"),
    [
        ("seat:5", "there", "partner_cannot_check"),  # 4.4 l.720–721
        ("seat:1", "there", "already_fighting"),
        ("seat:4", "there", "character_dead"),
        ("seat:3", "alive", "character_alive"),
    ],
)
def test_who_may_check(actor: str, check: str, code: str) -> None:
    CombatGame().refused(actor, "join_check", code, check=check, faces=[1, 1])


def test_checks_belong_to_the_joining_step() -> None:
    game = CombatGame(step="before")
    game.refused("seat:3", "join_check", "wrong_combat_step", check="there", faces=[1, 1])
    game.set_combat(step="joining")
    game.refused("seat:3", "join_check", "person_only_joined", check="there", person="Sato")
    game.state = game.state.model_copy(
        update={"rules": game.rules.model_copy(update={"combat": None})}
    )
    game.refused("seat:3", "join_check", "no_combat", check="there", faces=[1, 1])


def test_alive_revives_and_joins() -> None:
    game = CombatGame()
    checked, joined = game.do("seat:4", "join_check", check="alive", faces=[1, 1])
    assert checked.revives and checked.joins and not checked.remnant
    assert joined.id == 4 and joined.kind == "character"
    revived = game.rules.players[4]
    assert revived.alive and revived.endurance_damage == 0 and revived.condition == "normal"


def test_alive_three_to_five_sends_a_remnant_whose_firepower_the_chart_gives() -> None:
    # 6.1 l.1182–1184: 3–5 → 残留思念; 残留思念チャート 2–6 → firepower, else 火力なし
    game = CombatGame()
    checked, remnant = game.do(
        "seat:4", "join_check", check="alive", faces=[2, 2], remnant_faces=[3, 3]
    )
    assert checked.remnant and not checked.revives and checked.firepower == 4
    assert checked.remnant_result == "火力4"
    assert (remnant.id, remnant.kind, remnant.seat, remnant.firepower) == (101, "remnant", 4, 4)
    assert not game.rules.players[4].alive  # still dead: only its remnant fights
    assert game.combat.fighters[101].kind == "remnant"


def test_a_remnant_without_firepower() -> None:
    game = CombatGame()
    checked, remnant = game.do(
        "seat:4", "join_check", check="alive", faces=[1, 2], remnant_faces=[6, 6]
    )
    assert checked.remnant_result == "火力なし" and remnant.firepower == 0


def test_alive_usually_stays_dead() -> None:
    game = CombatGame()
    (checked,) = game.do("seat:4", "join_check", check="alive", faces=[6, 6])
    assert checked.result == "死んでいた" and not game.rules.players[4].alive
    assert set(game.combat.fighters) == {1, 2}


def test_joined_needs_every_players_consent_and_is_once_per_person() -> None:
    game = CombatGame()
    game.refused("seat:1", "join_check", "gm_only", check="joined", person="Sato")
    game.refused("gm", "join_check", "person_required", check="joined")
    (requested,) = game.do("gm", "join_check", check="joined", person="Sato")
    assert isinstance(requested, JoinRequested) and requested.waiting == (1, 2, 3, 4, 5)
    game.refused("gm", "join_check", "join_request_pending", check="joined", person="Kato")
    for seat in (1, 2, 3, 4):
        (answered,) = game.do(f"seat:{seat}", "answer_join", consents=True)
        assert isinstance(answered, JoinAnswered)
    game.refused("seat:1", "answer_join", "no_answer_due", consents=True)
    answered, checked, onlooker = game.do("seat:5", "answer_join", consents=True, faces=[1, 2])
    assert checked.person == "Sato" and checked.total == 3 and checked.joins
    assert (onlooker.id, onlooker.kind, onlooker.name) == (101, "obstacle", "Sato")
    assert (onlooker.firepower, onlooker.members) == (6, (4,))
    assert game.rules.joined_persons == ["Sato"] and game.combat.join_request is None
    game.refused("gm", "join_check", "person_checked", check="joined", person="Sato")


def test_one_refusal_cancels_and_the_person_may_ask_again() -> None:
    game = CombatGame()
    game.do("gm", "join_check", check="joined", person="Kato")
    game.do("seat:1", "answer_join", consents=True)
    (answered,) = game.do("seat:2", "answer_join", consents=False)
    assert not answered.consents and game.combat.join_request is None
    assert game.rules.joined_persons == []
    game.refused("seat:3", "answer_join", "no_answer_due", consents=True)
    game.do("gm", "join_check", check="joined", person="Kato")  # not used up
    for seat in (1, 2, 3, 4):
        game.do(f"seat:{seat}", "answer_join", consents=True)
    _answered, checked = game.do("seat:5", "answer_join", consents=True, faces=[3, 4])
    assert not checked.joins and set(game.combat.fighters) == {1, 2}
    assert game.rules.joined_persons == ["Kato"]


def test_join_checks_are_logged_as_the_table_says_them() -> None:
    game = CombatGame()
    game.do("seat:3", "join_check", check="there", faces=[1, 1])
    game.do("seat:4", "join_check", check="alive", faces=[2, 2], remnant_faces=[3, 3])
    lines = game.lines()[-5:]
    assert lines[0].startswith("席3 実はそこにいたチェック 計2: 実はそこにいた")
    assert lines[1] == "席3が戦闘に参加" and lines[2] == "席5が戦闘に参加"
    assert "残留思念チャート: 火力4" in lines[3]
    assert lines[4] == "残留思念 (Seat 4) (残留思念)が戦闘に参加 火力4"


def _walk_turns(game: CombatGame) -> None:
    """Every fighter due passes its combat turn until the round ends."""
    while game.rules.combat is not None and game.combat.step == "turns":
        current = game.combat.fighters[game.combat.current or 0]
        actor = f"seat:{current.seat}"
        game.do(actor, "combat_next")
        game.do(actor, "combat_next")
        game.do(actor, "combat_pass")
        game.do(actor, "combat_next")
        game.do(actor, "combat_next")


def test_arrivals_move_onto_the_square_at_the_moving_step() -> None:
    game = CombatGame()
    game.do("seat:3", "join_check", check="there", faces=[1, 1])
    (entered,) = game.do("seat:1", "combat_next")
    assert game.combat.step == "moving" and type(entered).__name__ == "CombatStepEntered"
    *moved, _entered = game.do("seat:1", "combat_next")
    assert [(e.seat, e.square) for e in moved] == [(3, "0:1"), (5, "0:1")]
    for seat in (3, 5):
        position = game.rules.players[seat].position
        assert position is not None and (position.planet, position.square) == (0, 1)
    assert "席3のコマが戦闘のマス 0:1 へ移動" in game.lines()


def test_a_delayed_arrival_has_no_hand_nor_initiative_before_its_round() -> None:
    game = CombatGame()
    game.do("seat:3", "join_check", check="there", faces=[2, 2])  # 駆けつけた: round 2
    for _ in range(3):
        game.do("seat:1", "combat_next")
    assert game.combat.step == "turns"
    assert set(game.combat.hands) == {1, 2} and set(game.combat.order) == {1, 2}
    assert game.rules.players[3].position == game.rules.players[5].position  # still away
    assert game.rules.players[3].position is not None
    assert game.rules.players[3].position.square == 4


def test_a_remnant_plays_its_dead_characters_seat_and_leaves_at_the_round_end() -> None:
    game = CombatGame()
    game.do("seat:4", "join_check", check="alive", faces=[2, 2], remnant_faces=[3, 3])
    for _ in range(3):
        game.do("seat:1", "combat_next")
    assert set(game.combat.order) == {1, 2, 101}  # no hand, but a combat turn
    assert set(game.combat.hands) == {1, 2}
    _walk_turns(game)
    names = [type(e).__name__ for e in game.events]
    left = names.index("RemnantsLeft")
    assert names[left + 1] == "CombatRoundEnding"
    assert "残留思念が戦闘から離脱: NPC101" in game.lines()
    assert game.rules.combat is None  # nobody attacked: the combat is over (5.1 l.933)
