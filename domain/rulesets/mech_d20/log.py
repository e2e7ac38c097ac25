"""How the table reads this ruleset's events in the log (domain/logline.py): one line each,
from what the reader may see — an NPC's totals and hp never appear, because they are not in
the parts a seat is given."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.events import Event

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

Parts = dict[str, Any]
Line = tuple[str, str] | None


def _says(event: type[Event]) -> Callable[[Callable[[Parts, Parts | None], str]], None]:
    def declare(text: Callable[[Parts, Parts | None], str]) -> None:
        def describe(public: Parts, secret: Parts | None) -> Line:
            return "rules", text(public, secret)

        MECH_D20.describes(event)(describe)

    return declare


def _roll(record: Parts | None) -> str:
    if not record:
        return ""
    result = record.get("result") or {}
    return str(result.get("explanation") or record.get("expression", ""))


@_says(units.UnitAdded)
def _added(p: Parts, s: Parts | None) -> str:
    kind = "NPC" if p["kind"] == "npc" else "PC"
    return f"{p['name']} ({p['id']}, {kind}) が戦場に"


@_says(units.UnitAdjusted)
def _adjusted(p: Parts, s: Parts | None) -> str:
    return f"GM adjusts {p['unit']} ({', '.join(p['fields'])}): {p['reason']}"


@_says(encounter.EncounterBegan)
def _began(p: Parts, s: Parts | None) -> str:
    return "戦闘遭遇開始 — イニシアチブ順: " + " → ".join(p["order"])


@_says(encounter.RoundBegan)
def _round(p: Parts, s: Parts | None) -> str:
    return f"ラウンド {p['round']}"


@_says(encounter.EncounterEnded)
def _ended(p: Parts, s: Parts | None) -> str:
    return "戦闘遭遇終了"


@_says(turns.TurnStarted)
def _turn(p: Parts, s: Parts | None) -> str:
    return f"{p['unit']} のターン (ラウンド {p['round']})"


@_says(turns.TurnEnded)
def _turn_ended(p: Parts, s: Parts | None) -> str:
    saves = ", ".join(
        f"セーヴ {x['natural']} {'成功' if x['success'] else '失敗'}" for x in p["saves"]
    )
    return f"{p['unit']} のターン終了" + (f" ({saves})" if saves else "")


@_says(turns.DeathSaveRolled)
def _death(p: Parts, s: Parts | None) -> str:
    outcome = {"failure": "失敗", "success": "成功", "recovered": "20: 回復"}[p["outcome"]]
    return (
        f"{p['unit']} 戦闘不能セーヴ {p['natural']}: {outcome} (失敗 {p['failures']}) {p['status']}"
    )


@_says(turns.Delayed)
def _delayed(p: Parts, s: Parts | None) -> str:
    value = p.get("value")
    return f"{p['unit']} がイニシアチブを遅延" + (f" ({value})" if value is not None else "")


@_says(powers.PowerUsed)
def _used(p: Parts, s: Parts | None) -> str:
    targets = f" → {', '.join(p['targets'])}" if p["targets"] else ""
    how = f" [{p['action']}]" if p.get("action") else ""
    extra = " (突撃)" if p.get("charge") else " (とどめの一撃)" if p.get("coup_de_grace") else ""
    return f"{p['unit']}: {p['power']}{how}{targets}{extra}"


@_says(attacks.AttackRolled)
def _attack(p: Parts, s: Parts | None) -> str:
    parts = []
    for roll in p["rolls"]:
        shown = _roll(roll.get("roll"))
        outcome = (
            "クリティカル" if roll["critical"] else "ヒット" if roll["outcome"] == "hit" else "ミス"
        )
        parts.append(
            f"{roll['target']} ({roll['defence']}): {outcome}" + (f" [{shown}]" if shown else "")
        )
    reroll = "振り直し " if p.get("reroll") else ""
    return f"{p['unit']} {reroll}{p['power']} 命中ロール — " + "; ".join(parts)


@_says(damage_rolls.DamageRolled)
def _damage(p: Parts, s: Parts | None) -> str:
    dealt = ", ".join(
        f"{d['target']} {d['amount']}"
        + (" (クリティカル)" if d["critical"] else "")
        + (" (半減)" if d["half"] else "")
        + (" (無効化)" if d["negated"] else "")
        for d in p["dealt"]
    )
    shown = [_roll(p.get("roll"))]
    if p.get("maximised") and p.get("maximum") is not None:
        shown.append(f"{p['expression']} の最大値 {p['maximum']}")
    shown.append(_roll(p.get("crit_roll")))
    rolls = "; ".join(x for x in shown if x)
    return f"{p['unit']} {p['power']} ダメージ: {dealt}" + (f" [{rolls}]" if rolls else "")


@_says(changes.HpChanged)
def _hp(p: Parts, s: Parts | None) -> str:
    hp = p.get("hp") if p.get("hp") is not None else (s or {}).get("hp")
    flags = [f for f, on in (("半壊", p["bloodied"]), ("out", p["out"])) if on]
    if p["status"] != "active":
        flags.append(p["status"])
    number = f" hp {hp}" if hp is not None else ""
    return f"{p['unit']} {p['change']:+d} ({p['cause']}){number}" + (
        f" [{', '.join(flags)}]" if flags else ""
    )


@_says(changes.EffectApplied)
def _effect(p: Parts, s: Parts | None) -> str:
    effect = p["effect"]
    what = [*effect.get("conditions", [])]
    if effect.get("ongoing"):
        what.append(f"継続的ダメージ{effect['ongoing']}")
    what += [f"{m['applies']} {m['value']:+d}" for m in effect.get("modifiers", [])]
    return f"{p['unit']}: {'・'.join(what) or effect.get('text', '')} ({p.get('power') or ''})"


@_says(resolution.ReactionResolved)
def _reaction(p: Parts, s: Parts | None) -> str:
    if p["voided"]:
        return f"{p['unit']} の {p['power']} は無効 (消費なし): {p['reason']}"
    return f"{p['unit']} の {p['power']} (即応・対応)"


@_says(resolution.PowerCancelled)
def _cancelled(p: Parts, s: Parts | None) -> str:
    return f"{p['unit']} の {p['power']} は解決されない (使用者が行動不能)"


@_says(movement.Moved)
def _moved(p: Parts, s: Parts | None) -> str:
    return f"{p['unit']}: {p['kind']}" + (f" {p['text']}" if p.get("text") else "")


@_says(movement.ActionTaken)
def _acted(p: Parts, s: Parts | None) -> str:
    return f"{p['unit']} [{p['action']}]: {p['what']}"


@_says(heroes.HeroPointGained)
def _hero_gained(p: Parts, s: Parts | None) -> str:
    giver = f"seat:{p['giver']}" if p.get("giver") else "GM"
    return f"ヒーローポイント: {giver} → seat:{p['seat']}"


@_says(heroes.HeroPointSpent)
def _hero_spent(p: Parts, s: Parts | None) -> str:
    use = "追加のアクション" if p["use"] == "action" else "命中ロールの振り直し"
    return f"seat:{p['seat']} がヒーローポイントを消費 ({p['unit']}: {use})"


@_says(changes.EffectsEnded)
def _effects_ended(p: Parts, s: Parts | None) -> str:
    return f"効果終了 ({', '.join(map(str, p['ids']))}): {p['reason']}"
