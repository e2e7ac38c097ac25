"""Chapter 5's actions through the real deciders and folds: activation (5.3), attack, defence,
escape and damage (5.4), 同調 (5.5), 格闘 (5.6) and death in combat. Refusals append nothing
and never state the truth."""

from __future__ import annotations

import json

from domain.rulesets.chojin_locke.combat.action_events import (
    AttackLanded,
    CardActivated,
    DamageRolled,
    DefenceDropped,
    MeleeAnswered,
    MeleeDeclared,
    ProxyUsed,
)
from domain.rulesets.chojin_locke.combat.death import (
    DeathWindowClosed,
    DeathWindowOpened,
    FighterDied,
)
from domain.rulesets.chojin_locke.combat.initiative import in_play
from domain.rulesets.chojin_locke.combat.state import Maintained
from domain.rulesets.chojin_locke.combat.view import combat_view
from domain.rulesets.chojin_locke.party_events import PartyDissolved
from domain.rulesets.chojin_locke.turn_events import GameOver
from tests.rulesets.chojin_locke.combat_domain import Fight, fight, refused, with_ability

P1, P2, P3 = "seat:1", "seat:2", "seat:3"


# ------------------------------------------------------------------ activation (5.3)


def test_a_declaration_at_or_above_the_lv_succeeds_without_checks() -> None:
    f = fight({1: ["サイコブラスト", "バリアー"], 2: ["テレポート"]})
    (activated,) = f.do(P1, "play_card", card="サイコブラスト", kind="攻撃", target=2, esp_level=5)
    assert isinstance(activated, CardActivated)
    assert activated.success and activated.rolls == () and activated.willpower is None
    assert f.hand(1) == ["バリアー"] and list(f.combat.discard) == ["サイコブラスト"]
    assert f.state.players[1].power_spent == 5  # 「LV分だけ消費します」
    attack = f.combat.attack
    assert attack is not None and attack.lv == 5 and attack.firepower == 12
    assert attack.awaiting == "response" and f.combat.attacked and f.combat.main_done


def test_lv_minus_declared_willpower_checks_all_must_pass() -> None:
    # ニア (ESP 4) declares 2 for an LV 5 card: 3 精神力チェック at willpower 5
    f = fight({2: ["サイコブラスト"]}, faces=[1, 1, 2, 3, 6, 6])
    f.turn_of(2)
    (activated,) = f.do(
        P2, "play_card", card="サイコブラスト", kind="攻撃", target=1, esp_level=2, willpower=5
    )
    assert isinstance(activated, CardActivated)
    assert len(activated.rolls) == 3 and not activated.success
    # a misfire: still an attack action, the card spent and discarded, the power spent
    assert f.combat.attack is None and f.combat.attacked and f.combat.main_done
    assert f.state.players[2].power_spent == 5 and f.hand(2) == []


def test_every_willpower_check_passing_activates() -> None:
    f = fight({2: ["サイコブラスト"]}, faces=[1, 1, 2, 3])
    f.turn_of(2)
    (activated, *_) = f.do(
        P2, "play_card", card="サイコブラスト", kind="攻撃", target=1, esp_level=3, willpower=5
    )
    assert isinstance(activated, CardActivated) and activated.success
    assert len(activated.rolls) == 2


def test_an_esp_level_above_the_truth_is_refused_without_telling_it() -> None:
    f = fight({2: ["サイコブラスト"]})
    f.turn_of(2)
    error = refused(
        f,
        P2,
        "play_card",
        "declaration_too_high",
        card="サイコブラスト",
        kind="攻撃",
        target=1,
        esp_level=5,
        willpower=1,
    )
    assert "4" not in error.message  # ニア's true level


def test_remaining_power_below_the_level_lowers_it() -> None:
    f = fight({2: ["ショックウェーブ"]})
    f.turn_of(2)
    f.state = f.state.model_copy(
        update={
            "players": {
                **f.state.players,
                2: f.state.players[2].model_copy(update={"power_spent": 10}),
            }
        }
    )
    refused(
        f,
        P2,
        "play_card",
        "declaration_too_high",
        card="ショックウェーブ",
        kind="攻撃",
        target=1,
        esp_level=3,
    )
    f.do(P2, "play_card", card="ショックウェーブ", kind="攻撃", target=1, esp_level=2)


def test_willpower_is_required_below_the_lv_and_checked() -> None:
    f = fight({2: ["サイコブラスト"]})
    f.turn_of(2)
    refused(
        f,
        P2,
        "play_card",
        "willpower_required",
        card="サイコブラスト",
        kind="攻撃",
        target=1,
        esp_level=2,
    )
    refused(
        f,
        P2,
        "play_card",
        "declaration_too_high",
        card="サイコブラスト",
        kind="攻撃",
        target=1,
        esp_level=2,
        willpower=6,
    )


def test_only_your_own_hand_in_your_own_main_phase() -> None:
    f = fight({1: ["サイコブラスト"], 2: ["ビームキャノン"]})
    refused(
        f,
        P1,
        "play_card",
        "card_not_in_hand",
        card="ビームキャノン",
        kind="攻撃",
        target=2,
        esp_level=3,
    )
    refused(
        f,
        P2,
        "play_card",
        "not_your_combat_turn",
        card="ビームキャノン",
        kind="攻撃",
        target=1,
        esp_level=3,
    )
    refused(f, P1, "play_card", "wrong_kind", card="サイコブラスト", kind="防御", esp_level=3)
    refused(f, P1, "play_card", "target_required", card="サイコブラスト", kind="攻撃", esp_level=5)
    refused(
        f, P1, "play_card", "bad_target", card="サイコブラスト", kind="攻撃", target=1, esp_level=5
    )


def test_a_defence_is_not_a_main_action() -> None:
    f = fight({1: ["バリアー"]})
    refused(f, P1, "play_card", "wrong_timing", card="バリアー", kind="防御", esp_level=2)


def test_an_escape_as_main_action_leaves_the_combat() -> None:
    f = fight({1: ["テレポート"]})
    f.do(P1, "play_card", card="テレポート", kind="逃避", esp_level=1)
    assert f.combat.fighters[1].left and not f.combat.attacked


# ------------------------------------------------------------------ defence, escape (5.4)


def _attack(f: Fight, card: str = "サイコブラスト", target: int = 2, esp: int = 5) -> None:
    f.do(P1, "play_card", card=card, kind="攻撃", target=target, esp_level=esp)


def test_a_defence_below_the_attacks_lv_is_refused() -> None:
    f = fight({1: ["サイコブラスト"], 2: ["テレポート", "バリアー", "シールド"]})
    _attack(f)
    refused(f, P2, "respond", "below_attack_lv", card="テレポート", kind="逃避", esp_level=1)
    refused(f, P2, "respond", "below_attack_lv", card="バリアー", kind="防御", esp_level=2)
    assert f.hand(2) == ["テレポート", "バリアー", "シールド"]


def test_a_defence_blocks_and_ends_the_attack() -> None:
    f = fight({1: ["サイコブラスト"], 2: ["シールド"]}, faces=[1, 1, 1, 1])
    _attack(f)
    events = f.do(P2, "respond", card="シールド", kind="防御", esp_level=4, willpower=5)
    assert isinstance(events[-1], AttackLanded) and events[-1].outcome == "blocked"
    assert f.combat.attack is None and f.state.players[2].power_spent == 5


def test_one_c_card_per_attack_even_when_it_fails() -> None:
    f = fight({1: ["サイコブラスト"], 2: ["シールド", "ハイテレポート"]}, faces=[6, 6])
    _attack(f)
    events = f.do(P2, "respond", card="シールド", kind="防御", esp_level=4, willpower=5)
    assert isinstance(events[0], CardActivated) and not events[0].success
    assert isinstance(events[-1], AttackLanded) and events[-1].outcome == "hit"
    refused(f, P2, "respond", "no_attack_on_you", card="ハイテレポート", kind="逃避", esp_level=4)


def test_an_escape_evades_and_leaves_the_combat() -> None:
    f = fight({1: ["ビームキャノン"], 2: ["ハイテレポート"]}, sheets=("ロック", "ニア"))
    _attack(f, "ビームキャノン", esp=3)
    events = f.do(P2, "respond", card="ハイテレポート", kind="逃避", esp_level=4)
    assert isinstance(events[-1], AttackLanded) and events[-1].outcome == "evaded"
    assert f.combat.fighters[2].left and f.combat.attack is None


def test_a_maintained_defence_blocks_lower_attacks_and_is_pierced_at_its_lv() -> None:
    f = fight(
        {1: ["ショックウェーブ", "ビームキャノン"], 2: ["バリアー", "テレポート"]},
        sheets=("ロック", "ニア"),
        faces=[1, 1],
    )
    _attack(f, "ショックウェーブ", esp=1)
    f.do(P2, "respond", card="バリアー", kind="防御", esp_level=2)
    kept = f.combat.fighters[2].defence
    assert kept is not None and kept.card == "バリアー" and kept.lv == 2
    f.turn_of(1)
    refused(
        f,
        P1,
        "play_card",
        "card_not_in_hand",
        card="ショックウェーブ",
        kind="攻撃",
        target=2,
        esp_level=1,
    )
    # LV 3 ≥ the defence's LV 2: it pierces, and no other defence or escape is allowed
    events = f.do(P1, "play_card", card="ビームキャノン", kind="攻撃", target=2, esp_level=3)
    landed = events[-1]
    assert isinstance(landed, AttackLanded) and landed.outcome == "hit" and landed.pierced
    refused(f, P2, "respond", "no_attack_on_you", card="テレポート", kind="逃避", esp_level=1)
    assert f.combat.attack is not None and f.combat.attack.awaiting == "endurance"


def test_an_attack_below_a_maintained_defence_is_blocked_at_once() -> None:
    f = fight({1: ["ショックウェーブ"]}, sheets=("ロック", "ニア"))
    f.state = f.state.model_copy(
        update={
            "combat": f.combat.model_copy(
                update={
                    "fighters": {
                        **f.combat.fighters,
                        2: f.combat.fighters[2].model_copy(
                            update={"defence": Maintained(card="バリアー", lv=2)}
                        ),
                    }
                }
            )
        }
    )
    events = f.do(P1, "play_card", card="ショックウェーブ", kind="攻撃", target=2, esp_level=1)
    landed = events[-1]
    assert (
        isinstance(landed, AttackLanded) and landed.outcome == "blocked" and landed.by == "バリアー"
    )
    assert f.combat.attack is None


# ------------------------------------------------------------------ damage


def test_damage_by_the_declared_endurance_and_death_at_or_above_it() -> None:
    f = fight({1: ["サイコブラスト"], 2: ["テレポート"]}, faces=[3, 4])
    f.state = f.state.model_copy(
        update={
            "players": {
                **f.state.players,
                2: f.state.players[2].model_copy(
                    update={"abilities": ["予知"], "face_up": ["予知"], "flags": ["E"]}
                ),
            }
        }
    )
    _attack(f)
    f.do(P2, "respond")
    refused(f, P2, "declare_endurance", "declaration_too_high", endurance=4)
    events = f.do(P2, "declare_endurance", endurance=3)
    rolled = events[0]
    # 火力12 : 耐久力3 = 4:1, total 7: damage 5 ≥ 3
    assert isinstance(rolled, DamageRolled) and rolled.column == "4:1以上" and rolled.damage == 5
    assert isinstance(events[1], FighterDied)
    nia = f.state.players[2]
    assert nia.condition == "dead" and nia.position is None
    assert nia.face_up == [] and nia.abilities == [] and nia.flags == []
    assert 2 not in [x.id for x in in_play(f.state)] and 2 not in f.combat.hands
    assert "テレポート" in f.combat.discard


def test_a_low_declaration_kills_though_endurance_is_left() -> None:
    # ロック (endurance 5) declares 2 against 火力3: 1:1, total 7 → 2 damage ≥ 2: dead
    f = fight({2: ["ショックウェーブ"]}, sheets=("ロック", "ニア"), faces=[3, 4])
    f.turn_of(2)
    f.do(P2, "play_card", card="ショックウェーブ", kind="攻撃", target=1, esp_level=1)
    f.do(P1, "respond")
    events = f.do(P1, "declare_endurance", endurance=2)
    assert isinstance(events[0], DamageRolled) and events[0].damage == 2
    assert isinstance(events[1], FighterDied) and f.state.players[1].condition == "dead"


def test_declaring_the_whole_endurance_survives_small_damage() -> None:
    f = fight({2: ["ショックウェーブ"]}, sheets=("ロック", "ニア"), faces=[3, 4])
    f.turn_of(2)
    f.do(P2, "play_card", card="ショックウェーブ", kind="攻撃", target=1, esp_level=1)
    f.do(P1, "respond")
    (rolled,) = f.do(P1, "declare_endurance", endurance=5)
    assert isinstance(rolled, DamageRolled) and rolled.column == "1:2以下" and rolled.damage == 1
    assert f.state.players[1].endurance_damage == 1 and f.combat.attack is None


def test_a_suit_takes_the_damage_and_breaks_unseen() -> None:
    f = fight(
        {1: ["サイコブラスト"]}, faces=[3, 4], sheet_updates={2: with_ability("装甲服", "スーツ:4")}
    )
    _attack(f)
    f.do(P2, "respond")
    refused(f, P2, "declare_endurance", "declaration_too_high", endurance=5, suit=True)
    events = f.do(P2, "declare_endurance", endurance=4, suit=True)
    assert len(events) == 1  # 5 damage ≥ 4 breaks the suit; its wearer does not die
    nia = f.state.players[2]
    assert nia.alive and nia.endurance_damage == 0 and nia.suit_broken
    (event, audience) = f.events[-1]
    assert audience == ("seat:2",)
    assert "suit" not in json.dumps(event.public_part())
    refused(f, P2, "declare_endurance", "no_attack_on_you", endurance=1)


def test_a_death_dissolves_the_party() -> None:
    f = fight({1: ["サイコブラスト"]}, faces=[6, 6], parties={3: [2]})
    _attack(f)
    f.do(P2, "respond")
    events = f.do(P2, "declare_endurance", endurance=3)
    assert [type(e) for e in events] == [
        DamageRolled,
        FighterDied,
        PartyDissolved,
        DeathWindowOpened,
    ]
    assert f.state.parties == {}


def test_the_last_living_character_dying_ends_the_game() -> None:
    f = fight({1: ["サイコブラスト"]}, sheets=("ロック", "ニア"), faces=[6, 6])
    f.state = f.state.model_copy(
        update={
            "players": {
                **f.state.players,
                1: f.state.players[1].model_copy(update={"condition": "disabled"}),
            }
        }
    )
    _attack(f)
    f.do(P2, "respond")
    events = f.do(P2, "declare_endurance", endurance=3)
    # the end waits for the dead character's [死亡時] window (3.1 l.284–285)
    assert not any(isinstance(e, GameOver) for e in events)
    assert isinstance(events[-1], DeathWindowOpened) and events[-1].seats == (2,)
    events = f.do(P2, "death_ability")
    assert isinstance(events[0], DeathWindowClosed)
    assert any(isinstance(e, GameOver) for e in events)


# ------------------------------------------------------------------ 同調 (5.5)


def test_a_sync_raises_the_lv_sums_firepower_and_spends_the_joiners_turn() -> None:
    f = fight({1: ["ビームキャノン"], 2: ["ショックウェーブ", "ビームキャノン"], 3: ["バリアー"]})
    f.do(P1, "play_card", card="ビームキャノン", kind="攻撃", target=3, esp_level=3)
    attack = f.combat.attack
    assert attack is not None and attack.awaiting == "sync" and list(attack.sync_waiting) == [2]
    refused(f, P3, "respond", "no_attack_on_you", card="バリアー", kind="防御", esp_level=3)
    f.do(P2, "sync", card="ショックウェーブ", esp_level=1)
    attack = f.combat.attack
    assert attack is not None and attack.lv == 4 and attack.firepower == 9
    assert attack.awaiting == "response" and f.combat.fighters[2].acted
    assert f.state.players[2].power_spent == 1
    # the raised LV 4 is what a defence must reach now
    refused(f, P3, "respond", "below_attack_lv", card="バリアー", kind="防御", esp_level=3)


def test_a_sync_card_above_the_original_lv_is_refused() -> None:
    f = fight({1: ["ショックウェーブ"], 2: ["ビームキャノン", "バリアー"]})
    f.do(P1, "play_card", card="ショックウェーブ", kind="攻撃", target=3, esp_level=1)
    refused(f, P2, "sync", "sync_lv_too_high", card="ビームキャノン", esp_level=3)
    refused(f, P2, "sync", "wrong_kind", card="バリアー", esp_level=3)
    refused(f, P3, "sync", "no_sync_request", card="ビームキャノン", esp_level=3)
    f.do(P2, "no_sync")
    assert f.combat.attack is not None and f.combat.attack.awaiting == "response"
    assert not f.combat.fighters[2].acted


def test_minions_join_from_their_owners_hand_without_power() -> None:
    f = fight(
        {1: ["ビームキャノン", "ショックウェーブ", "ビームキャノン"]},
        fighter_updates={1: {"minions": 2, "minion_level": 2}},
    )
    f.do(P1, "play_card", card="ビームキャノン", kind="攻撃", target=3, esp_level=3)
    assert list(f.combat.attack.sync_waiting) == [1, 2]  # type: ignore[union-attr]
    refused(f, P1, "sync", "minion_level_too_low", card="ビームキャノン", minion=True)
    f.do(P1, "sync", card="ショックウェーブ", minion=True)
    attack = f.combat.attack
    assert attack is not None and attack.lv == 4 and attack.firepower == 9
    assert f.state.players[1].power_spent == 3  # the attack's own LV only
    f.do(P1, "no_sync")
    f.do(P2, "no_sync")
    assert f.combat.attack is not None and f.combat.attack.awaiting == "response"


# ------------------------------------------------------------------ 格闘 (5.6)


def test_a_melee_exchange_with_column_shifts_rolls_both_at_once() -> None:
    f = fight({}, faces=[6, 6, 1, 1])
    f.turn_of(3)  # 戦士クーガー: endurance 5, [格闘:1]
    refused(f, P3, "melee", "declaration_too_high", target=2, endurance=5, shift=2)
    refused(f, P3, "melee", "declaration_too_high", target=2, endurance=6)
    (declared,) = f.do(P3, "melee", target=2, endurance=5, shift=1)
    assert isinstance(declared, MeleeDeclared)
    attack = f.combat.attack
    assert attack is not None and attack.lv == 1 and attack.firepower == 5
    f.do(P2, "respond")
    events = f.do(P2, "counter", endurance=3)
    answered, on_nia, on_cougar, died, window = events
    assert isinstance(window, DeathWindowOpened) and window.seats == (2,)
    assert isinstance(answered, MeleeAnswered)
    # 5:3 is 1:1, shifted right by 1 → 2:1; 3:5 is 1:2以下, shifted left stays there
    assert isinstance(on_nia, DamageRolled) and on_nia.column == "2:1" and on_nia.damage == 4
    assert isinstance(on_cougar, DamageRolled) and on_cougar.column == "1:2以下"
    assert on_cougar.damage == 0 and on_cougar.endurance == 5
    assert isinstance(died, FighterDied) and died.fighter == 2


def test_minions_add_to_the_melee_endurance() -> None:
    f = fight({}, fighter_updates={3: {"minions": 2, "minion_level": 1}})
    f.turn_of(3)
    refused(f, P3, "melee", "declaration_too_high", target=2, endurance=8)
    f.do(P3, "melee", target=2, endurance=7)


def test_no_melee_while_keeping_up_a_defence() -> None:
    f = fight({}, fighter_updates={1: {"defence": {"card": "バリアー", "lv": 2}}})
    refused(f, P1, "melee", "defence_maintained", target=2, endurance=3)


def test_a_player_chooses_to_keep_a_defence_up_and_may_let_it_go() -> None:
    """Ruling CL-094: 「維持できる場合、必ず維持します」 (l.1327) is the NPC's rule; a player
    chooses,
    and lets a kept defence go in its own combat turn to 格闘 again (l.1099)."""
    f = fight({1: ["ショックウェーブ"], 2: ["バリアー"]}, sheets=("ロック", "ニア"), faces=[1, 1])
    _attack(f, "ショックウェーブ", esp=1)
    f.do(P2, "respond", card="バリアー", kind="防御", esp_level=2, maintain=False)
    assert f.combat.fighters[2].defence is None  # blocked, not kept up

    kept = fight({}, fighter_updates={2: {"defence": {"card": "バリアー", "lv": 2}}})
    refused(kept, P2, "drop_defence", "not_your_combat_turn")
    kept.turn_of(2)
    refused(kept, P2, "melee", "defence_maintained", target=1, endurance=3)
    (dropped,) = kept.do(P2, "drop_defence")
    assert isinstance(dropped, DefenceDropped) and kept.combat.fighters[2].defence is None
    refused(kept, P2, "drop_defence", "no_defence")
    kept.do(P2, "melee", target=1, endurance=3)


def test_declining_to_fight_back_rolls_once() -> None:
    f = fight({}, faces=[1, 1])
    f.do(P1, "melee", target=3, endurance=5)
    f.do(P3, "respond")
    events = f.do(P3, "counter", endurance=5, fight_back=False)
    assert [type(e) for e in events] == [MeleeAnswered, DamageRolled]
    assert f.combat.attack is None


# ------------------------------------------------------------------ [代理:X] (3.1 l.368–376)


def test_a_proxy_takes_the_hit_and_is_destroyed_not_its_user() -> None:
    f = fight(
        {1: ["サイコブラスト", "ショックウェーブ"], 2: ["シールド"]},
        faces=[3, 4],
        sheet_updates={2: with_ability("影武者", "代理:4")},
    )
    refused(f, P2, "use_proxy", "not_your_combat_turn")  # no attack waits for it yet
    _attack(f)
    (used,) = f.do(P2, "use_proxy")
    assert isinstance(used, ProxyUsed) and f.combat.fighters[2].proxy
    # no C-card while the 代理 fights: only `respond {}` is left
    refused(f, P2, "respond", "proxy_in_use", card="シールド", kind="防御", esp_level=4)
    f.do(P2, "respond")
    refused(f, P2, "declare_endurance", "declaration_too_high", endurance=5)
    refused(f, P2, "declare_endurance", "proxy_in_use", endurance=3, suit=True)
    events = f.do(P2, "declare_endurance", endurance=4)
    assert len(events) == 1 and isinstance(events[0], DamageRolled) and events[0].proxy
    nia = f.state.players[2]
    assert nia.alive and nia.endurance_damage == 0 and nia.proxy_broken
    assert [n for n, x in f.combat.fighters.items() if x.proxy] == []
    f.turn_of(2)
    refused(f, P2, "use_proxy", "no_proxy")


def test_a_proxy_withdraws_in_the_check_phase_keeping_its_damage() -> None:
    f = fight({1: ["ショックウェーブ"]}, sheet_updates={1: with_ability("影武者", "代理:6")})
    refused(f, P2, "use_proxy", "not_your_combat_turn")
    f.do(P1, "use_proxy")  # as [先制]: the main action
    assert f.combat.main_done
    refused(f, P1, "withdraw_proxy", "wrong_phase")
    f.state = f.state.model_copy(update={"combat": f.combat.model_copy(update={"phase": "check"})})
    f.do(P1, "withdraw_proxy")
    assert not f.combat.fighters[1].proxy


def test_no_c_card_is_discarded_while_a_proxy_fights() -> None:
    """3.1 l.377 「代理を使用している間はコンバットカードを捨てることができません。」"""
    f = fight({2: ["シールド"]}, fighter_updates={2: {"proxy": True}})
    f.turn_of(2)
    refused(f, P2, "discard_card", "proxy_discard", card="シールド")
    f.state = f.state.model_copy(
        update={
            "combat": f.combat.model_copy(
                update={
                    "fighters": {
                        **f.combat.fighters,
                        2: f.combat.fighters[2].model_copy(update={"proxy": False}),
                    }
                }
            )
        }
    )
    f.do(P2, "discard_card", card="シールド")


def test_a_death_the_host_applies_during_a_combat_takes_the_fighter_out() -> None:
    f = fight({1: ["サイコブラスト"], 2: ["テレポート", "バリアー"]})
    _attack(f)
    f.do("host", "set_condition", seat=2, condition="dead", reason="[死亡時]: the table's ruling")
    assert 2 not in [x.id for x in in_play(f.state)] and 2 not in f.combat.hands
    assert f.combat.attack is None  # the attack on it is over
    assert sorted(f.combat.discard) == sorted(["サイコブラスト", "テレポート", "バリアー"])
    assert f.state.players[2].position is None


def test_a_pierced_defence_keeper_may_not_fight_back() -> None:
    f = fight({}, faces=[1, 1], fighter_updates={3: {"defence": Maintained(card="X", lv=1)}})
    events = f.do(P1, "melee", target=3, endurance=5)
    assert isinstance(events[-1], AttackLanded) and events[-1].pierced
    refused(f, P3, "counter", "defence_maintained", endurance=5)
    f.do(P3, "counter", endurance=5, fight_back=False)


def test_the_combat_view_shows_no_sealed_suit_and_no_dead_hand() -> None:
    f = fight(
        {2: ["ショックウェーブ", "バリアー"]},
        faces=[6, 6],
        sheet_updates={3: with_ability("装甲服", "スーツ:4")},
    )
    f.turn_of(3)
    f.do(P3, "melee", target=2, endurance=8, suit=True)  # 5 + the suit's 4, said to nobody
    public = combat_view(f.combat).model_dump_json()
    assert "suit" not in public and f.combat.attack is not None and f.combat.attack.suit
    f.do(P2, "respond")
    f.do(P2, "counter", endurance=3, fight_back=False)  # 12: 4 damage ≥ 3, ニア dies
    assert f.state.players[2].condition == "dead"
    seen = combat_view(f.combat)
    assert "ショックウェーブ" not in seen.model_dump_json() and seen.discard == [None, None]


def test_the_host_killing_the_fighter_whose_turn_it_is_moves_the_turn_on() -> None:
    f = fight({1: ["サイコブラスト"], 2: ["テレポート"]})
    events = f.do("host", "set_condition", seat=1, condition="dead", reason="a card text")
    assert [e.type for e in events][-2:] == [
        "chojin_locke.CombatTurnEnded",
        "chojin_locke.CombatTurnBegun",
    ]
    assert f.combat.current == 2 and f.combat.phase == "check"


def test_an_attacker_whose_twin_fights_must_target_it() -> None:
    f = fight({1: ["サイコブラスト"]})
    twin = {
        n: f.state.players[n].model_copy(update={"revealed_silhouette": "ロック"}) for n in (1, 3)
    }
    f.state = f.state.model_copy(update={"players": {**f.state.players, **twin}})
    refused(
        f,
        P1,
        "play_card",
        "must_target_twin",
        card="サイコブラスト",
        kind="攻撃",
        target=2,
        esp_level=5,
    )
    refused(f, P1, "melee", "must_target_twin", target=2, endurance=3)
    f.do(P1, "play_card", card="サイコブラスト", kind="攻撃", target=3, esp_level=5)


def test_a_proxy_hit_by_a_melee_takes_it_without_fighting_back() -> None:
    f = fight({}, faces=[6, 6], sheet_updates={2: with_ability("影武者", "代理:4")})
    f.do(P1, "melee", target=2, endurance=5)
    f.do(P2, "use_proxy")
    f.do(P2, "respond")
    refused(f, P2, "counter", "proxy_in_use", endurance=4)
    refused(f, P2, "counter", "declaration_too_high", endurance=5, fight_back=False)
    events = f.do(P2, "counter", endurance=4, fight_back=False)
    assert isinstance(events[-1], DamageRolled) and events[-1].proxy
    nia = f.state.players[2]  # 5:4 is 1:1, total 12: 3 damage on the 代理, below its 4
    assert nia.alive and nia.endurance_damage == 0 and nia.proxy_damage == 3
    assert not nia.proxy_broken


def test_a_joiner_dying_before_it_answers_sends_the_attack_on() -> None:
    f = fight({1: ["ショックウェーブ"], 3: ["バリアー"]})
    f.do(P1, "play_card", card="ショックウェーブ", kind="攻撃", target=3, esp_level=1)
    assert f.combat.attack is not None and list(f.combat.attack.sync_waiting) == [2]
    f.do("host", "set_condition", seat=2, condition="dead", reason="a card text")
    attack = f.combat.attack
    assert attack is not None and attack.awaiting == "response" and not attack.sync_waiting
    f.do(P3, "respond", card="バリアー", kind="防御", esp_level=2)
