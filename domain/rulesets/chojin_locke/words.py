"""The words this ruleset's log lines are made of (the line of each event sits beside the
event, in the module that declares it): the rulebook's names for its stats, phases, tables…

Each is a catalog key (`N_`, its Japanese the rulebook's word; api/pages/i18n/ gives its English)
so a line reads in its reader's language; a seat reads as its player's name (`seat_name`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import BaseModel

from domain.model.logline import roll_text, seat_name
from domain.model.messages import N_, Items, Message, Term

from .cards import CharacterSheet
from .state import Cell, Position

STATS = {
    "esp_level": N_("ESP能力レベル"),
    "esp_power": N_("ESPパワー"),
    "endurance": N_("耐久力"),
    "willpower": N_("精神力"),
}
PHASES = {
    "check": N_("チェックフェイズ"),
    "support1": N_("支援フェイズ1"),
    "support2": N_("支援フェイズ2"),
    "main": N_("主要フェイズ"),  # seed L540–547: the turn's phases by name
    "square": N_("マスの効果発動フェイズ"),
    "combat": N_("戦闘発生フェイズ"),  # 2020 (L547); the 2002 turn calls it 戦闘フェーズ
    "victory": N_("勝利宣言フェイズ"),
    "recovery": N_("回復フェイズ"),
    "move": N_("移動フェイズ"),
    "instruction": N_("指示フェイズ"),
    "destruction": N_("破壊フェイズ"),
}
PURPOSES = {
    "check": N_("チェック"),
    "teleport": N_("テレポート"),
    "conversion": N_("説得"),
    "intrusion": N_("侵入"),
}
ACTIONS = {
    "recover": N_("回復"),
    "treat": N_("治療"),
    "pass": N_("パス"),
    "teleport_failed": N_("テレポート失敗"),
}
MOVES = {"move": N_("移動"), "spaceport": N_("宇宙港へ移動"), "teleport": N_("テレポート")}
ENTRIES = {
    "entry": N_("入口から侵入"),
    "intrusion": N_("強行侵入"),
    "random": N_("ランダムな位置に侵入"),
}
CONDITIONS = {  # a character's condition (4.4), as the pane names it
    "normal": N_("通常"),
    "bound": N_("拘束"),
    "arrested": N_("逮捕"),
    "partner": N_("パートナー"),
    "dead": N_("死亡"),
    "black_hole": N_("ブラックホール"),
    "disabled": N_("行動不能"),
}
NOBODY = N_("なし")
SIDES = {"explorer": N_("探索側"), "base": N_("基地側")}
ENDINGS = {
    "victory": N_("勝利"),
    "sole_victory": N_("単独勝利"),
    "keys_destroyed": N_("キーがすべて破壊された"),
    "all_dead": N_("全員死亡"),
    "all_out": N_("全員脱落"),
    "vigil": N_("待機の終わり"),
    "host": N_("ホストが終了"),
}
STAGE_ENDS = {
    "no_cards": N_("惑星カードがなくなった"),
    "information": N_("情報がそろった"),
    "explorers_dead": N_("探索者が全滅した"),
}


def named(text: str) -> Term:
    """A word the card catalog gives (a card's name or text, a tag, a C-card's kind, a chart's
    result) as a term: the shipped sample catalog's are in the catalogs (api/pages/i18n/), so
    they read in the reader's language; a host's own catalog's read as written."""
    return Term(text)


def named_all(texts: Iterable[str]) -> Items:
    """Several of the catalog's words (`named`), listed: 「電撃・バリアー」."""
    return Items(named(text) for text in texts)


def seat_words(n: int | None, names: Mapping[int, str]) -> str:
    """A seat by its player's name (「席N」 for a seat without one; "—" for no seat)."""
    return "—" if n is None else seat_name(n, names)


def seats_words(seats: Iterable[int], names: Mapping[int, str]) -> Items:
    return Items(seat_words(n, names) for n in seats)


def place_words(p: Position) -> Message:
    if p.square == 0:
        return Message(N_("惑星{planet}の宇宙港"), {"planet": p.planet})
    return Message(N_("惑星{planet}のマス{square}"), {"planet": p.planet, "square": p.square})


def cell_words(c: Cell) -> Message:
    return Message(N_("基地({row},{col})"), {"row": c.row, "col": c.col})


def sheet_words(sheet: CharacterSheet) -> Message:
    """A character sheet as a line shows it: its name (as the catalog writes it), (L), rank,
    alignment and stats."""
    return Message(
        N_(
            "{name}{leader} [{rank} {alignment}] ESP能力レベル{esp_level} ESPパワー{esp_power}"
            " 耐久力{endurance} 精神力{willpower}"
        ),
        {
            "name": sheet.name,
            "leader": " (L)" if sheet.leader else "",
            "rank": sheet.rank,
            "alignment": sheet.alignment,
            "esp_level": sheet.esp_level,
            "esp_power": sheet.esp_power,
            "endurance": sheet.endurance,
            "willpower": sheet.willpower,
        },
    )


def success_word(success: bool) -> Term:
    return N_("成功") if success else N_("失敗")


def roll_words(record: BaseModel | None) -> str | Message:
    """A roll record's BCDice result line (`roll_line`), a manual roll's marked (手動ダイス) in
    the reader's language."""
    if record is None:
        return ""
    said = roll_text(record.model_dump(mode="json"))
    if said.get("msg"):  # a manual roll, as domain/model/logline.py's roll line reads it
        return Message(N_("{roll} (手動ダイス)"), said["args"])
    return str(said["text"])


def rolls_words(records: Iterable[BaseModel]) -> str | Message:
    """Several rolls' lines (`roll_words`), one after another: 「… / …」."""
    said: str | Message = ""
    for record in reversed(list(records)):
        roll = roll_words(record)
        said = Message(N_("{roll} / {more}"), {"roll": roll, "more": said}) if said else roll
    return said


COMBAT_STEPS = {
    "joining": N_("戦闘参加フェイズ"),
    "moving": N_("コマ移動フェイズ"),
    "before": N_("戦闘前フェイズ"),
    "hands": N_("手札の受け取り"),
    "initiative": N_("イニシアチブ決定"),
    "turns": N_("戦闘手番"),
    "round_end": N_("ラウンド終了フェイズ"),
}
COMBAT_PHASES = {
    "check": N_("チェックフェイズ"),
    "support1": N_("支援フェイズ1"),
    "main": N_("主要フェイズ"),
    "support2": N_("支援フェイズ2"),
}
COMBAT_ENDS = {
    "no_attack": N_("このラウンドに攻撃行動がなかった"),
    "nobody_continues": N_("戦闘を続ける者がいない"),
    "one_left": N_("戦闘参加者が1体以下"),
    "deck_exhausted": N_("Cカードの山札が尽きた"),
}


def fighter_words(n: int, names: Mapping[int, str]) -> str:
    """A fighter: a character by its player's name (`seat_words`), an NPC (ids from 101) by its
    number."""
    return seat_words(n, names) if n < 101 else f"NPC{n}"


def fighters_words(ids: Iterable[int], names: Mapping[int, str]) -> Items:
    return Items(fighter_words(n, names) for n in ids)


def card_words(color: str, rank: int) -> Message:
    """A playing card (initiative): 「黒8」, 「赤2」."""
    if color == "black":
        return Message(N_("黒{rank}"), {"rank": rank})
    return Message(N_("赤{rank}"), {"rank": rank})


USES = {"main": "使用", "response": "で対抗", "sync": "で同調", "minion_sync": "で手下が同調"}
OUTCOMES = {
    "hit": N_("命中"),
    "blocked": N_("防御された"),
    "evaded": N_("回避された (戦闘から離脱)"),
}
CAUSES = {"endurance": N_("耐久力"), "willpower": N_("精神力")}


def used_words(ability: str | None, card: str | None, tags: tuple[str, ...]) -> Message:
    """An ability used: an ability card by its name (a term of the catalog), else the sheet's
    ability as the sheet names it; its tags after it."""
    if card is not None:
        if tags:
            return Message(
                N_("能力カード「{card}」 [{tags}]"), {"card": named(card), "tags": named_all(tags)}
            )
        return Message(N_("能力カード「{card}」"), {"card": named(card)})
    if tags:
        return Message(
            N_("能力「{ability}」 [{tags}]"), {"ability": ability, "tags": named_all(tags)}
        )
    return Message(N_("能力「{ability}」"), {"ability": ability})


JOIN_CHECKS = {
    "there": N_("実はそこにいた"),
    "alive": N_("実は生きていた"),
    "joined": N_("実は参加していた"),
}
# ------------------------------------------------------------------------------ leaving (5.7)
AFTERMATH_PHASES = {
    "square": N_("マスの効果発動フェイズ"),
    "support": N_("支援フェイズ"),
    "combat": N_("戦闘発生フェイズ"),
}
# ------------------------------------------------- 残留思念, 気絶 (6.1 l.1180–1199, 1264–1270)
REMNANT_ANSWERS = {"sync": N_("同調"), "hinder": N_("妨害"), "none": N_("何もしない")}
SKIPS = {"fainted": N_("気絶中"), "remnant_acted": N_("同調・妨害で行動済み")}


def left_the_combat() -> Message:
    """What follows an ability or card that took its user out of the combat."""
    return Message(N_(" — 戦闘から離脱"))


def card_used(use: str, card: str, lv: int, kind: str) -> Message:
    """A C-card activated (5.4): used, in response, in sync, or the minions' sync."""
    said = {"card": named(card), "lv": lv, "kind": named(kind)}
    if use == "response":
        return Message(N_("Cカード「{card}」(LV{lv} {kind})で対抗"), said)
    if use == "sync":
        return Message(N_("Cカード「{card}」(LV{lv} {kind})で同調"), said)
    if use == "minion_sync":
        return Message(N_("Cカード「{card}」(LV{lv} {kind})で手下が同調"), said)
    return Message(N_("Cカード「{card}」(LV{lv} {kind})使用"), said)
