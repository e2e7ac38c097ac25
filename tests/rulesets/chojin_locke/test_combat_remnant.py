"""6.1 残留思念 in a combat through the real deciders: its attack at one character or obstacle
answered by no one, the 同調 and 妨害 of the other 残留思念, a cancelled attack, and the turns
skipped after them (l.1184–1199, rulings CL-079–CL-081)."""

from __future__ import annotations

from typing import Any

from domain.rulesets.chojin_locke.combat.action_events import AttackLanded, DamageRolled
from domain.rulesets.chojin_locke.combat.conditions import CombatTurnSkipped
from domain.rulesets.chojin_locke.combat.flow_events import CombatTurnBegun
from domain.rulesets.chojin_locke.combat.remnant import (
    RemnantAnswered,
    RemnantAttackCancelled,
    RemnantAttacked,
)
from domain.rulesets.chojin_locke.combat.state import Fighter, Maintained
from tests.rulesets.chojin_locke.combat_domain import COUGAR, NIA, ROCK, Fight, fight, refused
from tests.rulesets.chojin_locke.lines import described

DEAD = ("ヤマキ長官", "帝国工作員", "ニア")  # seats 4, 5, 6: dead, each fighting as a 残留思念


def haunted(firepowers: list[int], hands: dict[int, list[str]] | None = None, **kw: Any) -> Fight:
    """Seats 1–3 fight; dead seats 4… each send a 残留思念 (101…) with these 火力; the
    initiative order is 101, 102 …, then 1, 2, 3; 101's combat turn, main phase."""
    sheets = (ROCK, NIA, COUGAR, *DEAD[: len(firepowers)])
    f = fight(hands or {1: [], 2: [], 3: []}, sheets, **kw)
    players = dict(f.state.players)
    fighters = {n: x for n, x in f.combat.fighters.items() if n <= 3}
    for index, power in enumerate(firepowers):
        seat, number = 4 + index, 101 + index
        players[seat] = players[seat].model_copy(update={"condition": "dead", "position": None})
        fighters[number] = Fighter(
            id=number, name=f"残留思念 (Seat {seat})", kind="remnant", seat=seat, firepower=power
        )
    order = [101 + i for i in range(len(firepowers))] + [1, 2, 3]
    f.state = f.state.model_copy(
        update={
            "players": players,
            "combat": f.combat.model_copy(
                update={"fighters": fighters, "order": order, "current": 101}
            ),
        }
    )
    f.start = f.state
    return f


def of(f: Fight, kind: type, start: int = 0) -> list[Any]:
    return [e for e, _ in f.events[start:] if isinstance(e, kind)]


def test_a_remnant_hits_a_character_who_answers_nothing_and_declares_no_suit() -> None:
    """l.1189–1190: no [対抗(攻撃)] against it, no [スーツ:X]."""
    f = haunted([6], hands={1: [], 2: ["バリアー"], 3: []})
    refused(f, "seat:2", "remnant_attack", "not_your_remnant_turn", target=1)
    out = f.do("seat:4", "remnant_attack", target=2)
    assert [type(e) for e in out] == [RemnantAttacked, AttackLanded]
    (landed,) = of(f, AttackLanded)
    assert (landed.attacker, landed.target, landed.outcome, landed.firepower) == (101, 2, "hit", 6)
    attack = f.combat.attack
    assert attack is not None and attack.remnant and attack.awaiting == "endurance"
    assert f.combat.main_done and f.combat.attacked and f.combat.haunted == {2: 1}
    refused(f, "seat:2", "respond", "no_attack_on_you", card="バリアー", kind="防御", esp_level=4)
    refused(f, "seat:2", "use_proxy", "not_your_combat_turn")
    refused(f, "seat:2", "counter_ability", "remnant_attack", ability="気合")
    refused(f, "seat:2", "declare_endurance", "no_suit_on_remnant", endurance=1, suit=True)
    f.faces = [3, 4]  # 6:3 → 2:1, total 7 → 3 ≥ 3: dead
    f.do("seat:2", "declare_endurance", endurance=3)
    (damage,) = of(f, DamageRolled)
    assert (damage.roller, damage.target, damage.firepower, damage.damage) == (101, 2, 6, 3)
    assert not f.state.players[2].alive and f.combat.attack is None


def test_a_maintained_defence_does_not_stop_a_remnant() -> None:
    """l.1190 「[対抗(攻撃)]の行動を行えず」: a kept-up defence answers no 残留思念 (ruling
    CL-079)."""
    f = haunted([4], fighter_updates={1: {"defence": Maintained(card="バリアー", lv=2)}})
    f.do("seat:4", "remnant_attack", target=1)
    (landed,) = of(f, AttackLanded)
    assert landed.outcome == "hit" and landed.by is None


def test_a_remnant_without_firepower_cannot_attack() -> None:
    f = haunted([0])
    refused(f, "seat:4", "remnant_attack", "remnant_no_firepower", target=1)


def test_a_remnant_attacks_a_character_or_an_obstacle_never_a_remnant() -> None:
    """l.1185 「キャラクター1人か障害1体」, l.1189: a 残留思念 is no target (ruling CL-081)."""
    f = haunted([4, 4])
    refused(f, "seat:4", "remnant_attack", "bad_target", target=102)
    refused(f, "seat:4", "remnant_attack", "bad_target", target=101)
    f.turn_of(1)
    refused(f, "seat:1", "melee", "remnant_not_a_target", target=101, endurance=3)


def test_a_remnant_strikes_an_obstacle_member_by_member() -> None:
    f = haunted([8])
    f.do("host", "add_obstacle", name="警官隊", members=[1, 3], firepower=2)
    f.faces = [1, 1, 6, 6]  # 8:1 → 4:1以上 total 2 → 4; 8:3 → 2:1 total 12 → 4
    f.do("seat:4", "remnant_attack", target=102)
    assert [(d.roller, d.member, d.damage) for d in of(f, DamageRolled)] == [
        (101, 0, 4),
        (101, 1, 4),
    ]
    assert list(f.combat.fighters[102].members) == [0, 0]


def test_sync_and_hinder_change_the_firepower_and_spend_the_turns() -> None:
    """l.1193–1199: 同調 adds, 妨害 takes away; both are 行動済み and their turns skipped."""
    f = haunted([6, 4, 3])
    (attacked,) = f.do("seat:4", "remnant_attack", target=3)
    assert isinstance(attacked, RemnantAttacked) and attacked.waiting == (102, 103)
    assert f.combat.attack is not None and f.combat.attack.awaiting == "sync"
    refused(f, "seat:3", "respond", "no_attack_on_you")
    refused(f, "seat:1", "remnant_answer", "no_remnant_request", answer="sync")
    f.do("seat:5", "remnant_answer", answer="sync")
    refused(f, "seat:5", "remnant_answer", "no_remnant_request", answer="hinder")
    assert f.combat.attack is not None and f.combat.attack.firepower == 10
    out = f.do("seat:6", "remnant_answer", answer="hinder")
    assert [e.answer for e in of(f, RemnantAnswered)] == ["sync", "hinder"]
    (landed,) = [e for e in out if isinstance(e, AttackLanded)]
    assert landed.firepower == 7 and landed.outcome == "hit"
    attack = f.combat.attack
    assert attack is not None and (attack.joiners, attack.hinderers) == ([102], [103])
    assert f.combat.fighters[102].acted and f.combat.fighters[103].acted
    f.faces = [1, 1]
    f.do("seat:3", "declare_endurance", endurance=5)
    # 101's turn ends: 102 and 103 are skipped, seat 1's turn begins
    phased = f.combat.model_copy(update={"phase": "support2"})
    f.state = f.state.model_copy(update={"combat": phased})
    start = len(f.events)
    f.do("seat:4", "combat_next")
    skipped = [(e.fighter, e.reason) for e in of(f, CombatTurnSkipped, start)]
    assert skipped == [(102, "remnant_acted"), (103, "remnant_acted")]
    assert [e.fighter for e in of(f, CombatTurnBegun, start)] == [1]


def test_an_answer_of_none_keeps_the_turn() -> None:
    f = haunted([6, 4])
    f.do("seat:4", "remnant_attack", target=1)
    f.do("seat:5", "remnant_answer", answer="none")
    assert not f.combat.fighters[102].acted
    assert f.combat.attack is not None and f.combat.attack.firepower == 6


def test_hindered_to_nothing_the_attack_is_cancelled_and_its_target_spared() -> None:
    """l.1198 「火力が0以下になった場合、その攻撃は打ち消されます」; l.1195: the target was
    attacked all the same, so no other 残留思念 attacks it this round (ruling CL-080)."""
    f = haunted([4, 4])
    f.do("seat:4", "remnant_attack", target=2)
    out = f.do("seat:5", "remnant_answer", answer="hinder")
    (cancelled,) = [e for e in out if isinstance(e, RemnantAttackCancelled)]
    assert (cancelled.target, cancelled.firepower) == (2, 0)
    assert f.combat.attack is None and f.combat.attacked and not of(f, AttackLanded)
    # a later 残留思念 this round: seat 2 is spared, seat 1 is not
    f.state = f.state.model_copy(
        update={
            "combat": f.combat.model_copy(
                update={
                    "fighters": {
                        **f.combat.fighters,
                        102: f.combat.fighters[102].model_copy(update={"acted": False}),
                    },
                    "current": 102,
                    "main_done": False,
                }
            )
        }
    )
    refused(f, "seat:5", "remnant_attack", "already_haunted", target=2)
    f.do("seat:5", "remnant_attack", target=1)


def test_every_remnant_event_reads_as_a_line() -> None:
    f = haunted([6, 4, 3])
    f.do("seat:4", "remnant_attack", target=2)
    f.do("seat:5", "remnant_answer", answer="sync")
    f.do("seat:6", "remnant_answer", answer="hinder")
    said = [described(e.type, e.public_part(), None) for e, _ in f.events]
    texts = [line[1] for line in said if line is not None]
    assert len(texts) == len(said)
    assert texts[0] == "NPC101 (残留思念)が攻撃 → 席2: 火力6 — 同調・妨害を待つ: NPC102・NPC103"
    assert texts[1:3] == ["NPC102 (残留思念): 同調 (火力4)", "NPC103 (残留思念): 妨害 (火力3)"]
