"""The words this ruleset's log lines are made of (the line of each event sits beside the
event, in the module that declares it): the rulebook's names for its stats, phases, tables…"""

from __future__ import annotations

from domain.model.logline import Names, roll_line

from .details import CheckDetail, Strike
from .sheet import Sheet
from .state import Damage

STATS = {
    "karate": "カラテ",
    "neuron": "ニューロン",
    "wazamae": "ワザマエ",
    "jitsu": "ジツ",
    "tairyoku": "体力",
    "seishin": "精神力",
    "kyakuryoku": "脚力",
    "dkk": "DKK",
}
PHASES = {
    "turn_start": "ターン開始",
    "teban_start": "手番開始",
    "movement": "移動フェイズ",
    "attack": "攻撃フェイズ",
    "teban_end": "手番終了",
    "turn_end": "ターン終了",
}
KINDS = {"pc": "PC", "boss": "ボス", "mob": "モブ"}
# A character's status in the rulebook's words: 「戦闘不能となり、マップから取り除かれる」 (L137,
# L145) for `removed`; the pane says the same (panes/ninja_slayer/names.js).
STATUSES = {"active": "健在", "気絶": "気絶", "爆発四散": "爆発四散", "removed": "戦闘不能"}
ATTACKS = {
    "melee": "近接攻撃",
    "ranged": "遠隔攻撃",
    "counter": "カウンターカラテ",
    "hazard": "攻撃以外のダメージ",
}
ATMOSPHERE = {0: "通常", 1: "HARD", 2: "ULTRA-HARD"}


def success_word(success: bool) -> str:
    return "成功" if success else "失敗"


def sheet_words(sheet: Sheet | None) -> str:
    if sheet is None:
        return ""
    stats = " ".join(
        f"{label}{getattr(sheet, key)}" for key, label in STATS.items() if getattr(sheet, key)
    )
    weapons = "・".join(w.name for w in sheet.weapons)
    return f" 【{stats}】" + (f" 武器: {weapons}" if weapons else "")


def detail_words(detail: CheckDetail | None) -> str:
    """The pool, difficulty and roll, where the reader may see them."""
    if detail is None:
        return ""
    patterns = " ".join(detail.patterns)
    return f" [{roll_line(detail.roll)}]" + (f" {patterns}" if patterns else "")


def damage_words(damage: Damage, names: Names) -> str:
    critical = f" {damage.critical}" if damage.critical else ""
    evasion = f"(回避難易度{damage.difficulty})"
    return f"{names.of(damage.target)}に{damage.amount}ダメージ {evasion}{critical}"


def strike_words(strike: Strike, names: Names) -> str:
    if not strike.hit:
        return f"{names.of(strike.target)}: 失敗 (成功数{strike.successes})"
    critical = f" {strike.critical}" if strike.critical else ""
    return f"{names.of(strike.target)}: 命中 (成功数{strike.successes}){critical}"


def listed(ids: tuple[str, ...] | list[str], names: Names, joint: str = "・") -> str:
    """Characters by name, joined: 「アキ・ベン・クローンヤクザA」."""
    return joint.join(names.of(i) for i in ids)


TABLES = {"satsubatsu": "サツバツ・クリティカル表", "entry": "登場表", "danmaku": "弾幕表"}
