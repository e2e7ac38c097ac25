"""How the table reads this ruleset's events in the log (domain/model/logline.py): one line each,
from what the reader may see — the parts it is given are read back into the event, whose
sealed part is None for a reader who may not see it, so an NPC's totals and hp never appear."""

from __future__ import annotations

from domain.model.lifecycle_events import RollRecord

from . import (
    attacks,
    changes,
    damage_rolls,
    encounter,
    heroes,
    movement,
    powers,
    resolution,
    turns,
    units,
)
from .rules import MECH_D20

_says = MECH_D20.says


def _roll(record: RollRecord | None) -> str:
    if record is None:
        return ""
    return str(record.result.get("explanation") or record.expression)


@_says(units.UnitAdded)
def _added(e: units.UnitAdded) -> str:
    return f"{e.name} ({e.id}, {'NPC' if e.kind == 'npc' else 'PC'}) が戦場に"


@_says(units.UnitAdjusted)
def _adjusted(e: units.UnitAdjusted) -> str:
    return f"GM adjusts {e.unit} ({', '.join(e.fields)}): {e.reason}"


@_says(encounter.EncounterBegan)
def _began(e: encounter.EncounterBegan) -> str:
    return "戦闘遭遇開始 — イニシアチブ順: " + " → ".join(e.order)


@_says(encounter.RoundBegan)
def _round(e: encounter.RoundBegan) -> str:
    return f"ラウンド {e.round}"


@_says(encounter.EncounterEnded)
def _ended(e: encounter.EncounterEnded) -> str:
    return "戦闘遭遇終了"


@_says(turns.TurnStarted)
def _turn(e: turns.TurnStarted) -> str:
    return f"{e.unit} のターン (ラウンド {e.round})"


@_says(turns.TurnEnded)
def _turn_ended(e: turns.TurnEnded) -> str:
    saves = ", ".join(f"セーヴ {x.natural} {'成功' if x.success else '失敗'}" for x in e.saves)
    return f"{e.unit} のターン終了" + (f" ({saves})" if saves else "")


@_says(turns.DeathSaveRolled)
def _death(e: turns.DeathSaveRolled) -> str:
    outcome = {"failure": "失敗", "success": "成功", "recovered": "20: 回復"}[e.outcome]
    return f"{e.unit} 戦闘不能セーヴ {e.natural}: {outcome} (失敗 {e.failures}) {e.status}"


@_says(turns.Delayed)
def _delayed(e: turns.Delayed) -> str:
    value = e.value if e.value is not None else e.secret.value if e.secret else None
    return f"{e.unit} がイニシアチブを遅延" + (f" ({value})" if value is not None else "")


@_says(powers.PowerUsed)
def _used(e: powers.PowerUsed) -> str:
    targets = f" → {', '.join(e.targets)}" if e.targets else ""
    how = f" [{e.action}]" if e.action else ""
    extra = " (突撃)" if e.charge else " (とどめの一撃)" if e.coup_de_grace else ""
    return f"{e.unit}: {e.power}{how}{targets}{extra}"


@_says(attacks.AttackRolled)
def _attack(e: attacks.AttackRolled) -> str:
    parts = []
    for roll in e.rolls:
        shown = _roll(roll.roll)
        outcome = "クリティカル" if roll.critical else "ヒット" if roll.outcome == "hit" else "ミス"
        parts.append(
            f"{roll.target} ({roll.defence}): {outcome}" + (f" [{shown}]" if shown else "")
        )
    reroll = "振り直し " if e.reroll else ""
    return f"{e.unit} {reroll}{e.power} 命中ロール — " + "; ".join(parts)


@_says(damage_rolls.DamageRolled)
def _damage(e: damage_rolls.DamageRolled) -> str:
    dealt = ", ".join(
        f"{d.target} {d.amount}"
        + (" (クリティカル)" if d.critical else "")
        + (" (半減)" if d.half else "")
        + (" (無効化)" if d.negated else "")
        for d in e.dealt
    )
    shown = [_roll(e.roll)]
    if e.maximised and e.maximum is not None:
        shown.append(f"{e.expression} の最大値 {e.maximum}")
    shown.append(_roll(e.crit_roll))
    rolls = "; ".join(x for x in shown if x)
    return f"{e.unit} {e.power} ダメージ: {dealt}" + (f" [{rolls}]" if rolls else "")


@_says(changes.HpChanged)
def _hp(e: changes.HpChanged) -> str:
    hp = e.hp if e.hp is not None else e.secret.hp if e.secret else None
    flags = [f for f, on in (("半壊", e.bloodied), ("out", e.out)) if on]
    if e.status != "active":
        flags.append(e.status)
    number = f" hp {hp}" if hp is not None else ""
    marks = f" [{', '.join(flags)}]" if flags else ""
    return f"{e.unit} {e.change:+d} ({e.cause}){number}{marks}"


@_says(changes.EffectApplied)
def _effect(e: changes.EffectApplied) -> str:
    what: list[str] = [*e.effect.conditions]
    if e.effect.ongoing:
        what.append(f"継続的ダメージ{e.effect.ongoing}")
    what += [f"{m.applies} {m.value:+d}" for m in e.effect.modifiers]
    return f"{e.unit}: {'・'.join(what) or e.effect.text} ({e.power or ''})"


@_says(changes.EffectsEnded)
def _effects_ended(e: changes.EffectsEnded) -> str:
    return f"効果終了 ({', '.join(map(str, e.ids))}): {e.reason}"


@_says(resolution.ReactionResolved)
def _reaction(e: resolution.ReactionResolved) -> str:
    if e.voided:
        return f"{e.unit} の {e.power} は無効 (消費なし): {e.reason}"
    return f"{e.unit} の {e.power} (即応・対応)"


@_says(resolution.PowerCancelled)
def _cancelled(e: resolution.PowerCancelled) -> str:
    return f"{e.unit} の {e.power} は解決されない (使用者が行動不能)"


@_says(movement.Moved)
def _moved(e: movement.Moved) -> str:
    return f"{e.unit}: {e.kind}" + (f" {e.text}" if e.text else "")


@_says(movement.ActionTaken)
def _acted(e: movement.ActionTaken) -> str:
    return f"{e.unit} [{e.action}]: {e.what}"


@_says(heroes.HeroPointGained)
def _hero_gained(e: heroes.HeroPointGained) -> str:
    giver = f"seat:{e.giver}" if e.giver else "GM"
    return f"ヒーローポイント: {giver} → seat:{e.seat}"


@_says(heroes.HeroPointSpent)
def _hero_spent(e: heroes.HeroPointSpent) -> str:
    use = "追加のアクション" if e.use == "action" else "命中ロールの振り直し"
    return f"seat:{e.seat} がヒーローポイントを消費 ({e.unit}: {use})"


@_says(resolution.PowerWithdrawn)
def _withdrawn(e: resolution.PowerWithdrawn) -> str:
    refund = " (消費なし)" if e.refunded else ""
    return f"{e.unit} の {e.power} を取り下げ{refund}: {e.reason}"


@_says(encounter.DayBegan)
def _day(e: encounter.DayBegan) -> str:
    return f"{e.day}日目: 1日毎のパワーが戻り、各席がヒーローポイントをまた使える"


@_says(turns.ExtraSaveRolled)
def _extra_save(e: turns.ExtraSaveRolled) -> str:
    shown = _roll(e.roll)
    return f"{e.unit} 効果{e.effect}へのセーヴ {e.natural}: {'成功' if e.success else '失敗'}" + (
        f" [{shown}]" if shown else ""
    )


@_says(attacks.OwnRolls)
def _own(e: attacks.OwnRolls) -> str:
    rolls = "; ".join(_roll(r) for r in e.secret.rolls) if e.secret else ""
    return f"{e.unit} の出目" + (f": {rolls}" if rolls else " (非公開)")


@_says(resolution.PowerResolved)
def _resolved(e: resolution.PowerResolved) -> str:
    return f"{e.unit} の {e.power} を解決"
