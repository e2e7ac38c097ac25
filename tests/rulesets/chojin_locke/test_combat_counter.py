"""5.4 2.: [対抗(攻撃)] abilities and ability cards through the real deciders and folds — the
attack's target uses them (`counter_ability`) before its answer, any number, each once per
attack, named aloud, no 発動チェック and no power; a [防御] one blocks and an [逃避] one evades
when its printed LV reaches the attack's; `respond` goes on as before otherwise. Refusals
append nothing (rulings CL-088)."""

from __future__ import annotations

from typing import Any

from domain.rulesets.chojin_locke.cards import Ability, AbilityCard
from domain.rulesets.chojin_locke.combat.action_events import AttackLanded, DamageRolled
from domain.rulesets.chojin_locke.combat.counter import CounterAbilityUsed
from domain.rulesets.chojin_locke.combat.view import combat_view
from domain.rulesets.chojin_locke.party_events import PartyDissolved
from tests.rulesets.chojin_locke.combat_domain import Fight, fight, refused
from tests.rulesets.chojin_locke.lines import described

P1, P2, P3 = "seat:1", "seat:2", "seat:3"
WALL = Ability(name="念動障壁LV:3", tags=("戦闘", "対抗(攻撃)", "防御", "E"))
BLINK = Ability(name="瞬間移動LV:5", tags=("全般", "対抗(攻撃)", "逃避"))
GRIT = Ability(name="気合", tags=("戦闘", "対抗(攻撃)"))
DAILY = Ability(name="日常の盾", tags=("通常", "対抗(攻撃)", "防御"))
ASSIST = Ability(name="援護", tags=("戦闘", "支援"))
MIRROR = AbilityCard(name="反射鏡", tags=("戦闘", "対抗(攻撃)", "防御"), text="攻撃を跳ね返す。")


def _fight(hands: dict[int, list[str]] | None = None, **kw: Any) -> Fight:
    """ニア (seat 2) holds WALL, BLINK, GRIT, DAILY and ASSIST, and the card 反射鏡."""
    abilities = (WALL, BLINK, GRIT, DAILY, ASSIST)
    f = fight(hands or {1: ["ビームキャノン", "ショックウェーブ"]}, **kw)
    nia = f.state.players[2].model_copy(
        update={"sheet": f.state.players[2].sheet.model_copy(update={"abilities": abilities})}  # type: ignore[union-attr]
    )
    cards = (*f.state.catalog.ability_cards, MIRROR)
    f.state = f.state.model_copy(
        update={
            "catalog": f.state.catalog.model_copy(update={"ability_cards": cards}),
            "players": {**f.state.players, 2: nia.model_copy(update={"abilities": ["反射鏡"]})},
        }
    )
    f.start = f.state
    return f


def _attack(f: Fight, card: str = "ビームキャノン", level: int = 3) -> None:
    """Seat 1 attacks ニア (LV 3 ビームキャノン, or LV 1 ショックウェーブ); seat 3 declines 同調."""
    f.do(P1, "play_card", card=card, kind="攻撃", target=2, esp_level=level)
    attack = f.combat.attack
    if attack is not None and attack.awaiting == "sync":
        refused(f, P2, "counter_ability", "no_attack_on_you", ability=GRIT.name)
        f.do(P3, "no_sync")


def test_an_ability_against_the_attack_is_named_and_respond_goes_on() -> None:
    f = _fight(faces=[1, 1])
    refused(f, P2, "counter_ability", "no_attack_on_you", ability=GRIT.name)
    _attack(f)
    power = f.state.players[2].power_spent
    (used,) = f.do(P2, "counter_ability", ability=GRIT.name, effect="火力-2")
    assert isinstance(used, CounterAbilityUsed)
    assert (used.seat, used.attacker, used.ability, used.card, used.avoid) == (
        2,
        1,
        GRIT.name,
        None,
        None,
    )
    assert used.effect == "火力-2" and "ability" in used.public_part()
    # no 発動チェック, no power (ruling CL-088); the attack still waits for the answer
    assert f.state.players[2].power_spent == power
    attack = f.combat.attack
    assert attack is not None and attack.awaiting == "response"
    assert list(attack.counters) == [GRIT.name]
    shown = combat_view(f.combat).attack
    assert shown is not None and list(shown.counters) == [GRIT.name]
    refused(f, P2, "counter_ability", "used_on_this_attack", ability=GRIT.name)
    # any number of them (l.1057): the card too, turned face up
    (card,) = f.do(P2, "counter_ability", card="反射鏡")
    assert isinstance(card, CounterAbilityUsed) and card.card == "反射鏡"
    assert card.text == "攻撃を跳ね返す。" and list(f.state.players[2].face_up) == ["反射鏡"]
    refused(f, P2, "counter_ability", "card_face_up", card="反射鏡")
    # then the answer as now: no card, a hit, the damage
    (landed,) = f.do(P2, "respond")
    assert isinstance(landed, AttackLanded) and landed.outcome == "hit"
    # after the answer an ability may still be used, but avoids nothing
    refused(f, P2, "counter_ability", "attack_answered", ability=WALL.name, avoid="blocked")
    f.do(P2, "counter_ability", ability=WALL.name)
    (rolled, *_) = f.do(P2, "declare_endurance", endurance=3)
    assert isinstance(rolled, DamageRolled)
    refused(f, P2, "counter_ability", "no_attack_on_you", ability=BLINK.name)


def test_refusals_depend_on_the_sheet_and_tell_only_the_user() -> None:
    f = _fight()
    _attack(f)
    refused(f, P3, "counter_ability", "no_attack_on_you", ability=GRIT.name)  # not its attack
    error = refused(f, P2, "counter_ability", "no_such_ability", ability="時間停止")
    assert WALL.name in error.message  # its own, to itself alone (the HTTP answer is its own)
    refused(f, P2, "counter_ability", "wrong_timing", ability=ASSIST.name)
    refused(f, P2, "counter_ability", "not_in_combat", ability=DAILY.name)  # [通常] (3.1 l.260)
    refused(f, P2, "counter_ability", "not_in_hand", card="テレパシー")
    refused(f, P2, "counter_ability", "ability_or_card", ability=GRIT.name, card="反射鏡")
    refused(f, P2, "counter_ability", "ability_or_card")
    refused(f, P2, "counter_ability", "cannot_avoid", ability=GRIT.name, avoid="blocked")
    refused(f, P2, "counter_ability", "cannot_avoid", ability=WALL.name, avoid="evaded")


def test_a_defence_ability_blocks_an_attack_of_its_lv_or_below() -> None:
    f = _fight()
    _attack(f)  # LV 3
    events = f.do(P2, "counter_ability", ability=WALL.name, avoid="blocked")
    used, landed = events
    assert isinstance(used, CounterAbilityUsed) and used.avoid == "blocked"
    assert isinstance(landed, AttackLanded)
    assert (landed.outcome, landed.by, landed.lv) == ("blocked", WALL.name, 3)
    assert f.combat.attack is None and not f.combat.fighters[2].left
    refused(f, P2, "respond", "no_attack_on_you")


def test_an_ability_below_the_attack_lv_avoids_nothing() -> None:
    # l.1052–1053: 「LV:5の攻撃に対してLV:4のテレポートは使用できません。」
    f = _fight({1: ["サイコブラスト"]})
    f.do(P1, "play_card", card="サイコブラスト", kind="攻撃", target=2, esp_level=5)  # LV 5
    refused(f, P2, "counter_ability", "below_attack_lv", ability=WALL.name, avoid="blocked")
    # without avoiding, it may still be used (its effect is the table's)
    f.do(P2, "counter_ability", ability=WALL.name, effect="ダメージ半減")
    assert f.combat.attack is not None and f.combat.attack.awaiting == "response"


def test_an_escape_ability_evades_and_leaves_the_combat_dissolving_the_party() -> None:
    f = _fight(parties={2: [3]})
    _attack(f)
    used, landed, dissolved = f.do(P2, "counter_ability", ability=BLINK.name, avoid="evaded")
    assert isinstance(used, CounterAbilityUsed)
    assert isinstance(landed, AttackLanded) and landed.outcome == "evaded"
    assert isinstance(dissolved, PartyDissolved) and dissolved.leader == 2
    assert f.combat.fighters[2].left and f.combat.attack is None
    (moved,) = f.do(P2, "escape_to", square=5)  # 5.7: it moves away like any leaver
    assert f.combat.fighters[2].moved and moved is not None


def test_a_melee_target_counters_too() -> None:
    # 5.6 l.1104: 「攻撃対象は通常の攻撃と同様に[対抗(攻撃)]の行動を行うことができます。」
    f = _fight()
    f.do(P1, "melee", target=2, endurance=5)  # an LV 1 attack
    _used, landed = f.do(P2, "counter_ability", ability=WALL.name, avoid="blocked")
    assert isinstance(landed, AttackLanded) and landed.outcome == "blocked"
    assert f.combat.attack is None


def test_no_counter_while_stunned_keeping_a_defence_or_fighting_by_proxy() -> None:
    stunned = _fight(fighter_updates={2: {"fainted_until": 1}})
    _attack(stunned)
    refused(stunned, P2, "counter_ability", "fainted", ability=GRIT.name)
    kept = _fight(fighter_updates={2: {"defence": {"card": "バリアー", "lv": 4}}})
    _attack(kept)  # LV 3 below the kept LV 4: blocked at once, no window
    assert kept.combat.attack is None
    pierced = _fight(fighter_updates={2: {"defence": {"card": "バリアー", "lv": 2}}})
    _attack(pierced)  # LV 3 pierces it: hit, its damage to come
    refused(pierced, P2, "counter_ability", "attack_answered", ability=WALL.name, avoid="blocked")
    pierced.do(P2, "counter_ability", ability=GRIT.name)  # still used, avoiding nothing
    proxied = _fight(fighter_updates={2: {"proxy": True}})
    _attack(proxied)
    refused(proxied, P2, "counter_ability", "proxy_in_use", ability=GRIT.name)


def test_no_support_ability_of_ones_own_while_a_proxy_fights() -> None:
    """3.1 l.378: 「コンバットカードや能力カード等、代理が持つ特殊能力以外は使用することが
    できません。」"""
    f = _fight(fighter_updates={2: {"proxy": True}})
    f.turn_of(2)
    f.state = f.state.model_copy(
        update={"combat": f.combat.model_copy(update={"phase": "support1"})}
    )
    refused(f, P2, "use_ability", "proxy_in_use", ability=ASSIST.name)
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
    f.do(P2, "use_ability", ability=ASSIST.name)


def test_every_new_event_reads_as_a_line() -> None:

    f = _fight()
    _attack(f)
    used, _landed = f.do(P2, "counter_ability", ability=WALL.name, avoid="blocked", effect="防ぐ")
    said = described(used.type, used.public_part(), None)
    assert said is not None
    assert said[1] == (
        "席2が席1の攻撃に[対抗(攻撃)]: 能力「念動障壁LV:3」 [戦闘・対抗(攻撃)・防御・E]: 防ぐ"
        " — 攻撃を防御"
    )
