"""The difficulty ladder and its modifiers ("難易度+1" moves one step up the quick reference).

Labels are those the dice language reads inside `NJ{n}[...]`, so a final difficulty is always
something `domain.dice` evaluates.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from domain.model.errors import KirokuError

LADDER: tuple[str, ...] = ("K", "E", "N", "H", "UH", "UH2", "UH3")
NAMES = {
    "K": "KIDS",
    "E": "EASY",
    "N": "NORMAL",
    "H": "HARD",
    "UH": "ULTRA-HARD",
    "UH2": "ULTRA-HARD2",
    "UH3": "ULTRA-HARD3",
}
_ALIASES = {"U": "UH", "KIDS": "K", "EASY": "E", "NORMAL": "N", "HARD": "H", "ULTRA-HARD": "UH"}


class Modifier(BaseModel):
    """A named difficulty delta, e.g. {"name": "集中状態", "delta": -1}."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    delta: int = Field(ge=-6, le=6)


def normalise(label: str) -> str:
    label = _ALIASES.get(label.upper(), label.upper())
    if label not in LADDER:
        raise KirokuError(
            "unknown_difficulty",
            "{label} is not a difficulty (K, E, N, H, UH, UH2, UH3).",
            params={"label": label},
        )
    return label


def apply(base: str, modifiers: Iterable[Modifier]) -> tuple[str, int, bool]:
    """Final label, the summed delta, and whether the ladder's end cut it short.

    Modifiers all add up (the rules' default unless a rule says otherwise); past either end of
    the ladder the difficulty stays at KIDS or ULTRA-HARD3 (docs/rulings.md).
    """
    delta = sum(m.delta for m in modifiers)
    step = LADDER.index(normalise(base)) + delta
    clamped = min(max(step, 0), len(LADDER) - 1)
    return LADDER[clamped], delta, clamped != step


def harder(label: str, steps: int) -> str:
    index = min(max(LADDER.index(label) + steps, 0), len(LADDER) - 1)
    return LADDER[index]
