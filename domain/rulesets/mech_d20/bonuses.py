"""Bonuses and penalties, and how they stack (seed L7–9).

「同じ種類のボーナスは累積せず、最も高いもののみが適用される」 (L8): of typed bonuses (特技ボーナス,
パワー・ボーナス, 盾ボーナス…) only the highest of each type counts. 「無名ボーナス…は累積するが、
無名ボーナスであっても同じ名称のパワーやアイテムから得られるボーナスは累積されない」 (L9): untyped
bonuses add up, except two from a source of the same name. The seed says nothing of penalties:
they all stack except two from the same-named source (docs/rulings.md, メカd20 ruling MD-009).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.model.messages import N_

from .terms import term

# What a modifier changes: an attack roll, a damage roll, every defence, or one named defence.
Applies = str
ATTACK: Literal["attack"] = "attack"
DAMAGE: Literal["damage"] = "damage"
DEFENCES: Literal["defences"] = "defences"
# …in the rulebook's words, for the lines (a named defence is its own word already)
APPLIES_WORDS = {ATTACK: N_("命中ロール"), DAMAGE: N_("ダメージ・ロール"), DEFENCES: N_("全防御値")}


def applies_words(applies: Applies) -> str:
    """What a modifier changes, as a line says it: 命中ロール, ダメージ・ロール, 全防御値, AC…
    (a term, read in the reader's language; a defence the sheet named as it is)."""
    return APPLIES_WORDS.get(applies) or term(applies)


class Modifier(BaseModel):
    """A named bonus (value > 0) or penalty (value < 0), e.g. 突撃 +1 untyped to attack."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=60, description="its source: power, item, rule")
    value: int = Field(ge=-50, le=50)
    type: str | None = Field(
        default=None, max_length=30, description="e.g. パワー, 特技, 盾; none: 無名ボーナス"
    )
    applies: Applies = Field(
        default=ATTACK,
        min_length=1,
        max_length=30,
        description="attack, damage, defences, or one defence by name (AC…)",
    )


def counted(modifiers: Iterable[Modifier]) -> tuple[Modifier, ...]:
    """The modifiers that count after stacking, in the order first given."""
    best: dict[tuple[str, str], Modifier] = {}
    for modifier in modifiers:
        if modifier.value == 0:
            continue
        if modifier.value < 0:
            key = ("penalty", modifier.name)  # ruling MD-009: same-named penalties count once
        elif modifier.type is None:
            key = ("untyped", modifier.name)  # L9: same-named untyped bonuses count once
        else:
            key = ("typed", modifier.type)  # L8: highest of each type
        kept = best.get(key)
        if kept is None or abs(modifier.value) > abs(kept.value):
            best[key] = modifier
    return tuple(best.values())


def stacked(modifiers: Iterable[Modifier]) -> int:
    """The total the modifiers add after stacking (L7–9, ruling MD-009)."""
    return sum(m.value for m in counted(modifiers))


def for_roll(modifiers: Iterable[Modifier], *applies: str) -> list[Modifier]:
    """The modifiers that change any of `applies` (e.g. "defences" and "AC" for AC)."""
    return [m for m in modifiers if m.applies in applies]
