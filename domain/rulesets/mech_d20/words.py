"""What this ruleset's log lines share (the line of each event sits beside the event, in the
module that declares it): a roll as BCDice explained it, a unit's sheet in the rulebook's
words."""

from __future__ import annotations

from domain.model.lifecycle_events import RollRecord

from .sheet import Sheet


def roll_words(record: RollRecord | None) -> str:
    """A roll's explanation (its expression where there is none); "" for no roll."""
    if record is None:
        return ""
    return str(record.result.get("explanation") or record.expression)


def sheet_words(sheet: Sheet | None) -> str:
    """A unit's sheet as a sheet reads, in the rulebook's words ("" for none): level and
    abilities; defences; hp and 回復力; speed and size; weapons; powers."""
    if sheet is None:
        return ""
    abilities = " ".join(f"【{name}】{value}" for name, value in sheet.abilities.items())
    defences = " ".join(f"{name}{value}" for name, value in sheet.defences.items())
    sight = f" 超視覚{sheet.super_sight}" if sheet.super_sight else ""
    surges = f" 回復力{sheet.surges} (回復力値{sheet.surge_value})" if sheet.surges else ""
    durability = f" 耐久力基本値{sheet.durability}" if sheet.durability else ""
    parts = [
        f"レベル{sheet.level} {abilities} 習熟ボーナス+{sheet.proficiency}",
        defences,
        f"hp{sheet.max_hp}{surges}{durability}",
        f"移動力{sheet.speed} サイズ{sheet.size}{sight}",
    ]
    if sheet.weapons:
        parts.append("武器: " + "・".join(f"{w.name} {w.die}" for w in sheet.weapons))
    if sheet.powers:
        parts.append("パワー: " + "・".join(f"{p.name} [{p.frequency}]" for p in sheet.powers))
    return " — " + "; ".join(parts)
