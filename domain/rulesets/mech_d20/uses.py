"""How often a power may be used (L10, L60–63, L119–136, L389).

遭遇毎 powers once per encounter, 1日毎 powers once per day (a GM `new_day`, ruling MD-012);
[精神コマンド]: one per unit per encounter whatever its frequency (L10, L126–128: an 無限回
spirit command used shuts a 1日毎 one out); [モード]: one active at a time, until the encounter
ends or another [モード] is used (L136); a 支配 unit cannot be made to use a limited power (L389).
"""

from __future__ import annotations

from domain.model.errors import RuleViolation

from .sheet import MODE, SPIRIT, Power
from .state import Unit


def check(unit: Unit, power: Power, *, dominated: bool) -> None:
    if dominated and power.frequency != "無限回":
        raise RuleViolation(
            "dominated_limited_power",
            "{unit} is 支配状態: it cannot be made to use a {frequency} power (L389).",
            params={"unit": unit.name, "frequency": power.frequency},
        )
    if power.frequency == "遭遇毎" and power.name in unit.used_encounter:
        raise RuleViolation(
            "encounter_power_used",
            "{unit} has used {power} this encounter.",
            params={"unit": unit.name, "power": power.name},
        )
    if power.frequency == "1日毎" and power.name in unit.used_daily:
        raise RuleViolation(
            "daily_power_used",
            "{unit} has used {power} today.",
            params={"unit": unit.name, "power": power.name},
        )
    if power.has(SPIRIT) and unit.spirit_used:
        raise RuleViolation(
            "spirit_command_used",
            "{unit} has used a 精神コマンド this encounter: one per encounter (L10).",
            params={"unit": unit.name},
        )


def used(unit: Unit, power: Power) -> Unit:
    """The unit after using the power (its frequency, 精神コマンド and [モード] counted)."""
    update: dict[str, object] = {}
    if power.frequency == "遭遇毎":
        update["used_encounter"] = (*unit.used_encounter, power.name)
    if power.frequency == "1日毎":
        update["used_daily"] = (*unit.used_daily, power.name)
    if power.has(SPIRIT):
        update["spirit_used"] = True
    if power.has(MODE):
        update["mode"] = power.name
    return unit.model_copy(update=update) if update else unit


def unused(unit: Unit, name: str) -> Unit:
    """The unit as if it had not used the power (a withdrawn reaction: nothing spent)."""
    return unit.model_copy(
        update={
            "used_encounter": _without(unit.used_encounter, name),
            "used_daily": _without(unit.used_daily, name),
            "spirit_used": unit.spirit_used and not _spirit(unit, name),
        }
    )


def _without(names: tuple[str, ...], name: str) -> tuple[str, ...]:
    if name not in names:
        return names
    index = names.index(name)
    return names[:index] + names[index + 1 :]


def _spirit(unit: Unit, name: str) -> bool:
    power = unit.sheet.power(name)
    return power is not None and power.has(SPIRIT)


def mode_effects(unit: Unit, power: Power) -> tuple[int, ...]:
    """A new [モード] ends the effects the previous one put on the unit (L136)."""
    if not power.has(MODE) or unit.mode is None:
        return ()
    return tuple(a.id for a in unit.effects if a.power == unit.mode and a.source == unit.id)
