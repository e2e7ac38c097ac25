"""6.2 障害 in a combat through the real deciders: attacks on an obstacle hit every member, each
member's 損害判定 at its remaining endurance (an NPC declares all it has), a 格闘 is fought back
by each member, and an obstacle's own attack is answered by its target like any."""

from __future__ import annotations

import pytest

from domain.model.errors import Forbidden
from domain.model.events import Event
from domain.rulesets.chojin_locke.combat.action_events import AttackLanded, DamageRolled
from domain.rulesets.chojin_locke.combat.death import FighterDied
from domain.rulesets.chojin_locke.combat.flow_events import CombatTurnEnded
from domain.rulesets.chojin_locke.combat.initiative import in_play
from domain.rulesets.chojin_locke.combat.obstacles import ObstacleAttacked
from tests.rulesets.chojin_locke.combat_domain import Fight, fight, refused
from tests.rulesets.chojin_locke.lines import described


def with_police(f: Fight, members: list[int], firepower: int = 3) -> int:
    f.do("host", "add_obstacle", name="警官隊", members=members, firepower=firepower)
    return 101


def damages(f: Fight, start: int) -> list[tuple[int, int, int | None, int, int]]:
    """(roller, target, member, endurance, damage) of each DamageRolled since `start`."""
    return [
        (e.roller, e.target, e.member, e.endurance, e.damage)
        for e, _ in f.events[start:]
        if isinstance(e, DamageRolled)
    ]


def test_a_card_attack_hits_every_member_each_judged_apart() -> None:
    """l.1293–1297: every member is attacked, each 損害判定 separately, remaining endurance kept
    apart; l.1335–1336: each declares all it has. No card answers (6.1 l.1176: no hand)."""
    f = fight({1: ["サイコブラスト"], 2: [], 3: []})
    police = with_police(f, [1, 2, 5])
    start = len(f.events)
    # サイコブラスト LV5 fp12: 12:1 → 4:1以上, 6:1 → 4:1以上, 12:5 → 2:1; all rolls 2
    f.faces = [1, 1, 1, 1, 1, 1]
    f.do("seat:1", "play_card", card="サイコブラスト", kind="攻撃", target=police, esp_level=6)
    landed = [e for e, _ in f.events[start:] if isinstance(e, AttackLanded)]
    assert [(x.target, x.outcome) for x in landed] == [(police, "hit")]
    assert damages(f, start) == [(1, police, 0, 1, 4), (1, police, 1, 2, 4), (1, police, 2, 5, 2)]
    assert list(f.combat.fighters[police].members) == [0, 0, 3]
    assert f.combat.attack is None and police in {x.id for x in in_play(f.state)}
    assert not [e for e, _ in f.events[start:] if isinstance(e, FighterDied)]
    lines = [e for e, _ in f.events[start:]]
    assert f.faces == [] and len(lines) == 5


def test_the_last_member_dead_takes_the_obstacle_out() -> None:
    f = fight({1: ["サイコブラスト"], 2: [], 3: []})
    police = with_police(f, [1, 1])
    f.faces = [1, 1, 1, 1]
    out = f.do(
        "seat:1", "play_card", card="サイコブラスト", kind="攻撃", target=police, esp_level=6
    )
    assert [e.fighter for e in out if isinstance(e, FighterDied)] == [police]
    assert list(f.combat.fighters[police].members) == [0, 0]
    assert police not in {x.id for x in in_play(f.state)}
    # a dead obstacle is no target any more
    f.turn_of(2)
    refused(f, "seat:2", "melee", "bad_target", target=police, endurance=3)


def test_a_syncable_attack_hits_the_obstacle_once_the_last_answer_is_in() -> None:
    f = fight({1: ["ショックウェーブ"], 2: [], 3: []})
    police = with_police(f, [2])
    f.do("seat:1", "play_card", card="ショックウェーブ", kind="攻撃", target=police, esp_level=6)
    assert f.combat.attack is not None and f.combat.attack.awaiting == "sync"
    f.do("seat:2", "no_sync")
    start = len(f.events)
    f.faces = [6, 6]  # 3:2 → 1:1, total 12 → 1 + 1 + 1 = 3 ≥ 2: dead
    out = f.do("seat:3", "no_sync")
    assert damages(f, start) == [(1, police, 0, 2, 3)]
    assert [e.fighter for e in out if isinstance(e, FighterDied)] == [police]


def test_melee_on_an_obstacle_each_member_fights_back() -> None:
    """l.1339–1340: 「NPCは必ず格闘攻撃の反撃を行います」; each member's roll and 反撃 at once."""
    f = fight({1: [], 2: [], 3: []})
    police = with_police(f, [2, 3])
    start = len(f.events)
    # ロック declares 5: on member 0 (2) 5:2 → 2:1, total 2 → 2 (dead); its 反撃 2:5 → 1:2以下,
    # total 11 → 2; on member 1 (3) 5:3 → 1:1, total 6 → 1; its 反撃 3:5, total 7 → 1
    f.faces = [1, 1, 6, 5, 3, 3, 4, 3]
    f.do("seat:1", "melee", target=police, endurance=5)
    assert damages(f, start) == [
        (1, police, 0, 2, 2),
        (police, 1, None, 5, 2),
        (1, police, 1, 3, 1),
        (police, 1, None, 5, 1),
    ]
    assert list(f.combat.fighters[police].members) == [0, 2]
    assert f.state.players[1].endurance_damage == 3 and f.state.players[1].alive
    assert f.combat.attack is None and f.combat.main_done


def test_a_counter_at_or_above_the_declared_endurance_kills_the_attacker() -> None:
    f = fight({1: [], 2: [], 3: []})
    police = with_police(f, [5])
    # ロック declares 1: its roll 1:5 → 1:2以下, total 2 → 0; the 反撃 5:1 → 4:1以上, total 2 → 4
    f.faces = [1, 1, 1, 1]
    out = f.do("seat:1", "melee", target=police, endurance=1)
    assert [e.fighter for e in out if isinstance(e, FighterDied)] == [1]
    assert not f.state.players[1].alive


def test_a_remnant_is_still_no_target() -> None:
    from domain.rulesets.chojin_locke.combat.state import Fighter

    f = fight({1: ["サイコブラスト"], 2: [], 3: []})
    ghost = Fighter(id=101, name="残留思念", kind="remnant", seat=3, firepower=4)
    fighters = {**f.combat.fighters, 101: ghost}
    f.state = f.state.model_copy(
        update={"combat": f.combat.model_copy(update={"fighters": fighters})}
    )
    refused(
        f,
        "seat:1",
        "play_card",
        "remnant_not_a_target",
        card="サイコブラスト",
        kind="攻撃",
        target=101,
        esp_level=6,
    )


def attacked(events: list[Event]) -> list[ObstacleAttacked]:
    return [e for e in events if isinstance(e, ObstacleAttacked)]


def police_turn(f: Fight, members: list[int], firepower: int = 3) -> int:
    police = with_police(f, members, firepower)
    f.turn_of(police)
    return police


def test_an_obstacles_attack_is_answered_like_any() -> None:
    """l.1295: the living members' firepower; the target answers (respond, declare_endurance)."""
    f = fight({1: [], 2: ["バリアー"], 3: []})
    police = police_turn(f, [1, 1, 1], firepower=6)
    # one of three dead (as a hit leaves it): 6 × 2 ÷ 3 = 4
    dead = f.combat.fighters[police].model_copy(update={"members": [1, 0, 1]})
    fighters = {**f.combat.fighters, police: dead}
    f.state = f.state.model_copy(
        update={"combat": f.combat.model_copy(update={"fighters": fighters})}
    )
    count = len(f.events)
    with pytest.raises(Forbidden):
        f.do("seat:1", "obstacle_attack", target=2)
    assert len(f.events) == count
    refused(f, "host", "obstacle_attack", "bad_target", target=police)
    out = attacked(f.do("host", "obstacle_attack", target=2, lv=2))
    assert [(e.target, e.lv, e.firepower) for e in out] == [(2, 2, 4)]
    assert f.combat.attack is not None and f.combat.attack.weapon and f.combat.main_done
    refused(f, "host", "obstacle_attack", "main_action_used", target=2)
    f.do("seat:2", "respond")
    assert f.combat.attack is not None and f.combat.attack.awaiting == "endurance"
    f.faces = [1, 1]  # 4:3 → 1:1, total 2 → 1
    start = len(f.events)
    f.do("seat:2", "declare_endurance", endurance=3)
    assert damages(f, start) == [(police, 2, None, 3, 1)]
    assert f.state.players[2].endurance_damage == 1 and f.combat.attack is None


def test_a_defence_blocks_an_obstacles_attack() -> None:
    f = fight({1: [], 2: ["バリアー"], 3: []})
    police_turn(f, [1])
    f.do("host", "obstacle_attack", target=2, lv=2)
    f.faces = [6, 6]
    out = f.do("seat:2", "respond", card="バリアー", esp_level=4)
    assert [e.outcome for e in out if isinstance(e, AttackLanded)] == ["blocked"]
    assert f.combat.attack is None


def test_a_random_target_is_rolled_among_the_legal_ones() -> None:
    """6.2 l.1282–1283: in 惑星編 the NPC picks among every other fighter, at random."""
    f = fight({1: [], 2: [], 3: []})
    police = police_turn(f, [1])
    f.faces = [3]
    (event,) = attacked(f.do("host", "obstacle_attack", target="random"))
    assert event.candidates == (1, 2, 3) and event.target == 3
    assert event.roll is not None and event.roll.expression == "1D3"
    assert f.combat.attack is not None and f.combat.attack.target == 3
    assert police not in event.candidates


def test_in_the_base_only_explorers_characters_are_targets() -> None:
    """6.2 l.1284: 「攻撃対象を探索プレイヤーのキャラクターの中からランダムに選択」."""
    f = fight({1: [], 2: [], 3: []})
    players = {**f.state.players, 2: f.state.players[2].model_copy(update={"side": "base"})}
    f.state = f.state.model_copy(
        update={"players": players, "combat": f.combat.model_copy(update={"stage": "base"})}
    )
    police_turn(f, [1])
    f.do("host", "add_obstacle", name="ゴーレム", members=[3], firepower=2)
    refused(f, "host", "obstacle_attack", "bad_target", target=2)
    refused(f, "host", "obstacle_attack", "bad_target", target=102)
    f.faces = [2]
    (event,) = attacked(f.do("host", "obstacle_attack", target="random"))
    assert event.candidates == (1, 3) and event.target == 3


def test_a_random_pick_among_one_rolls_nothing() -> None:
    """Ruling CL-077: with one legal target there is nothing to roll for."""
    f = fight({1: [], 2: [], 3: []})
    players = dict(f.state.players)
    for seat in (2, 3):
        players[seat] = players[seat].model_copy(update={"side": "base"})
    f.state = f.state.model_copy(
        update={"players": players, "combat": f.combat.model_copy(update={"stage": "base"})}
    )
    police_turn(f, [1])
    f.faces = []  # a roll would find no face to draw
    (event,) = attacked(f.do("host", "obstacle_attack", target="random"))
    assert event.candidates == (1,) and event.target == 1 and event.roll is None


def test_an_obstacle_attacks_another_obstacle_in_the_planet_stage() -> None:
    f = fight({1: [], 2: [], 3: []})
    police = police_turn(f, [1], firepower=6)
    f.do("host", "add_obstacle", name="ゴーレム", members=[3, 3], firepower=2)
    f.faces = [1, 1, 1, 1]  # 6:3 → 2:1, total 2 → 2 each
    start = len(f.events)
    f.do("host", "obstacle_attack", target=102)
    assert damages(f, start) == [(police, 102, 0, 3, 2), (police, 102, 1, 3, 2)]
    assert list(f.combat.fighters[102].members) == [1, 1]


def test_not_the_obstacles_turn() -> None:
    f = fight({1: [], 2: [], 3: []})
    with_police(f, [1])
    refused(f, "host", "obstacle_attack", "not_an_obstacle_turn", target=2)


def said(f: Fight, start: int) -> list[str]:
    """The public log lines of the events since `start`."""

    out = []
    for e, _ in f.events[start:]:
        line = described(e.type, e.public_part(), None)
        assert line is not None
        out.append(line[1])
    return out


def test_log_lines_name_the_member_and_the_random_pick() -> None:
    f = fight({1: ["サイコブラスト"], 2: [], 3: []})
    police = with_police(f, [1, 1])
    start = len(f.events)
    f.faces = [1, 1, 1, 1]
    f.do("seat:1", "play_card", card="サイコブラスト", kind="攻撃", target=police, esp_level=6)
    lines = said(f, start)
    assert any("NPC101の2人目" in line and "ダメージ4" in line for line in lines), lines
    assert "NPC101が死亡" in lines[-1]
    f = fight({1: [], 2: [], 3: []})
    police = police_turn(f, [1, 1], firepower=2)
    f.faces = [2]
    start = len(f.events)
    f.do("host", "obstacle_attack", target="random", lv=3)
    (line,) = said(f, start)
    assert line.startswith("NPC101が武器で攻撃 → ")
    assert "ランダム" in line and "LV3 火力2" in line and "{" not in line


def test_the_view_shows_a_weapon_attack_and_the_audit_skips_npc_endurance() -> None:
    from domain.rulesets.chojin_locke.combat.view import combat_view
    from tests.rulesets.chojin_locke.combat_domain import audit_of

    f = fight({1: ["サイコブラスト"], 2: [], 3: []})
    police = police_turn(f, [2, 2], firepower=4)
    f.do("host", "obstacle_attack", target=1, lv=1)
    shown = combat_view(f.combat).attack
    assert shown is not None and shown.weapon and shown.card is None
    f.do("seat:1", "respond")
    f.faces = [1, 1]
    f.do("seat:1", "declare_endurance", endurance=4)
    assert f.combat.attack is None
    f.turn_of(1)
    f.faces = [1, 1, 1, 1, 1, 1, 1, 1]
    f.do("seat:1", "play_card", card="サイコブラスト", kind="攻撃", target=police, esp_level=6)
    assert list(f.combat.fighters[police].members) == [0, 0]
    checks = audit_of(f)
    what = ["ダメージ: 耐久力", "サイコブラスト使用: ESP能力レベル"]
    assert [c.what for c in checks] == what
    assert all(c.truth is not None for c in checks)


def test_an_obstacles_melee_is_fought_by_each_member() -> None:
    """l.1298–1301: 「警官隊3人が格闘を行う場合、警官隊の耐久力は1なので火力:1の格闘攻撃で
    3回損害判定を行います。」 — and the target's 反撃 on each of them."""
    f = fight({1: [], 2: [], 3: []})
    police = police_turn(f, [1, 1, 1])
    refused(f, "host", "obstacle_attack", "melee_declared", target=2, melee=True, lv=2)
    (event,) = attacked(f.do("host", "obstacle_attack", target=2, melee=True))
    assert (event.lv, event.firepower, event.melee) == (1, 3, True)
    assert f.combat.attack is not None and not f.combat.attack.weapon
    f.do("seat:2", "respond")
    assert f.combat.attack is not None and f.combat.attack.awaiting == "counter"
    start = len(f.events)
    # ニア declares 3: each member 1:3 → 1:2以下, totals 2, 7, 11 → 0, 1, 2 on ニア;
    # ニア's 反撃 3:1 → 3:1, totals 2 each → 3 ≥ 1: each member dies
    f.faces = [1, 1, 1, 1, 3, 4, 1, 1, 5, 6, 1, 1]
    out = f.do("seat:2", "counter", endurance=3)
    assert damages(f, start) == [
        (police, 2, None, 3, 0),
        (2, police, 0, 1, 3),
        (police, 2, None, 3, 1),
        (2, police, 1, 1, 3),
        (police, 2, None, 3, 2),
        (2, police, 2, 1, 3),
    ]
    assert f.state.players[2].endurance_damage == 3
    died = [e.fighter for e in out if isinstance(e, FighterDied)]
    assert died == [2, police]
    # ニア's [死亡時] window first (3.1 l.284–285), the obstacle has none
    assert f.combat.current == police and dict(f.combat.dying) == {2: []}
    out = f.do("seat:2", "death_ability")
    # wiped out in its own combat turn: the turn ends with it (5.2) and the next one begins
    ended = [e.fighter for e in out if isinstance(e, CombatTurnEnded)]
    assert ended == [police] and f.combat.current != police
    assert f.combat.attack is None


def test_no_fight_back_only_the_members_roll() -> None:
    f = fight({1: [], 2: [], 3: []})
    police = police_turn(f, [2, 2])
    f.do("host", "obstacle_attack", target=1, melee=True)
    f.do("seat:1", "respond")
    f.faces = [1, 1, 1, 1]
    start = len(f.events)
    f.do("seat:1", "counter", endurance=5, fight_back=False)
    assert damages(f, start) == [(police, 1, None, 5, 0), (police, 1, None, 5, 0)]
    assert list(f.combat.fighters[police].members) == [2, 2]


def test_an_obstacles_melee_on_another_obstacle_is_the_tables() -> None:
    f = fight({1: [], 2: [], 3: []})
    police_turn(f, [1])
    f.do("host", "add_obstacle", name="ゴーレム", members=[3], firepower=2)
    refused(f, "host", "obstacle_attack", "table_resolved", target=102, melee=True)


def test_the_members_damage_on_a_suit_is_sealed_to_its_wearer() -> None:
    """A target's [スーツ:X] in its declared endurance stays sealed (3.1 l.358) when the
    members of an obstacle hit it: their damage events carry it for its seat alone."""
    from tests.rulesets.chojin_locke.combat_domain import with_ability

    f = fight({1: [], 2: [], 3: []}, sheet_updates={2: with_ability("パワードスーツ", "スーツ:4")})
    police_turn(f, [1])
    f.do("host", "obstacle_attack", target=2, melee=True)
    f.do("seat:2", "respond")
    f.faces = [5, 6, 1, 1]  # the member's 1:3 → 1:2以下, total 11 → 2 (on the suit)
    start = len(f.events)
    f.do("seat:2", "counter", endurance=3, suit=True)
    for event, audience in f.events[start:]:
        if isinstance(event, DamageRolled) and event.target == 2:
            assert audience == ("seat:2",)
            assert "secret" not in event.public_part()
    assert (f.state.players[2].suit_damage, f.state.players[2].endurance_damage) == (2, 0)
