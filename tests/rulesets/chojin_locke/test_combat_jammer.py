"""6.1 / 6.2 ESPジャマー through the real deciders: an obstacle's jammer voids the C-card uses
l.1307–1310 name when their final LV is 1–X; the cards go back to their hands, unusable until
the round ends, no power spent; the fighter may act again (rulings CL-082–CL-083)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.model.errors import Forbidden
from domain.rulesets.chojin_locke import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.combat.action_events import (
    AttackLanded,
    CardActivated,
    DamageRolled,
)
from domain.rulesets.chojin_locke.combat.flow_events import CombatRoundBegun
from domain.rulesets.chojin_locke.combat.jammer import JammerDestroyed, JammerUsed
from tests.rulesets.chojin_locke.combat_domain import Fight, fight, refused
from tests.rulesets.chojin_locke.lines import described

POLICE = 101


def jammed_fight(hands: dict[int, list[str]], lv: int = 3, **kw: Any) -> Fight:
    f = fight(hands, **kw)
    f.do("host", "add_obstacle", name="警戒装置", members=[4], firepower=2, jammer_lv=lv)
    return f


def of(f: Fight, kind: type, start: int = 0) -> list[Any]:
    return [e for e, _ in f.events[start:] if isinstance(e, kind)]


def test_an_attack_card_on_a_jamming_obstacle_goes_back_to_the_hand() -> None:
    """l.1308, l.1253–1259: voided, back in hand and locked, no power spent; the attack counts
    (l.1256) and the fighter may take another main action (l.1257–1258)."""
    f = jammed_fight({1: ["サイコブラスト", "テレポート"], 2: [], 3: []}, lv=5)
    out = f.do(
        "seat:1", "play_card", card="サイコブラスト", kind="攻撃", target=POLICE, esp_level=6
    )
    assert [type(e) for e in out] == [CardActivated, JammerUsed]
    (jam,) = of(f, JammerUsed)
    assert (jam.jammer, jam.fighter, jam.use, jam.lv) == (POLICE, 1, "main", 5)
    assert [(r.holder, r.card, r.power) for r in jam.returned] == [(1, "サイコブラスト", 5)]
    assert f.hand(1) == ["テレポート", "サイコブラスト"] and f.combat.discard == []
    assert f.combat.locked == {1: ["サイコブラスト"]}
    assert f.state.players[1].power_spent == 0
    assert f.combat.attack is None and f.combat.attacked and not f.combat.main_done
    refused(
        f,
        "seat:1",
        "play_card",
        "card_locked",
        card="サイコブラスト",
        kind="攻撃",
        target=2,
        esp_level=6,
    )
    # 3.1 l.295: the attack counts as made, so no [逃避] this turn
    refused(
        f, "seat:1", "play_card", "attacked_this_turn", card="テレポート", kind="逃避", esp_level=6
    )
    f.faces = [1, 1, 1, 1]
    f.do("seat:1", "melee", target=POLICE, endurance=5)  # another main action: 格闘 is no C-card
    assert len(of(f, DamageRolled)) == 2 and f.combat.main_done


def test_an_attack_above_the_jammers_lv_is_not_jammed() -> None:
    f = jammed_fight({1: ["サイコブラスト"], 2: [], 3: []}, lv=3)
    f.faces = [1, 1]
    f.do("seat:1", "play_card", card="サイコブラスト", kind="攻撃", target=POLICE, esp_level=6)
    assert not of(f, JammerUsed) and len(of(f, DamageRolled)) == 1
    assert f.state.players[1].power_spent == 5


def test_the_final_lv_after_sync_decides_and_every_joined_card_goes_back() -> None:
    """l.1253 「Cカードが使用された時(同調の処理を行った後)」: LV 1 + 1 joiner = 2 ≤ 2."""
    f = jammed_fight({1: ["ショックウェーブ"], 2: ["ショックウェーブ"], 3: []}, lv=2)
    f.do("seat:1", "play_card", card="ショックウェーブ", kind="攻撃", target=POLICE, esp_level=6)
    assert not of(f, JammerUsed)  # it waits for the 同調
    f.do("seat:2", "sync", card="ショックウェーブ", esp_level=4)
    out = f.do("seat:3", "no_sync")
    (jam,) = [e for e in out if isinstance(e, JammerUsed)]
    assert jam.lv == 2
    assert [(r.holder, r.card, r.power) for r in jam.returned] == [
        (1, "ショックウェーブ", 1),
        (2, "ショックウェーブ", 1),
    ]
    assert f.hand(1) == ["ショックウェーブ"] and f.hand(2) == ["ショックウェーブ"]
    assert f.state.players[1].power_spent == 0 and f.state.players[2].power_spent == 0
    assert f.combat.fighters[2].acted  # its 同調 was made: 行動済み all the same
    assert f.combat.attack is None and not of(f, AttackLanded)


def test_sync_above_the_jammers_lv_gets_through() -> None:
    f = jammed_fight({1: ["ショックウェーブ"], 2: ["ショックウェーブ"], 3: []}, lv=1)
    f.do("seat:1", "play_card", card="ショックウェーブ", kind="攻撃", target=POLICE, esp_level=6)
    f.do("seat:2", "sync", card="ショックウェーブ", esp_level=4)
    f.faces = [1, 1]
    f.do("seat:3", "no_sync")
    assert not of(f, JammerUsed) and len(of(f, DamageRolled)) == 1


def test_an_answer_to_the_jamming_obstacles_attack_is_voided_and_may_be_made_again() -> None:
    """l.1309; the target answers again at the same timing (l.1257–1258) or takes the hit."""
    f = jammed_fight({1: [], 2: ["バリアー", "シールド"], 3: []}, lv=2)
    f.turn_of(POLICE)
    f.do("host", "obstacle_attack", target=2, lv=2)
    out = f.do("seat:2", "respond", card="バリアー", kind="防御", esp_level=4)
    assert [type(e) for e in out] == [CardActivated, JammerUsed]
    attack = f.combat.attack
    assert attack is not None and attack.awaiting == "response" and attack.defended_by is None
    assert f.combat.fighters[2].defence is None and f.hand(2) == ["シールド", "バリアー"]
    refused(f, "seat:2", "respond", "card_locked", card="バリアー", kind="防御", esp_level=4)
    f.faces = [1, 1]  # LV 5 > 2: one 精神力チェック at 5
    out = f.do("seat:2", "respond", card="シールド", kind="防御", esp_level=4, willpower=5)
    assert [e.outcome for e in out if isinstance(e, AttackLanded)] == ["blocked"]


def test_an_escape_card_is_jammed_by_any_jamming_obstacle() -> None:
    """l.1310 「戦闘から離脱する効果を持つ逃避Cカードの使用」: the escaper stays."""
    f = jammed_fight({1: ["テレポート", "ビームキャノン"], 2: [], 3: []}, lv=2)
    f.do("seat:1", "play_card", card="テレポート", kind="逃避", esp_level=6)
    (jam,) = of(f, JammerUsed)
    assert (jam.kind, jam.lv) == ("逃避", 1)
    assert not f.combat.fighters[1].left and not f.combat.main_done
    # 3.1 l.300: after an escape, no [攻撃] this turn
    refused(
        f,
        "seat:1",
        "play_card",
        "escaped_this_turn",
        card="ビームキャノン",
        kind="攻撃",
        target=2,
        esp_level=6,
    )
    refused(f, "seat:1", "melee", "escaped_this_turn", target=2, endurance=3)
    f.do("seat:1", "combat_pass")


def test_the_locked_cards_are_free_after_the_round_end() -> None:
    f = jammed_fight({1: ["テレポート"], 2: [], 3: []}, lv=2)
    f.do("seat:1", "play_card", card="テレポート", kind="逃避", esp_level=6)
    assert f.combat.locked == {1: ["テレポート"]}
    f.state = CHOJIN_LOCKE.fold(f.state, CombatRoundBegun(round=2), 999)
    assert f.combat.locked == {}


def test_a_destroyed_jammer_jams_nothing_more() -> None:
    f = jammed_fight({1: ["サイコブラスト"], 2: [], 3: []}, lv=5)
    count = len(f.events)
    with pytest.raises(Forbidden):
        f.do("seat:1", "destroy_jammer", fighter=POLICE)
    assert len(f.events) == count
    refused(f, "host", "destroy_jammer", "no_jammer", fighter=2)
    (destroyed,) = f.do("host", "destroy_jammer", fighter=POLICE, reason="警戒装置のチャート: 6")
    assert isinstance(destroyed, JammerDestroyed) and not f.combat.fighters[POLICE].jammer
    refused(f, "host", "destroy_jammer", "no_jammer", fighter=POLICE)
    f.faces = [1, 1]
    f.do("seat:1", "play_card", card="サイコブラスト", kind="攻撃", target=POLICE, esp_level=6)
    assert not of(f, JammerUsed) and len(of(f, DamageRolled)) == 1


def test_a_jammer_needs_its_lv() -> None:
    f = fight({1: [], 2: [], 3: []})
    refused(
        f,
        "host",
        "add_obstacle",
        "jammer_lv_required",
        name="警官隊",
        members=[1],
        firepower=1,
        jammer=True,
    )
    f.do("host", "add_obstacle", name="警官隊", members=[1], firepower=1, jammer_lv=2)
    police = f.combat.fighters[POLICE]
    assert police.jammer and police.jammer_lv == 2


def test_the_jammer_lines_read_as_the_table_says_them() -> None:
    f = jammed_fight({1: ["サイコブラスト"], 2: [], 3: []}, lv=5)
    f.do("seat:1", "play_card", card="サイコブラスト", kind="攻撃", target=POLICE, esp_level=6)
    f.do("host", "destroy_jammer", fighter=POLICE)
    said = [described(e.type, e.public_part(), None) for e, _ in f.events]
    texts = [line[1] for line in said if line is not None]
    assert (
        "障害「警戒装置」が戦闘に参加 (NPC101: 1人、耐久力 4、火力2 ESPジャマーLV:5所持)" in texts
    )
    assert (
        "NPC101のESPジャマー: 席1の攻撃使用 (LV5)を無効化 — "
        "手札に戻る、ラウンド終了時まで使用不可: 「サイコブラスト」→席1"
    ) in texts
    assert "NPC101のESPジャマーが破壊された" in texts
