"""イニシアチブ (L34–42) and its delay (L160–168).

Initiative is 1d20 + 【敏捷力】 + 習熟ボーナス (L38), rolled once at the start of the encounter.
Highest first (L40); ties go to the higher 【敏捷力】 (L41), then to the players (L42); a tie the
seed leaves open (two PCs, or two NPCs, with equal 【敏捷力】) follows the order the table stated
when the encounter began (ruling MD-003). A round is one pass through the order (L28).

Delay: declared at the start of one's turn (L162), to any lower value (L163), kept in later
rounds (L166).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from .sheet import AGILITY, Sheet
from .state import Place


def bonus(sheet: Sheet) -> int:
    """L38: 【敏捷力】 + 習熟ボーナス."""
    return sheet.abilities[AGILITY] + sheet.proficiency


def ordered(places: Iterable[Place]) -> tuple[Place, ...]:
    return tuple(sorted(places, key=lambda p: (-p.value, -p.agility, not p.pc, p.tie)))


def delayed(order: tuple[Place, ...], unit: str, value: int) -> tuple[Place, ...]:
    """The order once `unit` delays to `value` (which the decider checked is lower)."""
    return ordered(p.model_copy(update={"value": value}) if p.unit == unit else p for p in order)


def next_up(order: tuple[Place, ...], done: Collection[str], out: Collection[str]) -> str | None:
    """The first unit in the order still to take its turn this round (None: the round is over)."""
    return next((p.unit for p in order if p.unit not in done and p.unit not in out), None)
