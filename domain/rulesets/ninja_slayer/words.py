"""The words this ruleset's log lines are made of (the line of each event sits beside the
event, in the module that declares it): the rulebook's names for its stats, phases, tables…

Each line is a `Message` whose key is its Japanese (issue 33): the rulebook's words are terms
(`N_`, read in the reader's language: 【カラテ】 is "Karate" in English, as the official
translation has it), names and what a player typed are plain text, read as they are (ruling
NS-055).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from domain.model.lifecycle_events import RollRecord
from domain.model.logline import Names, roll_text
from domain.model.messages import C_, N_, Items, Message, Term

from .details import CheckDetail, Strike
from .sheet import UNARMED, Sheet
from .state import Damage, Status

STATS = {
    "karate": N_("カラテ"),
    "neuron": N_("ニューロン"),
    "wazamae": N_("ワザマエ"),
    "jitsu": N_("ジツ"),
    "tairyoku": N_("体力"),
    "seishin": C_("ninja_slayer", "精神力"),
    "kyakuryoku": N_("脚力"),
    "dkk": N_("DKK"),
}
# What the GM's `adjust` may change (a character's current values, state.Current): the stats
# and the dice it holds now, never the field's id.
CURRENT = {
    **STATS,
    "reaction": N_("即応ダイス"),
    "evasion": N_("回避ダイス"),
    "emergency": N_("緊急回避ダイス"),
}
PHASES = {
    "turn_start": N_("ターン開始"),
    "teban_start": N_("手番開始"),
    "movement": N_("移動フェイズ"),
    "attack": N_("攻撃フェイズ"),
    "teban_end": N_("手番終了"),
    "turn_end": N_("ターン終了"),
}
KINDS = {"pc": N_("PC"), "boss": N_("ボス"), "mob": N_("モブ")}
# A character's status in the rulebook's words; `removed` is 「戦闘不能となり、マップから取り
# 除かれる」 (L137, L145), said by `becomes` (the pane says the same: panes/ninja_slayer/names.js).
STATUSES = {"active": N_("健在"), "気絶": N_("気絶"), "爆発四散": N_("爆発四散")}
ATTACKS = {
    "melee": N_("近接攻撃"),
    "ranged": N_("遠隔攻撃"),
    "counter": N_("カウンターカラテ"),
    "hazard": N_("攻撃以外のダメージ"),
}
ATMOSPHERE = {0: N_("通常"), 1: N_("HARD"), 2: N_("ULTRA-HARD")}
TABLES = {
    "satsubatsu": N_("サツバツ・クリティカル表"),
    "entry": N_("登場表"),
    "danmaku": N_("弾幕表"),
}
# Words of the rules an event carries as text, beside what players type in the same place: a
# stat, a movement style, a critical, the weapon every character has, a drop's default
# reason, the face patterns a roll met (rolls.patterns). `said` makes them terms.
RULEBOOK_WORDS: dict[str, Term] = {
    str(word): word
    for word in (
        *CURRENT.values(),
        N_("連続側転"),
        N_("通常移動"),
        N_("サツバツ"),
        N_("ナムアミダブツ"),
        N_("カイシャク"),
        N_("素手&スリケン"),
        N_("ドロップ"),
        N_("【6,5+】"),
        N_("【6,6】"),
        N_("【6,6,6】"),
    )
}
assert UNARMED in RULEBOOK_WORDS  # the weapon every character holds reads in every language

# Optional parts of a line, and parts listed one after another (a list of names is `Items`).
SPACED = N_(" {words}")
IN_PARENTHESES = N_(" ({words})")
BY_SPACES = N_("{first} {rest}")
BY_SEMICOLONS = N_("{first}; {rest}")
BY_COMMAS = N_("{first}、{rest}")
Joint = Literal[" ", "; ", "、"]


def said(text: str) -> str:
    """A text an event holds as it was typed or as the rules print it: a word of the rules
    (`RULEBOOK_WORDS`) is a term, read in the reader's language; any other (a name, an
    ability or a reason a player typed) reads as it is."""
    return RULEBOOK_WORDS.get(text, text)


def spaced(words: object) -> Message:
    """An optional part after a space: 「 サツバツ」."""
    return Message(SPACED, {"words": words})


def in_parentheses(words: object) -> Message:
    """An optional part in parentheses after a space: 「 (カタナ)」."""
    return Message(IN_PARENTHESES, {"words": words})


def joined(parts: Sequence[object], joint: Joint = " ") -> object:
    """Parts one after another, `joint` between them in Japanese (its English in the
    catalogs: 「、」 is ", "); "" for none."""
    if not parts:
        return ""
    result = parts[-1]
    for part in reversed(parts[:-1]):
        pair = {"first": part, "rest": result}
        if joint == "; ":
            result = Message(BY_SEMICOLONS, pair)
        elif joint == "、":
            result = Message(BY_COMMAS, pair)
        else:
            result = Message(BY_SPACES, pair)
    return result


def success_word(success: bool) -> Term:
    return N_("成功") if success else N_("失敗")


def outcome_words(success: bool, successes: int) -> Message:
    """「成功 (成功数2)」."""
    return Message(
        N_("{result} (成功数{successes})"),
        {"result": success_word(success), "successes": successes},
    )


def becomes(status: Status) -> Message:
    """「→ 気絶」. `removed` has a message of its own: 戦闘不能 alone is メカd20's term (its
    dying units), while here it is off the map."""
    if status == "removed":
        return Message(N_("→ 戦闘不能"))
    return Message(N_("→ {status}"), {"status": STATUSES[status]})


def rolled(record: RollRecord | None) -> str | Message:
    """A roll's BCDice line as it is (its words are BCDice's); a manual roll's mark
    「(手動ダイス)」 in the reader's language."""
    if record is None:
        return ""
    line = roll_text(record.model_dump(mode="json"))
    if line.get("msg") is None:
        return str(line["text"])
    return Message(N_("{roll} (手動ダイス)"), line["args"])  # roll_text's one message


def sheet_words(sheet: Sheet | None) -> object:
    """「 【カラテ5 ニューロン7】 武器: カタナ」, "" for a sheet the reader may not see."""
    if sheet is None:
        return ""
    stats = joined(
        [
            Message(N_("{stat}{value}"), {"stat": label, "value": getattr(sheet, key)})
            for key, label in STATS.items()
            if getattr(sheet, key)
        ]
    )
    if not sheet.weapons:
        return Message(N_(" 【{stats}】"), {"stats": stats})
    weapons = Items(said(w.name) for w in sheet.weapons)
    return Message(N_(" 【{stats}】 武器: {weapons}"), {"stats": stats, "weapons": weapons})


def detail_words(detail: CheckDetail | None) -> object:
    """The roll and the face patterns it met, where the reader may see them."""
    if detail is None:
        return ""
    roll = rolled(detail.roll)
    if not detail.patterns:
        return Message(N_(" [{roll}]"), {"roll": roll})
    patterns = joined([said(p) for p in detail.patterns])
    return Message(N_(" [{roll}] {patterns}"), {"roll": roll, "patterns": patterns})


def damage_words(damage: Damage, names: Names) -> Message:
    """「ヤモトに2ダメージ (回避難易度N) サツバツ」."""
    return Message(
        N_("{target}に{amount}ダメージ (回避難易度{difficulty}){critical}"),
        {
            "target": names.of(damage.target),
            "amount": damage.amount,
            "difficulty": damage.difficulty,
            "critical": spaced(said(damage.critical)) if damage.critical else "",
        },
    )


def strike_words(strike: Strike, names: Names) -> Message:
    """「ヤモト: 命中 (成功数3) サツバツ」."""
    target = names.of(strike.target)
    if not strike.hit:
        return Message(
            N_("{target}: 失敗 (成功数{successes})"),
            {"target": target, "successes": strike.successes},
        )
    return Message(
        N_("{target}: 命中 (成功数{successes}){critical}"),
        {
            "target": target,
            "successes": strike.successes,
            "critical": spaced(said(strike.critical)) if strike.critical else "",
        },
    )


def listed(ids: tuple[str, ...] | list[str], names: Names) -> Items:
    """Characters by name: 「アキ・ベン・クローンヤクザA」 ("Aki, Ben, Clone Yakuza A")."""
    return Items(names.of(i) for i in ids)
