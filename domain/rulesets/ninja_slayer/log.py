"""How the table reads this ruleset's events in the log (domain/model/logline.py): one line each, in
the words of the rulebook (手番, 回避, サツバツ!), from what the reader may see — an NPC's sheet,
pool and faces are sealed to the GM, so for anyone else its line gives the outcome alone."""

from __future__ import annotations

from domain.model.logline import roll_line

from . import combat_events as combat
from . import events
from .details import CheckDetail, Strike
from .rules import NINJA_SLAYER
from .sheet import Sheet
from .state import Damage

_says = NINJA_SLAYER.says

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
ATTACKS = {
    "melee": "近接攻撃",
    "ranged": "遠隔攻撃",
    "counter": "カウンターカラテ",
    "hazard": "攻撃以外のダメージ",
}
ATMOSPHERE = {0: "通常", 1: "HARD", 2: "ULTRA-HARD"}


def _ok(success: bool) -> str:
    return "成功" if success else "失敗"


def _sheet(sheet: Sheet | None) -> str:
    if sheet is None:
        return ""
    stats = " ".join(
        f"{label}{getattr(sheet, key)}" for key, label in STATS.items() if getattr(sheet, key)
    )
    weapons = "・".join(w.name for w in sheet.weapons)
    return f" 【{stats}】" + (f" 武器: {weapons}" if weapons else "")


def _detail(detail: CheckDetail | None) -> str:
    """The pool, difficulty and roll, where the reader may see them."""
    if detail is None:
        return ""
    patterns = " ".join(detail.patterns)
    return f" [{roll_line(detail.roll)}]" + (f" {patterns}" if patterns else "")


def _damage(damage: Damage) -> str:
    critical = f" {damage.critical}" if damage.critical else ""
    return f"{damage.target}に{damage.amount}ダメージ (回避難易度{damage.difficulty}){critical}"


def _strike(strike: Strike) -> str:
    if not strike.hit:
        return f"{strike.target}: 失敗 (成功数{strike.successes})"
    critical = f" {strike.critical}" if strike.critical else ""
    return f"{strike.target}: 命中 (成功数{strike.successes}){critical}"


@_says(events.CharacterAdded)
def _added(e: events.CharacterAdded) -> str:
    owner = f" ({e.owner})" if e.owner.startswith("seat:") else ""
    return f"{KINDS[e.kind]} {e.name}{owner} が登場{_sheet(e.sheet or e.secret)}"


@_says(events.CharacterAdjusted)
def _adjusted(e: events.CharacterAdjusted) -> str:
    changes = [f"{STATS.get(k, k)}{v:+d}" for k, v in e.changes.items()]
    if e.status:
        changes.append(f"→ {e.status}")
    return f"GM: {e.character} {' '.join(changes)} ({e.reason})"


@_says(events.CheckRolled)
def _check(e: events.CheckRolled) -> str:
    stat = f"【{e.stat}】" if e.stat else ""
    again = f" (#{e.reroll_of}の振り直し)" if e.reroll_of else ""
    detail = _detail(e.detail or e.secret)
    pattern = ""
    if e.pattern:
        pattern = f" 【{e.pattern.strip('【】')}】{'あり' if e.pattern_met else 'なし'}"
    return (
        f"{e.character} {stat}判定{again}: {_ok(e.success)} (成功数{e.successes}){pattern}{detail}"
    )


@_says(events.SixthSense)
def _sixth_sense(e: events.SixthSense) -> str:
    return f"{e.character} ニンジャ第六感: #{e.of_seq}を振り直す"


@_says(events.AdrenalineBoost)
def _adrenaline(e: events.AdrenalineBoost) -> str:
    return f"{e.character} アドレナリン・ブースト (精神力-1)"


@_says(events.ScenarioEnded)
def _scenario_ended(e: events.ScenarioEnded) -> str:
    return (
        "シナリオ本編の終了 → 評価: 即応ダイス・緊急回避ダイス・能力値ダメージ・"
        "ニンジャ第六感が戻り、●部位損傷の×数は消える"
    )


@_says(combat.CombatBegan)
def _combat(e: combat.CombatBegan) -> str:
    boss = " (ボス戦)" if e.boss_fight else ""
    return f"戦闘開始{boss}: {'・'.join(e.participants)}"


@_says(combat.TurnStarted)
def _turn(e: combat.TurnStarted) -> str:
    return f"ターン{e.turn} 手番の順: {' → '.join(e.order)}"


@_says(combat.PhaseChanged)
def _phase(e: combat.PhaseChanged) -> str:
    who = f" {e.character}" if e.character else ""
    return f"ターン{e.turn}{who} {PHASES[e.phase]}"


@_says(combat.WeaponSwitched)
def _weapon(e: combat.WeaponSwitched) -> str:
    return f"{e.character} 武器を持ち替え: {e.weapon}"


@_says(combat.Concentrated)
def _concentrated(e: combat.Concentrated) -> str:
    return f"{e.character} 集中状態 (移動なし、攻撃フェイズの判定の難易度-1)"


@_says(combat.Moved)
def _moved(e: combat.Moved) -> str:
    style = e.style or "通常移動"
    outcome = "" if e.success is None else f": {_ok(e.success)}"
    return f"{e.character} {style}{outcome}"


@_says(combat.AttackRolled)
def _attack(e: combat.AttackRolled) -> str:
    weapon = f" ({e.weapon})" if e.weapon else ""
    style = f" {e.style}" if e.style else ""
    strikes = "; ".join(_strike(s) for s in e.strikes)
    detail = e.detail or e.secret
    rolls = " ".join(f"[{roll_line(s.roll)}]" for s in detail.strikes) if detail else ""
    return f"{e.attacker} {ATTACKS[e.kind]}{weapon}{style} — {strikes}" + (
        f" {rolls}" if rolls else ""
    )


@_says(combat.StrikeRerolled)
def _strike_rerolled(e: combat.StrikeRerolled) -> str:
    replaced = f" (ダメージ#{e.replaces}を置き換え)" if e.replaces is not None else ""
    return (
        f"{e.attacker} #{e.of_seq}の{e.index}回目を振り直し — {_strike(e.strike)}{replaced}"
        + _detail(e.detail or e.secret)
    )


@_says(combat.EvasionRolled)
def _evasion(e: combat.EvasionRolled) -> str:
    counter = (
        f" カウンターカラテの権利: {'・'.join(e.counter_against)}" if e.counter_against else ""
    )
    detail = _detail(e.detail or e.secret)
    return f"{e.character} 回避: {_ok(e.success)} (成功数{e.successes}){counter}{detail}"


@_says(combat.DamageTaken)
def _damage_taken(e: combat.DamageTaken) -> str:
    status = "" if e.status == "active" else f" → {e.status}"
    critical = f" ({e.unevaded_critical})" if e.unevaded_critical else ""
    endured = f" ニンジャ耐久力の発露: 精神力-{e.endured}" if e.endured else ""
    cut = f" (ダメージ軽減{e.reduced})" if e.reduced else ""
    return f"{e.character} 体力-{e.amount - e.reduced - e.endured}{cut}{critical}{endured}{status}"


@_says(combat.CounterKarate)
def _counter(e: combat.CounterKarate) -> str:
    boost = f" ({e.enhancement})" if e.enhancement else ""
    return f"{e.character} カウンターカラテ!{boost} {_damage(e.damage)}"


@_says(combat.OtherAction)
def _other(e: combat.OtherAction) -> str:
    return f"{e.character}: {e.action}"


@_says(combat.AtmosphereRaised)
def _atmosphere(e: combat.AtmosphereRaised) -> str:
    return f"ターン{e.turn}終了: 難易度が{ATMOSPHERE.get(e.level, e.level)}モードに"


@_says(combat.WasshoiRolled)
def _wasshoi(e: combat.WasshoiRolled) -> str:
    outcome = (
        f"ニンジャスレイヤー=サンが来る! ({e.highest})"
        if e.success and e.highest
        else _ok(e.success)
    )
    return f"Wasshoi! 判定 (目標値{e.target}): {outcome} [{roll_line(e.roll)}]"


@_says(combat.CombatEnded)
def _combat_ended(e: combat.CombatEnded) -> str:
    revived = f" 気絶から復帰: {'・'.join(e.revived)}" if e.revived else ""
    return f"戦闘終了{revived}"


@_says(combat.AtmosphereSet)
def _atmosphere_set(e: combat.AtmosphereSet) -> str:
    return (
        f"GM: アトモスフィアを{ATMOSPHERE.get(e.level, e.level)}モードに"
        f" (経過ターン数はターン{e.count_from}から数える)"
    )


@_says(combat.CharactersPlaced)
def _placed(e: combat.CharactersPlaced) -> str:
    weapons = [f"{name}: {weapon}" for name, weapon in e.weapons.items()]
    armed = f" (武器 {'、'.join(weapons)})" if weapons else ""
    return f"新たなキャラの配置: {'・'.join(e.characters)} が戦闘に参加{armed}"


@_says(combat.DamageUndone)
def _undone(e: combat.DamageUndone) -> str:
    back = f"体力+{e.amount}" + (f" 精神力+{e.seishin}" if e.seishin else "")
    return f"{e.character} ニンジャ第六感で回避成功: 受けたダメージは無かったことに ({back})"


TABLES = {"satsubatsu": "サツバツ・クリティカル表", "entry": "登場表", "danmaku": "弾幕表"}


@_says(combat.TableRolled)
def _table_rolled(e: combat.TableRolled) -> str:
    who = f"{e.attacker}→{e.target} " if e.attacker and e.target else ""
    result = f"「{e.text}」" if e.text else f"{e.value} (表に該当なし)"
    return f"{who}{TABLES[e.table]}: {result} [{roll_line(e.roll)}]"
