"""Rules a single assertion pins: stats, conversion flags, the torus, skipped phases, results."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.pages.i18n import translate
from domain.rulesets.chojin_locke import conversion, recovery, vigil
from domain.rulesets.chojin_locke.board import step
from domain.rulesets.chojin_locke.cards import SquareCard
from domain.rulesets.chojin_locke.catalog import sample
from domain.rulesets.chojin_locke.phases import phases_for
from domain.rulesets.chojin_locke.results import results
from domain.rulesets.chojin_locke.state import (
    Board,
    Cell,
    ChojinState,
    Ending,
    Player,
    Position,
)
from domain.rulesets.chojin_locke.stats import current

CATALOG = sample()


def player(seat: int, name: str, **fields: Any) -> Player:
    return Player(seat=seat, sheet=CATALOG.character(name), **fields)


def test_esp_level_follows_remaining_power() -> None:
    locke = player(1, "ロック", power_spent=27)
    assert current(locke, "esp_level") == 3  # 30 − 27 = 3 < 6
    assert current(player(2, "ジャマー"), "esp_level") == 0
    assert current(player(3, "サイ・エキスパンダー"), "esp_power") == 10  # max 0, level 2 → 10
    assert current(player(4, "ニア", endurance_damage=2), "endurance") == 1


def test_conversion_moves_right_only_from_the_right_faction_and_sets_flags() -> None:
    warrior = player(1, "戦士クーガー")  # E/G
    warrior = conversion.apply(warrior, "E", success=True)
    assert warrior.faction == "E" and warrior.flags == ["E"]
    warrior = conversion.apply(warrior, "G", success=False)
    assert warrior.faction == "E" and warrior.flags == ["E", "G"]
    warrior = conversion.apply(warrior, "G", success=True)  # the G flag shields it now
    assert warrior.faction == "E"


def test_conversion_success_clears_flags_and_may_swing_back() -> None:
    diver = player(1, "ヘルダイバー")  # E/G/E
    diver = conversion.apply(diver, "G", success=True)
    assert diver.faction == "G" and diver.flags == ["G"]
    diver = conversion.apply(diver, "E", success=True)
    assert diver.faction == "E"
    diver = conversion.apply(diver, "G", success=True)  # no step right of the last
    assert diver.faction == "E"


def test_planet_torus_wraps_both_ways() -> None:
    assert step(Position(planet=2, square=0), "left", 1) == Position(planet=2, square=5)
    assert step(Position(planet=2, square=4), "right", 3) == Position(planet=2, square=1)


def test_skipped_phases_by_condition() -> None:
    assert phases_for(Player(seat=1, condition="bound")) == ("check",)
    assert phases_for(Player(seat=1, condition="partner")) == ("check",)
    assert phases_for(Player(seat=1, condition="arrested")) == ("check", "main")
    assert len(phases_for(Player(seat=1))) == 6


def _state(*players: Player, ending: Ending) -> ChojinState:
    return ChojinState(
        catalog=CATALOG, seats=len(players), players={p.seat: p for p in players}, ending=ending
    )


def test_result_classes_for_an_unopposed_good_victory() -> None:
    state = _state(
        player(1, "ロック"),
        player(2, "ストロハイム大佐"),
        player(3, "狂人ストロハイム"),
        player(4, "クーガー大尉", condition="dead"),
        player(5, "ジャマー", condition="dead"),
        ending=Ending(reason="victory", faction="G", seat=1),
    )
    table = results(state)
    assert table[1]["class"] == "C"  # own condition: 狂人ストロハイム alive
    assert table[2]["class"] == "C" and "勝利宣言" in table[2]["reasons"][0]
    assert table[3]["class"] == "C"  # own condition: ロック alive
    assert table[4]["class"] == "B"  # dead Good, no condition met
    assert table[5]["class"] == "D"  # a dead Special loses


def test_sole_victory_ignores_conditions() -> None:
    state = _state(
        player(1, "狂人ストロハイム"),
        player(2, "ロック", condition="dead"),
        ending=Ending(reason="sole_victory", faction="S", seat=1),
    )
    table = results(state)
    assert table[1]["class"] == "A" and table[2]["class"] == "D"


def test_all_dead_everyone_loses() -> None:
    state = _state(
        player(1, "ロック", condition="dead"),
        player(2, "ニア", condition="dead"),
        ending=Ending(reason="all_dead"),
    )
    assert {r["class"] for r in results(state).values()} == {"D"}


def test_keys_destroyed_beats_evil_and_absent_characters_are_ignored() -> None:
    state = _state(
        player(1, "クーガー大尉"),  # defeat: ロック dead — ロック is not in the game: ignored
        player(2, "ストロハイム大佐"),  # defeat: ロック alive — not in the game: ignored
        player(3, "戦士クーガー", step=1),  # converted to Good
        ending=Ending(reason="keys_destroyed", faction="G"),
    )
    table = results(state)
    assert table[1]["won"] and table[1]["class"] == "A"
    assert not table[2]["won"] and table[2]["reasons"] == ["基地カード「重要拠点」が全て破壊された"]
    assert table[3]["won"] and table[3]["faction"] == "G"


def test_a_result_reads_in_the_rulebook_words_and_in_english() -> None:
    """4.2's reasons in Japanese (the table's language); each one's catalog key and arguments
    give the English page its own words (the pane reads `reason_keys` there)."""
    state = _state(
        player(1, "ロック"),  # defeat: 狂人ストロハイム alive — not in the game: ignored
        player(2, "ストロハイム大佐"),  # defeat: ロック alive
        ending=Ending(reason="keys_destroyed", faction="G"),
    )
    row = results(state)[2]
    assert row["reasons"] == [
        "基地カード「重要拠点」が全て破壊された",
        "固有の敗北条件: ロックが生きている",
    ]
    english = [translate(r["msg"], "en", **r["args"]) for r in row["reason_keys"]]
    assert english == ["every 重要拠点 was destroyed", "own condition: ロック is alive"]
    assert [translate(r["msg"], "ja", **r["args"]) for r in row["reason_keys"]] == row["reasons"]
    assert results(state)[1]["reasons"] == ["敗北条件を満たしていない"]


def test_a_second_leader_alive_defeats_the_first() -> None:
    second = CATALOG.character("ニア").model_copy(update={"leader": True})
    state = _state(
        player(1, "ロック"),
        Player(seat=2, sheet=second),
        player(3, "狂人ストロハイム", condition="dead"),
        ending=Ending(reason="host"),
    )
    table = results(state)
    assert "自分以外の(L)キャラクターが生きている" in table[1]["reasons"]
    assert table[3]["class"] == "D"


def test_the_vigil_ending_defeats_good_only() -> None:
    state = _state(
        player(1, "ニア"),  # G
        player(2, "ストロハイム大佐"),  # E, no condition on characters in this game
        player(3, "サイ・エキスパンダー"),  # S
        ending=Ending(reason="vigil", faction="E", seat=2),
    )
    table = results(state)
    assert table[1]["class"] == "C" and "1000ターン生存" in table[1]["reasons"][0]
    assert table[2]["class"] == "A" and table[3]["class"] == "A"


def test_all_out_keeps_the_usual_conditions_for_the_disabled() -> None:
    state = _state(
        player(1, "ニア", condition="disabled"),
        player(2, "サイ・エキスパンダー", condition="black_hole"),
        ending=Ending(reason="all_out"),
    )
    table = results(state)
    assert table[1]["class"] == "A" and table[1]["alive"]
    assert table[2]["class"] == "D"  # fell into the black hole: dead, and a dead Special loses


def _watched(before: Player, after: Player, stage_after: str = "base") -> Mapping[int, int]:
    old = _state(before, ending=Ending(reason="host")).model_copy(
        update={"stage": "base", "vigils": {1: 5}}
    )
    new = old.model_copy(update={"players": {1: after}, "stage": stage_after, "vigils": {1: 5}})
    return vigil.watch(old, new).vigils


def test_a_vigil_restarts_on_a_move_and_ends_with_death_only() -> None:
    here, there = Cell(row=2, col=2), Cell(row=2, col=3)
    assert _watched(player(1, "ニア", cell=here), player(1, "ニア", cell=there)) == {1: 0}
    assert _watched(player(1, "ニア", cell=here), player(1, "ニア", cell=here)) == {1: 5}
    assert _watched(player(1, "ニア"), player(1, "ニア", cell=here)) == {1: 5}  # placed
    assert _watched(
        player(1, "ニア", position=Position(planet=1, square=2)),
        player(1, "ニア"),
        stage_after="keys",
    ) == {1: 5}  # pieces leave the planets with the stage
    dead = player(1, "ニア", cell=here, condition="dead")
    assert _watched(player(1, "ニア", cell=here), dead) == {}
    assert _watched(player(1, "ニア"), player(1, "ニア", condition="disabled")) == {1: 5}


def test_the_black_hole_forbids_recovery_only_beside_a_face_up_white_hole() -> None:
    holes = (
        SquareCard(name="ブラックホール", kind="effect", recovery_blocked_by="ホワイトホール"),
        SquareCard(name="ホワイトホール", kind="effect"),
    )
    catalog = CATALOG.model_copy(update={"base_cards": holes})
    fallen = player(1, "ニア", cell=Cell(row=1, col=1))

    def blocked(board: Board) -> str | None:
        state = ChojinState(catalog=catalog, seats=5, stage="base", board=board)
        return recovery.blocked_by(state, fallen)

    assert blocked(Board(base_turned={"1:1": "ブラックホール"})) is None
    white = {"1:1": "ブラックホール", "2:2": "ホワイトホール"}
    assert blocked(Board(base_turned=white)) == "ブラックホール"
    # a face-down ホワイトホール must not count: the refusal would betray the card
    hidden = Board(base_turned={"1:1": "ブラックホール"}, base={"2:2": "ホワイトホール"})
    assert blocked(hidden) is None
