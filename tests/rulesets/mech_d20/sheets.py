"""The units of the scripted encounter. NPC sheets come in two variants, A and B, that differ
only in sealed numbers (defences, hp, attack bonuses) and never in anything the table sees: the
secrecy test plays both and compares every byte a seat receives."""

from __future__ import annotations

from typing import Any

SECRET_POWER = "自爆装置"  # on the boss's sealed sheet, never used

SABER = {"name": "ビームサーベル", "die": "1d8", "accuracy": 3, "enhancement": 1}
RIFLE = {"name": "ビームライフル", "die": "1d10", "accuracy": 2, "enhancement": 1}
AXE = {"name": "ヒートアックス", "die": "1d10", "accuracy": 2, "enhancement": 1}


def _effect(**body: Any) -> dict[str, Any]:
    return body


AKI: dict[str, Any] = {
    "level": 5,
    "abilities": {"出力": 5, "敏捷力": 2},
    "proficiency": 2,
    "defences": {"AC": 19, "頑健": 16, "反応": 14, "意志": 14},
    "max_hp": 44,
    "surges": 3,
    "surge_value": 11,
    "durability": 9,
    "speed": 6,
    "weapons": [{**SABER, "crit_dice": "1d6"}],
    "powers": [
        {
            "name": "斬鉄剣",
            "frequency": "遭遇毎",
            "keywords": ["攻撃", "武器"],
            "range": "近接",
            "attack": {"ability": "出力", "defence": "AC"},
            "hit": {"weapon_dice": 2, "ability": "出力"},
            "effects": [_effect(conditions=["幻惑"], duration="save_ends")],
            "text": "2W+【出力】、目標は幻惑状態になる(セーヴ・終了)",
        },
        {
            "name": "集中",
            "action": "マイナー",
            "keywords": ["精神コマンド"],
            "range": "自身",
            "targets": 0,
            "self_effects": [
                _effect(
                    modifiers=[{"name": "集中", "value": 2, "type": "精神", "applies": "attack"}],
                    duration="end_of_next_turn",
                )
            ],
        },
        {
            "name": "熱血",
            "frequency": "1日毎",
            "action": "マイナー",
            "keywords": ["精神コマンド"],
            "range": "自身",
            "targets": 0,
            "self_effects": [
                _effect(
                    modifiers=[{"name": "熱血", "value": 5, "applies": "damage"}],
                    duration="end_of_next_turn",
                )
            ],
        },
    ],
}

BEN: dict[str, Any] = {
    "level": 5,
    "abilities": {"出力": 2, "敏捷力": 5},
    "proficiency": 2,
    "defences": {"AC": 18, "頑健": 15, "反応": 17, "意志": 15},
    "max_hp": 36,
    "surges": 2,
    "surge_value": 9,
    "durability": 8,
    "weapons": [RIFLE, SABER],
    "powers": [
        {
            "name": "拡散ビーム砲",
            "frequency": "遭遇毎",
            "keywords": ["攻撃", "武器"],
            "range": "遠隔範囲",
            "targets": 20,
            "attack": {"ability": "敏捷力", "defence": "反応"},
            "hit": {"weapon_dice": 1, "ability": "敏捷力"},
            "miss_half": True,
            "text": "遠隔範囲・爆発1 10マス以内。ミス: 半減ダメージ",
        },
        {
            "name": "高機動形態",
            "action": "マイナー",
            "keywords": ["モード"],
            "range": "自身",
            "targets": 0,
            "self_effects": [
                _effect(
                    modifiers=[{"name": "高機動形態", "value": 1, "applies": "AC"}],
                    duration="encounter",
                )
            ],
        },
        {
            "name": "砲撃形態",
            "action": "マイナー",
            "keywords": ["モード"],
            "range": "自身",
            "targets": 0,
            "self_effects": [
                _effect(
                    modifiers=[{"name": "砲撃形態", "value": 1, "applies": "attack"}],
                    duration="encounter",
                )
            ],
        },
        {
            "name": "緊急回避",
            "frequency": "遭遇毎",
            "action": "即応・割込",
            "range": "自身",
            "targets": 0,
            "self_effects": [
                _effect(
                    modifiers=[{"name": "緊急回避", "value": 4, "type": "パワー", "applies": "AC"}],
                    duration="start_of_next_turn",
                )
            ],
            "text": "トリガー: 自身が攻撃の目標になる",
        },
        {
            "name": "牽制射撃",
            "action": "即応・対応",
            "keywords": ["攻撃", "武器"],
            "range": "遠隔",
            "attack": {"ability": "敏捷力", "defence": "AC"},
            "hit": {"weapon_dice": 1, "ability": "敏捷力"},
        },
        {
            "name": "ビームマシンガン",
            "action": "フリー",
            "keywords": ["攻撃", "武器"],
            "range": "遠隔",
            "attack": {"ability": "敏捷力", "defence": "AC"},
            "hit": {"dice": "1d4"},
        },
        {
            "name": "スナイプ",
            "frequency": "1日毎",
            "keywords": ["攻撃", "武器"],
            "range": "遠隔",
            "attack": {"ability": "敏捷力", "defence": "AC"},
            "hit": {"weapon_dice": 3, "ability": "敏捷力"},
        },
    ],
}

CHIKA: dict[str, Any] = {
    "level": 5,
    "abilities": {"出力": 4, "敏捷力": 3},
    "proficiency": 2,
    "defences": {"AC": 20, "頑健": 17, "反応": 13, "意志": 14},
    "max_hp": 24,
    "surges": 2,
    "surge_value": 6,
    "durability": 8,
    "weapons": [AXE],
    "powers": [
        {
            "name": "カウンター",
            "frequency": "遭遇毎",
            "action": "即応・対応",
            "keywords": ["攻撃", "武器"],
            "range": "近接",
            "attack": {"ability": "出力", "defence": "AC"},
            "hit": {"weapon_dice": 1, "ability": "出力"},
            "text": "トリガー: 隣接する敵の攻撃が自身にヒットする",
        }
    ],
}

# The sealed numbers of each variant: (A, B).
_BOSS_NUMBERS = {
    "AC": (23, 24),
    "頑健": (21, 22),
    "反応": (19, 20),
    "意志": (18, 19),
    "max_hp": (136, 137),
    "claw": (11, 12),
    "beam": (9, 10),
    "jack": (8, 9),
}
_MINION_NUMBERS = {
    "出力": (3, 4),
    "AC": (17, 18),
    "頑健": (15, 16),
    "反応": (15, 16),
    "意志": (13, 14),
    "stun": (6, 7),
}
_MINION_HP = {"m1": (22, 23), "m2": (20, 21)}


def boss(variant: int) -> dict[str, Any]:
    n = {k: v[variant] for k, v in _BOSS_NUMBERS.items()}
    return {
        "level": 6,
        "abilities": {"出力": 6, "敏捷力": 3},
        "proficiency": 3,
        "defences": {d: n[d] for d in ("AC", "頑健", "反応", "意志")},
        "max_hp": n["max_hp"],
        "durability": 12,
        "weapons": [
            {
                "name": "ヒートクロー",
                "die": "1d12",
                "accuracy": 2,
                "enhancement": 2,
                "crit_dice": "1d8",
            }
        ],
        "powers": [
            {
                "name": "クローラッシュ",
                "keywords": ["攻撃", "武器"],
                "range": "近接",
                "attack": {"ability": None, "defence": "AC", "bonus": n["claw"]},
                "hit": {"dice": "2d8", "bonus": 7},
            },
            {
                "name": "メガ粒子砲",
                "frequency": "遭遇毎",
                "keywords": ["攻撃", "特殊武装"],
                "range": "遠隔範囲",
                "targets": 20,
                "attack": {"ability": None, "defence": "反応", "bonus": n["beam"]},
                "hit": {"dice": "2d6", "bonus": 5},
                "effects": [_effect(ongoing=5, duration="save_ends")],
            },
            {
                "name": "マインドジャック",
                "frequency": "遭遇毎",
                "keywords": ["攻撃", "特殊武装"],
                "range": "遠隔",
                "attack": {"ability": None, "defence": "意志", "bonus": n["jack"]},
                "effects": [_effect(conditions=["支配"], duration="save_ends")],
            },
            {"name": SECRET_POWER, "frequency": "1日毎", "range": "近接範囲", "targets": 20},
        ],
    }


def minion(uid: str, variant: int) -> dict[str, Any]:
    n = {k: v[variant] for k, v in _MINION_NUMBERS.items()}
    return {
        "level": 3,
        "abilities": {"出力": n["出力"], "敏捷力": 2},
        "proficiency": 1,
        "defences": {d: n[d] for d in ("AC", "頑健", "反応", "意志")},
        "max_hp": _MINION_HP[uid][variant],
        "durability": 10,
        "weapons": [{"name": "ザコライフル", "die": "1d8"}],
        "powers": [
            {
                "name": "スタンショット",
                "frequency": "遭遇毎",
                "keywords": ["攻撃", "特殊武装"],
                "range": "遠隔",
                "attack": {"ability": None, "defence": "頑健", "bonus": n["stun"]},
                "effects": [_effect(conditions=["朦朧"], duration="save_ends")],
            }
        ],
    }
