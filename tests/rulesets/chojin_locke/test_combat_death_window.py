"""[死亡時] (3.1 l.284–285) through the real deciders and folds: every character that dies in a
combat gets a window (`death_ability`) at the instant of its death — its [死亡時] abilities
(named aloud) and ability cards (turned up, then discarded), each once — and what follows from
the death (the next combat turn, the game's end) waits until every window is closed (ruling CL-090).
The window opens whatever the sheet holds: the public record of a death is the same for a
character with [死亡時] abilities and one without (hypothesis)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.rulesets.chojin_locke.cards import Ability, AbilityCard
from domain.rulesets.chojin_locke.combat.death import (
    DeathAbilityUsed,
    DeathWindowClosed,
    DeathWindowOpened,
    FighterDied,
)
from domain.rulesets.chojin_locke.combat.flow_events import CombatTurnBegun, CombatTurnEnded
from domain.rulesets.chojin_locke.combat.view import combat_view
from tests.rulesets.chojin_locke.combat_domain import Fight, fight, refused
from tests.rulesets.chojin_locke.lines import described

P1, P2, P3 = "seat:1", "seat:2", "seat:3"
CURSE = Ability(name="断末魔", tags=("死亡時", "E"))
DAILY = Ability(name="遺言", tags=("通常", "死亡時"))
LAST = AbilityCard(name="最後の力", tags=("死亡時",), text="1ダメージを与える。")


def _with(f: Fight, seat: int, abilities: tuple[Ability, ...], cards: list[str]) -> None:
    someone = f.state.players[seat]
    assert someone.sheet is not None
    changed = someone.model_copy(
        update={
            "sheet": someone.sheet.model_copy(update={"abilities": abilities}),
            "abilities": cards,
        }
    )
    catalog = f.state.catalog.model_copy(
        update={"ability_cards": (*f.state.catalog.ability_cards, LAST)}
    )
    f.state = f.state.model_copy(
        update={"catalog": catalog, "players": {**f.state.players, seat: changed}}
    )
    f.start = f.state


def _kill_nia(f: Fight) -> list[Event]:
    """Seat 1's LV 5 サイコブラスト on ニア (endurance 3), declared 3: 4:1, 5 or more damage."""
    f.do(P1, "play_card", card="サイコブラスト", kind="攻撃", target=2, esp_level=6)
    f.do(P2, "respond")
    return f.do(P2, "declare_endurance", endurance=3)


def test_the_window_holds_the_combat_until_the_dead_says_it_is_done() -> None:
    f = fight({1: ["サイコブラスト"]}, faces=[6, 6])
    _with(f, 2, (CURSE, DAILY), ["最後の力", "テレパシー"])
    events = _kill_nia(f)
    died, window = events[-2:]
    assert isinstance(died, FighterDied) and isinstance(window, DeathWindowOpened)
    assert window.seats == (2,) and dict(f.combat.dying) == {2: []}
    assert combat_view(f.combat).dying == {"2": []}
    assert not f.state.players[2].alive  # the death is done; what follows waits
    # everything else waits (nothing appended), the host's too
    refused(f, P1, "combat_next", "death_pending")
    refused(f, "host", "set_condition", "death_pending", seat=3, condition="dead", reason="x")
    refused(f, P1, "death_ability", "no_death_window")
    # refusals that depend on the dead's sheet or hand: to it alone
    error = refused(f, P2, "death_ability", "no_such_ability", ability="時間停止")
    assert CURSE.name in error.message
    refused(f, P2, "death_ability", "not_in_combat", ability=DAILY.name)  # [通常] (3.1 l.260)
    refused(f, P2, "death_ability", "wrong_timing", card="テレパシー")
    # a named [死亡時] ability, once
    (used,) = f.do(P2, "death_ability", ability=CURSE.name, effect="席1に2ダメージ")
    assert isinstance(used, DeathAbilityUsed) and used.public_part()["ability"] == CURSE.name
    refused(f, P2, "death_ability", "used_at_this_death", ability=CURSE.name)
    # a card: turned up at the instant of death, discarded with the dead's face-up cards (l.846)
    (card,) = f.do(P2, "death_ability", card="最後の力")
    assert isinstance(card, DeathAbilityUsed) and card.text == "1ダメージを与える。"
    assert list(f.state.players[2].abilities) == ["テレパシー"]
    assert dict(f.combat.dying) == {2: [CURSE.name, "最後の力"]}
    (closed,) = f.do(P2, "death_ability")
    assert isinstance(closed, DeathWindowClosed) and dict(f.combat.dying) == {}
    refused(f, P2, "death_ability", "no_death_window")
    # seat 1's turn goes on
    f.do(P1, "combat_next")
    assert f.combat.phase == "support2"
    for event, _audience in f.events:
        said = described(event.type, event.public_part(), None)
        assert said is not None and "{" not in said[1]


def test_dying_in_its_own_turn_ends_it_once_both_windows_close() -> None:
    # クーガー (turn, [格闘:1]) declares 1 against ニア, who fights back at 3: both die
    f = fight({}, faces=[6, 6, 6, 6])
    f.turn_of(3)
    f.do(P3, "melee", target=2, endurance=1, shift=1)
    f.do(P2, "respond")
    events = f.do(P2, "counter", endurance=3)
    assert sorted(e.fighter for e in events if isinstance(e, FighterDied)) == [2, 3]
    window = events[-1]
    assert isinstance(window, DeathWindowOpened) and window.seats == (2, 3)
    assert not any(isinstance(e, CombatTurnEnded) for e in events)
    (closed,) = f.do(P3, "death_ability")  # one closed: the other still waits
    assert isinstance(closed, DeathWindowClosed) and list(f.combat.dying) == [2]
    refused(f, P1, "combat_next", "death_pending")
    closed, ended, *rest = f.do(P2, "death_ability")
    assert isinstance(ended, CombatTurnEnded) and ended.fighter == 3
    # クーガー was the last in the order: the round ends, one fighter left — the combat is over
    assert [type(e).__name__ for e in rest][:2] == ["CombatRoundEnding", "CombatEnded"]
    assert f.state.combat is None


def test_the_next_fighter_begins_once_the_window_of_the_one_playing_closes() -> None:
    f = fight({}, faces=[6, 6, 1, 1])
    f.turn_of(1)  # ロック (endurance 5) fights ニア; ニア's 反撃 kills it, ニア lives
    f.do(P1, "melee", target=2, endurance=1)
    f.do(P2, "respond")
    events = f.do(P2, "counter", endurance=3)
    assert [e.fighter for e in events if isinstance(e, FighterDied)] == [1]
    _closed, ended, begun = f.do(P1, "death_ability")
    assert isinstance(ended, CombatTurnEnded) and ended.fighter == 1
    assert isinstance(begun, CombatTurnBegun) and begun.fighter == 2


def _public(f: Fight) -> list[tuple[str, str, tuple[str, ...]]]:
    return [
        (e.type, json.dumps(e.public_part(), ensure_ascii=False, sort_keys=True), audience)
        for e, audience in f.events
    ]


names = st.text(alphabet="アイウエオカキクケコ死亡時", min_size=1, max_size=8)
tag_sets = st.lists(
    st.sampled_from(["死亡時", "全般", "戦闘", "通常", "E", "支援", "対抗(攻撃)"]),
    max_size=3,
    unique=True,
)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(names, tag_sets), max_size=4, unique_by=lambda a: a[0]),
    st.lists(names, max_size=3),
    st.integers(5, 6),
)
def test_a_death_reads_the_same_whatever_the_sheet_holds(
    abilities: list[tuple[str, list[str]]], tries: list[str], face: int
) -> None:
    """An attacker's view: the window, its refusals and the record of a death tell nothing of
    the dead's [死亡時] abilities until it names one itself."""
    baseline = fight({1: ["サイコブラスト"]}, faces=[face, face])
    _kill_nia(baseline)
    f = fight({1: ["サイコブラスト"]}, faces=[face, face])
    _with(f, 2, tuple(Ability(name=n, tags=tuple(t)) for n, t in abilities), ["最後の力"])
    _kill_nia(f)
    assert _public(f) == _public(baseline)
    # whatever it tries that is refused changes nothing anyone could see
    for name in tries:
        before, count = f.state, len(f.events)
        try:
            f.do(P2, "death_ability", ability=name)
        except RuleViolation:
            assert f.state is before and len(f.events) == count
        else:
            assert "死亡時" in dict(abilities)[name]
            f.events.pop()  # a real use is public by design; compare the rest
            f.state = before
    f.do(P2, "death_ability")
    baseline.do(P2, "death_ability")
    assert _public(f) == _public(baseline)
    sealed: list[Any] = [e for e, audience in f.events if audience]
    for event in sealed:  # nothing about the window is sealed to anyone
        assert not isinstance(event, (DeathWindowOpened, DeathAbilityUsed, DeathWindowClosed))
