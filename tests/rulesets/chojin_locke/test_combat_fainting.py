"""6.1 気絶状態 through the real deciders: the host makes a character faint, it does nothing —
no turn, no answer, no 反撃, no 同調, no check, no say at the round end — still draws, and wakes
at the end of its last round (l.1264–1270, ruling CL-084)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.model.errors import Forbidden
from domain.rulesets.chojin_locke.combat.action_events import AttackLanded, DamageRolled
from domain.rulesets.chojin_locke.combat.conditions import CombatTurnSkipped, FaintEnded
from domain.rulesets.chojin_locke.combat.fainting import Fainted
from domain.rulesets.chojin_locke.combat.flow_events import (
    CombatCardsDrawn,
    CombatRoundBegun,
    CombatRoundEnding,
    CombatTurnBegun,
    CombatTurnEnded,
)
from domain.rulesets.chojin_locke.combat.state import Fighter, Maintained
from domain.rulesets.chojin_locke.combat.view import combat_view
from tests.rulesets.chojin_locke.combat_domain import Fight, fight, refused
from tests.rulesets.chojin_locke.lines import described


def of(f: Fight, kind: type, start: int = 0) -> list[Any]:
    return [e for e, _ in f.events[start:] if isinstance(e, kind)]


def phase(f: Fight, name: str) -> None:
    f.state = f.state.model_copy(update={"combat": f.combat.model_copy(update={"phase": name})})


def test_only_the_host_makes_a_character_faint() -> None:
    f = fight({1: [], 2: [], 3: []})
    count = len(f.events)
    with pytest.raises(Forbidden):
        f.do("seat:1", "faint", fighter=2, rounds=1)
    assert len(f.events) == count
    refused(f, "host", "faint", "not_fighting", fighter=9, rounds=1)
    f.do("host", "add_obstacle", name="警官隊", members=[1], firepower=1)
    refused(f, "host", "faint", "not_a_character", fighter=101, rounds=1)
    (event,) = f.do("host", "faint", fighter=2, rounds=2, reason="精神攻撃")
    assert isinstance(event, Fainted) and (event.until, event.reason) == (2, "精神攻撃")
    assert f.combat.fighters[2].fainted_until == 2
    (seen,) = [x for x in combat_view(f.combat).fighters if x.id == 2]
    assert seen.stunned_rounds == 2


def test_fainting_in_its_own_turn_ends_it_and_its_next_turn_is_skipped() -> None:
    f = fight({1: [], 2: [], 3: []})
    out = f.do("host", "faint", fighter=1, rounds=1)
    assert [type(e) for e in out] == [Fainted, CombatTurnEnded, CombatTurnBegun]
    assert f.combat.current == 2
    # seat 2 faints before its turn: 3 plays next
    f.do("host", "faint", fighter=3, rounds=1)
    phase(f, "support2")
    start = len(f.events)
    f.do("seat:2", "combat_next")
    assert [(e.fighter, e.reason) for e in of(f, CombatTurnSkipped, start)] == [(3, "fainted")]
    assert of(f, CombatRoundEnding, start)  # nobody after 3: the round end


def test_an_attack_on_a_fainted_character_hits_at_once() -> None:
    """l.1267: no [対抗(X)]; a defence it kept up fell when it fainted (ruling CL-084)."""
    kept = {2: {"defence": Maintained(card="バリアー", lv=2)}}
    f = fight({1: ["ビームキャノン"], 2: ["シールド"], 3: []}, fighter_updates=kept)
    f.do("host", "faint", fighter=2, rounds=1)
    assert f.combat.fighters[2].defence is None
    f.do("seat:1", "play_card", card="ビームキャノン", kind="攻撃", target=2, esp_level=6)
    f.do("seat:3", "no_sync")
    (landed,) = of(f, AttackLanded)
    assert landed.outcome == "hit"
    attack = f.combat.attack
    assert attack is not None and attack.awaiting == "endurance"
    refused(f, "seat:2", "respond", "no_attack_on_you", card="シールド", kind="防御", esp_level=4)
    f.faces = [1, 1]
    f.do("seat:2", "declare_endurance", endurance=3)  # the attacker's roll: it still lands
    assert len(of(f, DamageRolled)) == 1


def test_a_fainted_character_is_not_asked_to_sync() -> None:
    f = fight({1: ["ショックウェーブ"], 2: [], 3: []})
    f.do("host", "faint", fighter=2, rounds=1)
    f.do("seat:1", "play_card", card="ショックウェーブ", kind="攻撃", target=3, esp_level=6)
    attack = f.combat.attack
    assert attack is not None and list(attack.sync_waiting) == []
    assert attack.awaiting == "response"


def test_a_fainted_character_makes_no_counter_and_no_check() -> None:
    f = fight({1: [], 2: [], 3: []})
    f.do("host", "faint", fighter=2, rounds=1)
    f.do("seat:1", "melee", target=2, endurance=3)
    attack = f.combat.attack
    assert attack is not None and attack.awaiting == "counter"
    refused(f, "seat:2", "counter", "fainted", endurance=3, fight_back=True)
    refused(f, "seat:2", "check", "fainted", stat="willpower", declared=3)
    f.faces = [1, 1]
    f.do("seat:2", "counter", endurance=3, fight_back=False)
    assert len(of(f, DamageRolled)) == 1
    f.do("seat:3", "check", stat="willpower", declared=3, faces=[1, 1])


def test_the_round_end_asks_it_nothing_it_draws_and_wakes_at_its_last_rounds_end() -> None:
    """l.1268–1270: “2ラウンドの間” lasts to the next round's end; it still draws."""
    f = fight({1: ["バリアー"] * 7, 2: ["バリアー"] * 7, 3: ["バリアー"] * 3})
    f.state = f.state.model_copy(
        update={"combat": f.combat.model_copy(update={"deck": ["テレポート"] * 20})}
    )
    f.do("host", "faint", fighter=3, rounds=2)
    f.do("seat:1", "combat_pass")
    f.state = f.state.model_copy(update={"combat": f.combat.model_copy(update={"attacked": True})})
    phase(f, "support2")
    f.do("seat:1", "combat_next")
    for name in ("combat_next", "combat_next", "combat_pass", "combat_next", "combat_next"):
        f.do("seat:2", name)  # seat 2's whole turn; seat 3's is skipped
    assert f.combat.step == "round_end"
    (ending,) = of(f, CombatRoundEnding)
    assert ending.waiting == (1, 2)  # not the fainted seat 3
    refused(f, "seat:3", "continue_combat", "not_asked", go_on=True)
    f.do("seat:1", "continue_combat", go_on=True)
    assert list(f.combat.discarding) == [1, 2]  # seat 3 under its limit, and fainted
    f.do("seat:1", "discard_down", cards=[])
    start = len(f.events)
    f.do("seat:2", "discard_down", cards=[])
    drawn = of(f, CombatCardsDrawn, start)
    assert [(e.fighter, e.count) for e in drawn] == [(3, 4)]  # fainted, it still draws
    assert not of(f, FaintEnded, start)  # round 1 of 2
    assert of(f, CombatRoundBegun, start) and f.combat.fighters[3].fainted_until == 2


def test_it_wakes_at_the_end_of_its_last_round() -> None:
    f = fight({1: ["バリアー"] * 7, 2: ["バリアー"] * 7, 3: ["バリアー"] * 7})
    f.state = f.state.model_copy(
        update={
            "combat": f.combat.model_copy(
                update={
                    "deck": ["テレポート"] * 20,
                    "step": "round_end",
                    "attacked": True,
                    "discarding": [1, 2],
                    "fighters": {
                        **f.combat.fighters,
                        3: Fighter(id=3, name="Seat 3", seat=3, fainted_until=1),
                    },
                }
            )
        }
    )
    f.do("seat:1", "discard_down", cards=[])
    out = f.do("seat:2", "discard_down", cards=[])
    (woke,) = [e for e in out if isinstance(e, FaintEnded)]
    assert (woke.fighters, woke.round) == ((3,), 1)
    assert f.combat.fighters[3].fainted_until == 0 and f.combat.round == 2
    texts = [described(e.type, e.public_part(), None) for e in out]
    assert ("rules", "席3の気絶状態が終わる (1ラウンド目終了)") in texts
