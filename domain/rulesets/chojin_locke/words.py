"""The words this ruleset's log lines are made of (the line of each event sits beside the
event, in the module that declares it): the rulebook's names for its stats, phases, tables…"""

from __future__ import annotations

from .cards import CharacterSheet
from .state import Cell, Position

STATS = {
    "esp_level": "ESP能力レベル",
    "esp_power": "ESPパワー",
    "endurance": "耐久力",
    "willpower": "精神力",
}
PHASES = {
    "check": "チェックフェイズ",
    "support1": "支援フェイズ1",
    "support2": "支援フェイズ2",
    "main": "主要フェイズ",  # seed L540–547: the turn's phases by name
    "square": "マスの効果発動フェイズ",
    "combat": "戦闘発生フェイズ",  # 2020 (L547); the 2002 turn calls it 戦闘フェーズ
    "victory": "勝利宣言フェイズ",
    "recovery": "回復フェイズ",
    "move": "移動フェイズ",
    "instruction": "指示フェイズ",
    "destruction": "破壊フェイズ",
}
PURPOSES = {
    "check": "チェック",
    "teleport": "テレポート",
    "conversion": "説得",
    "intrusion": "侵入",
}
ACTIONS = {"recover": "回復", "treat": "治療", "pass": "パス", "teleport_failed": "テレポート失敗"}
MOVES = {"move": "移動", "spaceport": "宇宙港へ移動", "teleport": "テレポート"}
ENTRIES = {"entry": "入口から侵入", "intrusion": "強行侵入", "random": "ランダムな位置に侵入"}
SIDES = {"explorer": "探索側", "base": "基地側"}
ENDINGS = {
    "victory": "勝利",
    "sole_victory": "単独勝利",
    "keys_destroyed": "キーがすべて破壊された",
    "all_dead": "全員死亡",
    "all_out": "全員脱落",
    "vigil": "待機の終わり",
    "host": "ホストが終了",
}
STAGE_ENDS = {
    "no_cards": "惑星カードがなくなった",
    "information": "情報がそろった",
    "explorers_dead": "探索者が全滅した",
}


def seat_words(n: int | None) -> str:
    return "—" if n is None else f"席{n}"


def seats_words(seats: tuple[int, ...]) -> str:
    return "・".join(seat_words(n) for n in seats)


def place_words(p: Position) -> str:
    return f"惑星{p.planet}の宇宙港" if p.square == 0 else f"惑星{p.planet}のマス{p.square}"


def cell_words(c: Cell) -> str:
    return f"基地({c.row},{c.col})"


def sheet_words(sheet: CharacterSheet) -> str:
    stats = " ".join(f"{label}{getattr(sheet, key)}" for key, label in STATS.items())
    leader = " (L)" if sheet.leader else ""
    return f"{sheet.name}{leader} [{sheet.rank} {sheet.alignment}] {stats}"


def success_word(success: bool) -> str:
    return "成功" if success else "失敗"


COMBAT_STEPS = {
    "joining": "戦闘参加フェイズ",
    "moving": "コマ移動フェイズ",
    "before": "戦闘前フェイズ",
    "hands": "手札の受け取り",
    "initiative": "イニシアチブ決定",
    "turns": "戦闘手番",
    "round_end": "ラウンド終了フェイズ",
}
COMBAT_PHASES = {
    "check": "チェックフェイズ",
    "support1": "支援フェイズ1",
    "main": "主要フェイズ",
    "support2": "支援フェイズ2",
}
COMBAT_ENDS = {
    "no_attack": "このラウンドに攻撃行動がなかった",
    "nobody_continues": "戦闘を続ける者がいない",
    "one_left": "戦闘参加者が1体以下",
    "deck_exhausted": "Cカードの山札が尽きた",
}


def fighter_words(n: int) -> str:
    return seat_words(n) if n < 101 else f"NPC{n}"


def fighters_words(ids: tuple[int, ...]) -> str:
    return "・".join(fighter_words(n) for n in ids)


def card_words(color: str, rank: int) -> str:
    return f"{'黒' if color == 'black' else '赤'}{rank}"


USES = {"main": "使用", "response": "で対抗", "sync": "で同調", "minion_sync": "で手下が同調"}
OUTCOMES = {"hit": "命中", "blocked": "防御された", "evaded": "回避された (戦闘から離脱)"}
CAUSES = {"endurance": "耐久力", "willpower": "精神力"}


def used_words(ability: str | None, card: str | None, tags: tuple[str, ...]) -> str:
    what = f"能力カード「{card}」" if card is not None else f"能力「{ability}」"
    tagged = f" [{'・'.join(tags)}]" if tags else ""
    return f"{what}{tagged}"


JOIN_CHECKS = {"there": "実はそこにいた", "alive": "実は生きていた", "joined": "実は参加していた"}
# ------------------------------------------------------------------------------ leaving (5.7)
AFTERMATH_PHASES = {
    "square": "マスの効果発動フェイズ",
    "support": "支援フェイズ",
    "combat": "戦闘発生フェイズ",
}
# ------------------------------------------------- 残留思念, 気絶 (6.1 l.1180–1199, 1264–1270)
REMNANT_ANSWERS = {"sync": "同調", "hinder": "妨害", "none": "何もしない"}
SKIPS = {"fainted": "気絶中", "remnant_acted": "同調・妨害で行動済み"}
# --------------------------------------------------------- ESPジャマー (6.1 l.1248–1262, 6.2)
JAMMED_USES = {"main": "使用", "response": "での対抗"}
