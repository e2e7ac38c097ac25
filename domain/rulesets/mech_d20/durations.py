"""When effects start and end (L90, L167, L307–321, L444).

"Next turn" counts the turns of the unit a duration names: an effect made while that unit has
started n turns of this encounter ends at the start or end of its turn n + 1, whether it was
made during its turn n or outside it. Identical riders do not stack (L314–318): a second copy
is not applied.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .effects import Effect
from .state import Applied, Ending, Unit


def ending(effect: Effect, *, user: Unit | None, target: Unit) -> Ending:
    if effect.duration in ("save_ends", "encounter"):
        return Ending(kind=effect.duration)
    counted = user if effect.turn_of == "user" and user is not None else target
    return Ending(kind=effect.duration, unit=counted.id, turn=counted.turns + 1)


def already_has(target: Unit, effect: Effect) -> bool:
    """L314–318: the same power's rider, or an identical one, is on the unit already."""
    return any(applied.effect.same_as(effect) for applied in target.effects)


def _matching(units: Mapping[str, Unit], kind: str, unit: str, turn: int) -> tuple[int, ...]:
    return tuple(
        a.id
        for u in units.values()
        for a in u.effects
        if a.ending.kind == kind and a.ending.unit == unit and a.ending.turn <= turn
    )


def ending_at_start(units: Mapping[str, Unit], unit: str, turn: int) -> tuple[int, ...]:
    """「次のターンの開始時まで」 effects counted on `unit`'s turn `turn` (防御専念, L90)."""
    return _matching(units, "start_of_next_turn", unit, turn)


def ending_at_end(units: Mapping[str, Unit], unit: str, turn: int) -> tuple[int, ...]:
    return _matching(units, "end_of_next_turn", unit, turn)


def ending_on_delay(units: Mapping[str, Unit], unit: str) -> tuple[int, ...]:
    """L167: the delayer's own 「自身の次のターンの終了時まで」 effects end when it delays
    (only its own: ruling MD-008)."""
    return tuple(
        a.id
        for u in units.values()
        for a in u.effects
        if a.source == unit and a.ending.kind == "end_of_next_turn" and a.ending.unit == unit
    )


def harmful(unit: Unit) -> tuple[int, ...]:
    """L444: what 戦闘不能 removes."""
    return tuple(a.id for a in unit.effects if a.effect.harmful)


def without(unit: Unit, ids: Iterable[int]) -> Unit:
    gone = set(ids)
    if not any(a.id in gone for a in unit.effects):
        return unit
    return unit.model_copy(update={"effects": tuple(a for a in unit.effects if a.id not in gone)})


def ongoing(unit: Unit) -> int:
    """継続的ダメージX (L382), every different rider's amount (identical ones never stack)."""
    return sum(a.effect.ongoing for a in unit.effects)


def applied(
    effect: Effect, *, id: int, user: Unit | None, target: Unit, power: str | None
) -> Applied:
    return Applied(
        id=id,
        effect=effect,
        source=None if user is None else user.id,
        power=power,
        ending=ending(effect, user=user, target=target),
    )
