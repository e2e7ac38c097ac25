"""One rolled check: pool, modified difficulty and faces, evaluated by the dice language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.audience import GM
from domain.game import GameState

from . import difficulty as ladder
from .events import CheckDetail
from .rolls import Pool, patterns, roll
from .state import Character


def run(
    game: GameState,
    pool: Pool,
    base: str,
    modifiers: Sequence[ladder.Modifier],
    *,
    faces: list[int] | None,
    entropy: str,
    number: int,
    command: str = "NJ",
) -> CheckDetail:
    """`command` is the dice language's NJ (a check), AT (melee: サツバツ) or EV (evasion)."""
    final, _, clamped = ladder.apply(base, modifiers)
    record = roll(game, f"{command}{pool.size}[{final}]", faces, entropy, number)
    return CheckDetail(
        pool=pool,
        base_difficulty=ladder.normalise(base),
        modifiers=tuple(modifiers),
        difficulty=final,
        clamped=clamped,
        roll=record,
        patterns=tuple(patterns(record.result["faces"])),
    )


def successes(detail: CheckDetail) -> int:
    return int(detail.roll.result.get("successes") or 0)


def criticals(detail: CheckDetail) -> tuple[str, ...]:
    return tuple(detail.roll.result.get("criticals") or ())


def placed(character: Character, detail: Any) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The event fields for `detail` and the Draft audience that goes with them.

    The pool and faces of a character whose sheet is secret (an unrevealed NPC, or a private
    PC) would give its stats away: they go to those who may read the sheet.
    """
    if not character.revealed:
        return {"secret": detail}, tuple(dict.fromkeys((GM, character.owner)))
    return {"detail": detail}, ()
