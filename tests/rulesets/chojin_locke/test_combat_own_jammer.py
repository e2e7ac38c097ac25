"""6.1 l.1252–1259 through the real deciders: a character's own ESPジャマーLV:X voids the attack
card waiting for its answer at final LV 1–X (ruling CL-106): the card back in the attacker's hand,
locked, no power spent, the [攻撃] counted and the main action open again; refused, with nothing
changed, above X, without the ability, to the attacker itself, while fainted, and with no
attack card waiting for its answer."""

from __future__ import annotations

from domain.rulesets.chojin_locke.combat.jammer import JammerUsed
from tests.rulesets.chojin_locke.combat_domain import fight, refused, with_ability

JAMMER = "ESPジャマーLV:5"
BLAST = {"card": "サイコブラスト", "kind": "攻撃", "target": 2, "esp_level": 6}  # LV 5


def _jammers(level: int = 5) -> dict[int, dict[str, object]]:
    return {
        seat: with_ability(f"ESPジャマーLV:{level}", "対抗(Cカード使用)", "EM") for seat in (2, 3)
    }


def test_a_characters_jammer_voids_the_attack_card_waiting_for_its_answer() -> None:
    f = fight({1: ["サイコブラスト"], 2: [], 3: []}, sheet_updates=_jammers())
    f.do("seat:1", "play_card", **BLAST)
    assert f.combat.attack is not None and f.state.players[1].power_spent == 5
    (used,) = f.do("seat:3", "jam", ability=JAMMER)
    assert isinstance(used, JammerUsed)
    assert (used.jammer, used.fighter, used.ability, used.lv) == (3, 1, JAMMER, 5)
    after = f.combat
    assert after.attack is None and not after.main_done
    assert f.hand(1) == ["サイコブラスト"] and after.locked[1] == ["サイコブラスト"]
    assert f.state.players[1].power_spent == 0
    assert after.attacked and after.turn_actions == ["攻撃"]
    refused(f, "seat:1", "play_card", "card_locked", **BLAST)


def test_the_target_jams_too_and_refusals_change_nothing() -> None:
    f = fight({1: ["サイコブラスト"], 2: [], 3: []}, sheet_updates=_jammers(level=4))
    refused(f, "seat:2", "jam", "no_card_to_jam", ability="ESPジャマーLV:4")
    f.do("seat:1", "play_card", **BLAST)
    refused(f, "seat:2", "jam", "jammer_lv", ability="ESPジャマーLV:4")  # LV 5 > X 4
    refused(f, "seat:2", "jam", "no_such_ability", ability="ESPジャマーLV:9")
    refused(f, "seat:1", "jam", "own_card", ability="ESPジャマーLV:4")


def test_the_target_itself_jams_an_attack_in_range() -> None:
    f = fight({1: ["サイコブラスト"], 2: [], 3: []}, sheet_updates=_jammers())
    f.do("seat:1", "play_card", **BLAST)
    (used,) = f.do("seat:2", "jam", ability=JAMMER)
    assert isinstance(used, JammerUsed) and used.jammer == 2 and f.combat.attack is None


def test_a_fainted_holder_jams_nothing() -> None:
    f = fight(
        {1: ["サイコブラスト"], 2: [], 3: []},
        sheet_updates=_jammers(),
        fighter_updates={3: {"fainted_until": 1}},
    )
    f.do("seat:1", "play_card", **BLAST)
    refused(f, "seat:3", "jam", "fainted", ability=JAMMER)
