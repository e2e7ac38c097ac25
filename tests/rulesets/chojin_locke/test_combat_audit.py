"""After the game, the audit lists every combat declaration beside the truth the server held
(issue #20, 17.), and the log reads each combat event as the table says it, a sealed suit only
for its wearer."""

from __future__ import annotations

from tests.rulesets.chojin_locke.combat_domain import audit_of, fight, with_ability
from tests.rulesets.chojin_locke.lines import described


def test_every_combat_declaration_is_listed_beside_the_truth() -> None:
    f = fight(
        {1: ["ビームキャノン"], 2: ["ショックウェーブ"], 3: ["シールド"]},
        faces=[1, 1, 1, 1, 6, 6, 3, 4],  # the defence fails its second check
        sheet_updates={3: with_ability("装甲服", "スーツ:4")},
    )
    # ロック (ESP 6) understates 2 for LV 3: one willpower check at 4 (truth 6)
    f.do(
        "seat:1",
        "play_card",
        card="ビームキャノン",
        kind="攻撃",
        target=3,
        esp_level=2,
        willpower=4,
    )
    f.do("seat:2", "sync", card="ショックウェーブ", esp_level=4)  # ニア: the truth
    f.do("seat:3", "respond", card="シールド", kind="防御", esp_level=3, willpower=3)
    f.do("seat:3", "declare_endurance", endurance=4, suit=True)
    rows = [(c.what, c.declared, c.truth, c.verdict) for c in audit_of(f)]
    assert rows == [
        ("ビームキャノン使用: ESP能力レベル", 2, 6, "understated"),
        ("ビームキャノン使用: 精神力", 4, 6, "understated"),
        ("ショックウェーブで同調: ESP能力レベル", 4, 4, "legal"),
        ("シールドで対抗: ESP能力レベル", 3, 3, "legal"),
        ("シールドで対抗: 精神力", 3, 3, "legal"),
        ("ダメージ: 耐久力（[スーツ:X]）", 4, 4, "legal"),
    ]


def test_melee_declarations_are_audited_with_minions_added() -> None:
    f = fight({}, faces=[1, 1, 1, 1], fighter_updates={3: {"minions": 1, "minion_level": 1}})
    f.turn_of(3)
    f.do("seat:3", "melee", target=1, endurance=4, shift=1)
    f.do("seat:1", "respond")
    f.do("seat:1", "counter", endurance=5)
    rows = [(c.what, c.declared, c.truth, c.verdict) for c in audit_of(f)]
    assert rows == [
        ("格闘: 耐久力", 4, 6, "understated"),  # 戦士クーガー 5 + one 手下
        ("格闘: [格闘:X]", 1, 1, "legal"),
        ("格闘: 耐久力", 5, 5, "legal"),
        ("格闘: [格闘:X]", 0, 0, "legal"),
    ]


def test_a_suit_is_named_in_the_log_only_for_its_wearer() -> None:
    f = fight(
        {1: ["サイコブラスト"]}, faces=[1, 1], sheet_updates={2: with_ability("装甲服", "スーツ:4")}
    )
    f.do("seat:1", "play_card", card="サイコブラスト", kind="攻撃", target=2, esp_level=5)
    f.do("seat:2", "respond")
    f.do("seat:2", "declare_endurance", endurance=4, suit=True)
    event, audience = f.events[-1]
    assert audience == ("seat:2",)
    secret = event.secret_part()
    wearer = described(event.type, event.public_part(), secret)
    others = described(event.type, event.public_part(), None)
    assert "スーツ" in str(wearer) and "スーツ" not in str(others)
    assert "耐久力4" in str(others) and "ダメージ" in str(others)
