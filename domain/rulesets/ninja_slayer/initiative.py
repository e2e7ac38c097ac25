"""Turn order (2-3): highest initiative first; ≤0 counts as 1; ties as the rules settle them.

PC–PC ties are settled once and kept for the combat; a PC acts before an enemy with the same
initiative; enemy–enemy ties are the GM's choice, made again every turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.errors import RuleViolation

from .state import Character


def initiative(character: Character) -> int:
    return character.now.neuron + character.sheet.initiative_modifier


def order_value(character: Character) -> int:
    return max(1, initiative(character))


def _require_settled(group: list[Character], settled: Sequence[str], code: str, who: str) -> None:
    by_value: dict[int, list[str]] = {}
    for member in group:
        by_value.setdefault(order_value(member), []).append(member.id)
    for tied in by_value.values():
        missing = [i for i in tied if i not in settled]
        if len(tied) > 1 and missing:
            raise RuleViolation(
                code,
                f"{', '.join(sorted(tied))} have the same initiative: {who} decides their order "
                f"(list them in {code.removesuffix('_required')}).",
            )


def turn_order(
    characters: Sequence[Character], pc_ties: Sequence[str], enemy_ties: Sequence[str]
) -> tuple[str, ...]:
    pcs = [c for c in characters if c.kind == "pc"]
    enemies = [c for c in characters if c.kind != "pc"]
    _require_settled(pcs, pc_ties, "pc_tie_order_required", "the players")
    _require_settled(enemies, enemy_ties, "enemy_tie_order_required", "the GM")

    def key(c: Character) -> tuple[int, int, int]:
        ties = pc_ties if c.kind == "pc" else enemy_ties
        rank = ties.index(c.id) if c.id in ties else 0
        return (-order_value(c), 0 if c.kind == "pc" else 1, rank)

    return tuple(c.id for c in sorted(characters, key=key))


def merged(kept: Sequence[str], new: Sequence[str]) -> tuple[str, ...]:
    """A PC tie order once settled is kept; new ties are appended after it."""
    return (*kept, *(i for i in new if i not in kept))
