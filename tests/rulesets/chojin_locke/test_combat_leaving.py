"""5.7 戦闘離脱後の処理 through the real deciders and folds: an escaped fighter moves its piece
(`escape_to`), and after the combat plays マスの効果発動 → 支援 → 戦闘発生 (`aftermath_next`)
with its spent power and hand kept, the leavers in order from the turn player; then the turn
goes on. Refusals append nothing; the kept hand stays sealed to its seat."""

from __future__ import annotations

import json

from domain.model.events import Event
from domain.model.secrecy import strip
from domain.rulesets.chojin_locke.card_events import AbilityCardUsed, AbilityUsed
from domain.rulesets.chojin_locke.cards import Ability
from domain.rulesets.chojin_locke.combat.action_events import AttackLanded
from domain.rulesets.chojin_locke.combat.flow_events import (
    CombatCardsDrawn,
    CombatDeckShuffled,
    CombatEnded,
    CombatStarted,
    CombatStepEntered,
    HandDiscardedDown,
)
from domain.rulesets.chojin_locke.combat.leaving import (
    AftermathDone,
    AftermathPhaseEntered,
    CarriedRoundEnd,
    EscapeMoved,
    LeaversReset,
)
from domain.rulesets.chojin_locke.party_events import PartyDissolved
from domain.rulesets.chojin_locke.state import Position
from domain.rulesets.chojin_locke.turn_events import SheetOpened, SquareTurned, TurnBegun
from domain.rulesets.chojin_locke.view import view
from tests.rulesets.chojin_locke.combat_domain import Fight, fight, refused
from tests.rulesets.chojin_locke.lines import described

P1, P2, P3 = "seat:1", "seat:2", "seat:3"


def _escape(f: Fight, actor: str, square: int | None = 5) -> None:
    f.do(actor, "play_card", card="テレポート", kind="逃避", esp_level=1)
    if square is not None:
        f.do(actor, "escape_to", square=square)
    f.do(actor, "combat_next")  # main → support2
    f.do(actor, "combat_next")  # the combat turn is over


def _with_cards(f: Fight) -> None:
    """Face-down planet cards on 2:5 (where the leavers go) and 0:0 (so the stage goes on)."""
    board = f.state.board.model_copy(update={"cards": {"2:5": "白紙", "0:0": "白紙"}})
    f.state = f.state.model_copy(update={"board": board})


def _pass_turn(f: Fight, actor: str) -> list[Event]:
    f.do(actor, "combat_next")  # check → support1
    f.do(actor, "combat_next")  # support1 → main
    f.do(actor, "combat_pass")
    f.do(actor, "combat_next")  # main → support2
    return f.do(actor, "combat_next")


def _seen(f: Fight, audience: str) -> str:
    return json.dumps(strip(view(f.table(), audience), audience), ensure_ascii=False)


def test_an_escape_moves_the_piece_and_refusals_append_nothing() -> None:
    f = fight({1: ["テレポート"], 2: []})
    refused(f, P1, "escape_to", "not_left", square=5)
    f.do(P1, "play_card", card="テレポート", kind="逃避", esp_level=1)
    refused(f, P2, "escape_to", "not_left", square=5)
    refused(f, P1, "escape_to", "same_square", square=3)  # the combat is on 2:3
    refused(f, P1, "escape_to", "bad_move", row=1, col=1)
    (moved,) = f.do(P1, "escape_to", square=5)
    assert isinstance(moved, EscapeMoved) and moved.to == Position(planet=2, square=5)
    assert f.state.players[1].position == Position(planet=2, square=5)
    assert f.combat.fighters[1].moved and f.combat.fighters[1].left
    refused(f, P1, "escape_to", "already_moved", square=4)
    seen = {x["id"]: x for x in json.loads(_seen(f, "public"))["combat"]["fighters"]}
    assert seen[1]["moved"] and seen[1]["left"] and not seen[2]["moved"]
    said = described(moved.type, moved.public_part(), None)
    assert said is not None and said[1] == "席1: 戦闘から離脱して惑星2のマス5へ移動"


def test_after_the_combat_the_leaver_plays_its_phases_with_power_and_hand_kept() -> None:
    f = fight({1: ["テレポート", "シールド", "バリアー"], 2: [], 3: []})
    _with_cards(f)
    _escape(f, P1)
    _pass_turn(f, P2)
    events = _pass_turn(f, P3)  # a round without an attack: the combat is over
    ended = [e for e in events if isinstance(e, CombatEnded)]
    assert ended and ended[0].reason == "no_attack"
    # its マスの効果発動フェイズ, as in a normal turn: the card under it is turned
    entered, turned = events[-2:]
    assert isinstance(entered, AftermathPhaseEntered)
    assert (entered.seat, entered.phase, entered.hand) == (1, "square", 2)
    assert isinstance(turned, SquareTurned) and (turned.planet, turned.square) == (2, 5)
    assert not any(isinstance(e, TurnBegun) for e in events)  # the turn waits
    assert f.state.combat is None
    after = f.state.aftermath
    assert after is not None and list(after.queue) == [1] and after.phase == "square"
    # l.1121–1122: spent power and hand kept until its phases are over
    assert f.state.players[1].power_spent == 1
    assert sorted(after.hands[1]) == ["シールド", "バリアー"]
    assert json.loads(_seen(f, P1))["me"]["combat_hand"] == ["シールド", "バリアー"]
    for other in ("public", P2, P3):
        seen = _seen(f, other)
        assert "シールド" not in seen and "バリアー" not in seen
        assert json.loads(seen)["aftermath"] == {
            "queue": [1],
            "phase": "square",
            "hands": {"1": 2},
        }
    # the normal turn waits for it
    refused(f, P1, "next_phase", "aftermath_running")
    refused(f, P2, "aftermath_next", "not_your_aftermath")
    refused(f, P1, "open_sheet", "wrong_phase")  # support actions wait for its 支援フェイズ
    (support,) = f.do(P1, "aftermath_next")
    assert isinstance(support, AftermathPhaseEntered) and support.phase == "support"
    # l.1131–1133: a combat's support phase — シートオープン yes, 勝利宣言 no
    refused(f, P2, "open_sheet", "not_your_aftermath")
    refused(f, P1, "declare_victory", "aftermath_running")
    refused(f, P1, "dissolve_party", "aftermath_running")
    (opened,) = f.do(P1, "open_sheet")
    assert isinstance(opened, SheetOpened) and opened.seat == 1
    (fight_phase,) = f.do(P1, "aftermath_next")
    assert isinstance(fight_phase, AftermathPhaseEntered) and fight_phase.phase == "combat"
    done, begun = f.do(P1, "aftermath_next")
    assert isinstance(done, AftermathDone) and done.count == 2
    assert done.secret is not None and sorted(done.secret.cards) == ["シールド", "バリアー"]
    assert "シールド" not in json.dumps(done.public_part(), ensure_ascii=False)
    # reset, and back to the normal turn: seat 1's 戦闘発生フェイズ was the last, so seat 2 plays
    assert f.state.aftermath is None and f.state.players[1].power_spent == 0
    assert isinstance(begun, TurnBegun) and begun.seat == 2
    assert "combat_hand" in _seen(f, P1) and json.loads(_seen(f, P1))["me"]["combat_hand"] == []
    refused(f, P1, "aftermath_next", "no_aftermath")


def test_several_leavers_go_from_the_one_nearest_the_turn_player() -> None:
    f = fight({1: ["テレポート"], 2: [], 3: ["テレポート"]})
    _with_cards(f)
    f.state = f.state.model_copy(update={"turn": f.state.turn.model_copy(update={"seat": 2})})  # type: ignore[union-attr]
    _escape(f, P1, square=5)
    f.do(P2, "combat_next")
    f.do(P2, "combat_next")
    f.do(P2, "combat_pass")
    f.do(P2, "combat_next")
    f.do(P2, "combat_next")
    f.do(P3, "combat_next")
    f.do(P3, "combat_next")
    _escape(f, P3, square=0)
    after = f.state.aftermath
    assert f.state.combat is None and after is not None
    # turn player seat 2: seat 3 is next to it, seat 1 after
    assert list(after.queue) == [3, 1]
    for _ in range(2):
        f.do(P3, "aftermath_next")
    refused(f, P1, "aftermath_next", "not_your_aftermath")
    done, first, turned = f.do(P3, "aftermath_next")
    assert isinstance(turned, SquareTurned) and turned.seat == 1
    assert isinstance(done, AftermathDone) and done.seat == 3
    assert isinstance(first, AftermathPhaseEntered) and (first.seat, first.phase) == (1, "square")
    assert f.state.players[3].power_spent == 0 and f.state.players[1].power_spent == 1
    f.do(P1, "aftermath_next")
    f.do(P1, "aftermath_next")
    _done, begun = f.do(P1, "aftermath_next")
    assert isinstance(begun, TurnBegun) and begun.seat == 3
    assert f.state.aftermath is None


def test_a_leaver_that_did_not_move_has_no_aftermath() -> None:
    f = fight({1: ["テレポート"], 2: [], 3: []})
    _with_cards(f)
    _escape(f, P1, square=None)
    _pass_turn(f, P2)
    events = _pass_turn(f, P3)
    assert f.state.combat is None and f.state.aftermath is None
    assert isinstance(events[-1], TurnBegun) and events[-1].seat == 2
    assert f.state.players[1].power_spent == 0


def test_a_leaver_starts_a_combat_keeping_its_state_and_the_other_leaver_is_reset() -> None:
    f = fight({1: ["テレポート", "バリアー"], 2: [], 3: ["テレポート", "シールド"]})
    _with_cards(f)
    f.state = f.state.model_copy(update={"turn": f.state.turn.model_copy(update={"seat": 2})})  # type: ignore[union-attr]
    _escape(f, P1, square=5)
    _pass_turn(f, P2)
    f.do(P3, "combat_next")
    f.do(P3, "combat_next")
    _escape(f, P3, square=5)  # both on 2:5, seat 3 nearer the turn player
    after = f.state.aftermath
    assert after is not None and list(after.queue) == [3, 1]
    assert f.state.players[1].power_spent == 1 and f.state.players[3].power_spent == 1
    refused(f, P3, "start_combat", "wrong_phase")  # its square phase
    refused(f, P1, "start_combat", "not_your_aftermath")
    f.do(P3, "aftermath_next")
    # its 支援フェイズ: 改心 once per target (seat 1 is on its square)
    f.faces = [1, 1]
    f.do(P3, "convert", target=1, declared=3)
    refused(f, P3, "convert", "converted_this_turn", target=1, declared=3)
    f.do(P3, "aftermath_next")  # its 戦闘発生フェイズ: its main action does not matter
    events = f.do(P3, "start_combat")
    started = events[0]
    assert isinstance(started, CombatStarted)
    assert started.carried == 3 and started.fighters == (1, 3) and started.square == "2:5"
    said = described(started.type, started.public_part(), None)
    assert said is not None and "戦闘離脱後: 状態を継続したまま" in said[1]
    # the round end first: seat 3 keeps its シールド and draws back to its limit from a deck
    # without it; then 戦闘参加
    shuffled = next(e for e in events if isinstance(e, CombatDeckShuffled))
    assert shuffled.secret is not None and "シールド" in shuffled.secret.deck
    assert len(shuffled.secret.deck) == len(f.state.catalog.combat_deck()) - 1
    assert f.hand(3)[0] == "シールド" and len(f.hand(3)) == 7
    assert f.state.players[3].power_spent == 1  # kept
    # seat 1, a leaver on that square, is reset: power back, kept hand gone, no phases of its own
    assert f.state.players[1].power_spent == 0 and f.hand(1) == []
    assert f.state.aftermath is None
    assert f.combat.step == "joining" and f.combat.started_by == 3
    f.do(P3, "combat_next")  # → コマ移動
    f.do(P3, "combat_next")  # → 戦闘前
    f.do(P3, "combat_next")  # hands (seat 1: new), initiative, first turn
    assert len(f.hand(1)) == 7
    first = f.combat.current
    second = 3 if first == 1 else 1
    _pass_turn(f, f"seat:{first}")
    events = _pass_turn(f, f"seat:{second}")  # no attack: over, everyone reset
    assert any(isinstance(e, CombatEnded) for e in events)
    assert f.state.players[3].power_spent == 0 and f.state.aftermath is None
    assert isinstance(events[-1], TurnBegun) and events[-1].seat == 3


def test_an_ambush_under_the_leaver_starts_a_combat_with_its_state_kept() -> None:
    f = fight({1: ["テレポート", "バリアー"], 2: [], 3: []})
    ambush = f.state.catalog.ambush.name
    board = f.state.board.model_copy(
        update={"cards": {"2:5": ambush, "0:0": "白紙"}, "ambush_handlers": {"2:5": 3}}
    )
    base = f.state.players[3].model_copy(update={"side": "base"})
    f.state = f.state.model_copy(update={"board": board, "players": {**f.state.players, 3: base}})
    _escape(f, P1)
    _pass_turn(f, P2)
    events = _pass_turn(f, P3)  # the combat is over; seat 1's square phase turns the 待ち伏せ
    assert f.state.players[3].position is not None  # the handler came back onto 2:5
    started = [e for e in events if isinstance(e, CombatStarted)]
    assert len(started) == 1 and started[0].carried == 1 and started[0].ambush == 3
    assert started[0].fighters == (1, 3) and started[0].square == "2:5"
    assert f.hand(1)[0] == "バリアー" and len(f.hand(1)) == 7  # kept, drawn back to its limit
    assert f.state.players[1].power_spent == 1 and f.state.aftermath is None
    assert f.combat.step == "joining" and f.combat.started_by == 1


def test_an_escape_dissolves_the_leavers_party() -> None:
    # 6.1 l.1241: 「パーティーを組んでいたキャラクターが戦闘から離脱した時…解散されます」
    f = fight({1: ["テレポート"]}, parties={1: [3]})
    events = f.do(P1, "play_card", card="テレポート", kind="逃避", esp_level=1)
    assert isinstance(events[-1], PartyDissolved) and events[-1].leader == 1
    assert dict(f.state.parties) == {} and f.state.players[3].condition == "normal"

    g = fight({1: ["ショックウェーブ"], 2: ["テレポート"]}, parties={2: [3]})
    g.do(P1, "play_card", card="ショックウェーブ", kind="攻撃", target=2, esp_level=1)
    attack = g.combat.attack
    assert attack is not None
    if attack.awaiting == "sync":
        g.do(P3, "no_sync")
    events = g.do(P2, "respond", card="テレポート", kind="逃避", esp_level=1)
    assert isinstance(events[-2], AttackLanded) and events[-2].outcome == "evaded"
    assert isinstance(events[-1], PartyDissolved) and events[-1].leader == 2
    assert dict(g.state.parties) == {}


def test_an_escape_outside_a_party_dissolves_nothing() -> None:
    f = fight({1: ["テレポート"]}, parties={2: [3]})
    events = f.do(P1, "play_card", card="テレポート", kind="逃避", esp_level=1)
    assert not any(isinstance(e, PartyDissolved) for e in events)
    assert dict(f.state.parties) == {2: [3]}


def test_a_base_player_that_left_in_the_planet_stage_has_no_phases() -> None:
    # L754: its piece leaves 惑星編's board when the combat ends
    f = fight({1: ["テレポート"], 2: [], 3: []})
    _with_cards(f)
    base = f.state.players[1].model_copy(update={"side": "base"})
    f.state = f.state.model_copy(update={"players": {**f.state.players, 1: base}})
    _escape(f, P1)
    _pass_turn(f, P2)
    events = _pass_turn(f, P3)
    assert f.state.aftermath is None and f.state.players[1].position is None
    assert isinstance(events[-1], TurnBegun)


# ---------------------------------------------------------------------------- rulings CL-089–CL-092


def _abilities(f: Fight, seat: int, *abilities: Ability, cards: tuple[str, ...] = ()) -> None:
    someone = f.state.players[seat]
    assert someone.sheet is not None
    sheet = someone.sheet.model_copy(update={"abilities": abilities})
    changed = someone.model_copy(update={"sheet": sheet, "abilities": list(cards)})
    f.state = f.state.model_copy(update={"players": {**f.state.players, seat: changed}})


def _to_support(f: Fight, actor: str) -> None:
    f.do(actor, "aftermath_next")  # マスの効果発動 → 支援


def test_a_leaver_uses_support_abilities_in_its_support_phase() -> None:
    # ruling CL-092: 「戦闘中の支援フェイズとして扱われる」 (l.1132), [通常] or [戦闘] alike
    # (l.1120)
    f = fight({1: ["テレポート"], 2: [], 3: []})
    _with_cards(f)
    assist = Ability(name="援護", tags=("戦闘", "支援"))
    command = Ability(name="指揮", tags=("通常", "支援"))
    shot = Ability(name="射撃", tags=("戦闘", "主要", "攻撃"))
    _abilities(f, 1, assist, command, shot, cards=("テレパシー", "ランダムテレポート"))
    _escape(f, P1)
    _pass_turn(f, P2)
    _pass_turn(f, P3)
    assert f.state.aftermath is not None and f.state.aftermath.phase == "square"
    refused(f, P1, "use_ability", "wrong_phase", ability=assist.name)  # not its 支援フェイズ yet
    _to_support(f, P1)
    refused(f, P2, "use_ability", "not_your_aftermath", ability=assist.name)
    (used,) = f.do(P1, "use_ability", ability=assist.name)
    assert isinstance(used, AbilityUsed) and used.ability == assist.name and used.secret is None
    assert list(f.state.aftermath.supported) == [assist.name]
    assert f.state.turn is not None and list(f.state.turn.supported) == []  # not the turn's
    refused(f, P1, "use_ability", "used_this_turn", ability=assist.name)  # once (l.265)
    f.do(P1, "use_ability", ability=command.name)
    refused(f, P1, "use_ability", "not_support", ability=shot.name)
    refused(f, P1, "use_ability", "no_such_ability", ability="時間停止")
    # a [支援] ability card too; a [主要] one is not a support action
    (card,) = f.do(P1, "use_ability_card", card="テレパシー")
    assert isinstance(card, AbilityCardUsed) and not card.main
    assert list(f.state.players[1].face_up) == ["テレパシー"]
    refused(f, P1, "use_ability_card", "not_support", card="ランダムテレポート")
    said = described(used.type, used.public_part(), None)
    assert said is not None and said[1] == "席1が能力「援護」を使う [戦闘・支援]"
    f.do(P1, "aftermath_next")  # → 戦闘発生
    refused(f, P1, "use_ability", "wrong_phase", ability=command.name)


def test_a_carried_hand_over_the_limit_is_discarded_down_before_joining() -> None:
    # ruling CL-089: 「ラウンド終了フェイズを行ってから戦闘参加フェイズが開始されます」 (l.1140):
    # seat 3 had 2 手下 (limit 9) and keeps 8 cards; the new combat's limit is 7
    kept = ["バリアー", "バリアー", "シールド", "シールド", "ビームキャノン", "ビームキャノン"]
    f = fight(
        {1: ["テレポート"], 2: [], 3: ["テレポート", "テレポート", *kept, "サイコブラスト"]},
        fighter_updates={3: {"minions": 2, "hand_limit": 9}},
    )
    _with_cards(f)
    f.state = f.state.model_copy(update={"turn": f.state.turn.model_copy(update={"seat": 3})})  # type: ignore[union-attr]
    _escape(f, P1, square=5)
    _pass_turn(f, P2)
    f.do(P3, "combat_next")
    f.do(P3, "combat_next")
    _escape(f, P3, square=5)
    after = f.state.aftermath
    assert after is not None and list(after.queue) == [3, 1] and len(after.hands[3]) == 8
    f.do(P3, "aftermath_next")
    f.do(P3, "aftermath_next")
    events = f.do(P3, "start_combat")
    ending = events[-1]
    assert isinstance(ending, CarriedRoundEnd) and (ending.seat, ending.hand) == (3, 8)
    assert ending.waiting and f.combat.step == "round_end" and list(f.combat.discarding) == [3]
    said = described(ending.type, ending.public_part(), None)
    assert said is not None and "戦闘参加の前にラウンド終了フェイズ" in said[1]
    # everything else waits for its answer; 8 over 7: one card (to the limit) or two
    refused(f, P3, "combat_next", "round_end_pending")
    refused(f, P3, "continue_combat", "not_asked", go_on=True)
    refused(f, P1, "discard_down", "not_asked", cards=[])
    refused(f, P3, "discard_down", "wrong_count", cards=[])
    refused(f, P3, "discard_down", "not_in_hand", cards=["テレポート", "テレポート"])
    events = f.do(P3, "discard_down", cards=["サイコブラスト", "テレポート"])
    discarded, drawn, step = events
    assert isinstance(discarded, HandDiscardedDown) and discarded.count == 2
    assert "サイコブラスト" not in json.dumps(discarded.public_part(), ensure_ascii=False)
    assert isinstance(drawn, CombatCardsDrawn) and (drawn.fighter, drawn.count) == (3, 1)
    assert isinstance(step, CombatStepEntered) and step.step == "joining"
    assert len(f.hand(3)) == 7 and f.hand(1) == []  # seat 1 takes its hand at (4)
    assert f.combat.round == 1 and list(f.combat.discarding) == []


def test_at_the_limit_the_carried_hand_may_keep_all() -> None:
    hand = ["テレポート", "バリアー", "バリアー", "シールド", "シールド", "ビームキャノン"]
    f = fight(
        {1: [], 2: [], 3: [*hand, "ビームキャノン", "サイコブラスト"]},
        fighter_updates={3: {"hand_limit": 8, "minions": 1}},
    )
    _with_cards(f)
    board = f.state.board.model_copy(update={"cards": {"0:0": "白紙"}})
    f.state = f.state.model_copy(update={"board": board})
    f.do(P1, "combat_pass")  # seat 1's main phase
    f.do(P1, "combat_next")
    f.do(P1, "combat_next")
    _pass_turn(f, P2)
    f.do(P3, "combat_next")
    f.do(P3, "combat_next")
    _escape(f, P3, square=0)  # to 2:0, where seat 1 is moved too
    one = f.state.players[1].model_copy(update={"position": Position(planet=2, square=0)})
    f.state = f.state.model_copy(update={"players": {**f.state.players, 1: one}})
    f.do(P3, "aftermath_next")
    f.do(P3, "aftermath_next")
    ending = f.do(P3, "start_combat")[-1]
    assert isinstance(ending, CarriedRoundEnd) and ending.hand == 7 and ending.waiting
    (kept,) = f.do(P3, "discard_down", cards=[])[:1]
    assert isinstance(kept, HandDiscardedDown) and kept.count == 0
    assert len(f.hand(3)) == 7 and f.combat.step == "joining"


def test_every_card_collected_at_a_destination_resets_the_leavers_to_come() -> None:
    # ruling CL-091 (l.1151–1153): seats 2 and 3 fight at 2:5 with nothing kept by a leaver of
    # that combat; seat 1, waiting at 2:0 with its hand and spent power, loses them
    f = fight({1: ["テレポート", "シールド"], 2: ["テレポート", "バリアー"], 3: ["テレポート"]})
    _with_cards(f)
    f.state = f.state.model_copy(update={"turn": f.state.turn.model_copy(update={"seat": 2})})  # type: ignore[union-attr]
    _escape(f, P1, square=0)
    for actor in (P2, P3):
        f.do(actor, "combat_next")
        f.do(actor, "combat_next")
        _escape(f, actor, square=5)
    after = f.state.aftermath
    assert after is not None and list(after.queue) == [2, 3, 1]
    f.do(P2, "aftermath_next")
    f.do(P2, "aftermath_next")
    events = f.do(P2, "start_combat")
    # the deck holds neither seat 2's kept バリアー nor seat 1's kept シールド
    shuffled = next(e for e in events if isinstance(e, CombatDeckShuffled))
    assert shuffled.secret is not None
    assert shuffled.cards == len(f.state.catalog.combat_deck()) - 2
    assert f.state.aftermath is not None and list(f.state.aftermath.queue) == [1]
    for _ in range(3):
        f.do(P2, "combat_next")  # 戦闘参加 → コマ移動 → 戦闘前 → the first turn
    first = f.combat.current
    _pass_turn(f, f"seat:{first}")
    events = _pass_turn(f, f"seat:{5 - (first or 0)}")  # no attack: over
    reset = next(e for e in events if isinstance(e, LeaversReset))
    assert reset.seats == (1,)
    said = described(reset.type, reset.public_part(), None)
    assert said is not None and "Cカードが全て回収" in said[1]
    assert f.state.players[1].power_spent == 0
    after = f.state.aftermath
    assert after is not None and list(after.queue) == [1] and 1 not in after.hands
    entered = next(e for e in events if isinstance(e, AftermathPhaseEntered))
    assert (entered.seat, entered.phase, entered.hand) == (1, "square", 0)
    assert json.loads(_seen(f, P1))["me"]["combat_hand"] == []


def test_a_combat_with_its_own_leavers_collects_nothing_of_the_others() -> None:
    f = fight({1: ["テレポート", "シールド"], 2: ["テレポート", "バリアー"], 3: ["テレポート"]})
    _with_cards(f)
    f.state = f.state.model_copy(update={"turn": f.state.turn.model_copy(update={"seat": 2})})  # type: ignore[union-attr]
    _escape(f, P1, square=0)
    for actor in (P2, P3):
        f.do(actor, "combat_next")
        f.do(actor, "combat_next")
        _escape(f, actor, square=5)
    f.do(P2, "aftermath_next")
    f.do(P2, "aftermath_next")
    f.do(P2, "start_combat")
    for _ in range(3):
        f.do(P2, "combat_next")
    # seat 3 (new to this combat, a fresh hand) escapes it to 2:4; seat 2 passes
    first = f.combat.current
    for _ in range(2):
        actor = f"seat:{f.combat.current}"
        if actor == P3:
            card = "テレポート"  # the scripted deck dealt none: one is put in its hand
            hands = {**f.combat.hands, 3: [card, *f.hand(3)[1:]]}
            f.state = f.state.model_copy(
                update={"combat": f.combat.model_copy(update={"hands": hands})}
            )
            f.do(P3, "combat_next")
            f.do(P3, "combat_next")
            f.do(P3, "play_card", card=card, kind="逃避", esp_level=1)
            f.do(P3, "escape_to", square=4)
            f.do(P3, "combat_next")
            events = f.do(P3, "combat_next")
        else:
            events = _pass_turn(f, actor)
    assert first is not None and f.state.combat is None
    assert not any(isinstance(e, LeaversReset) for e in events)
    after = f.state.aftermath
    assert after is not None and list(after.queue) == [1, 3] and after.hands[1] == ["シールド"]
    assert f.state.players[1].power_spent == 1
