"""One rolled check: pool, modified difficulty and faces, evaluated by the dice language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from domain.model.audience import GM
from domain.model.table import Dice, outcome

from . import difficulty as ladder
from .details import CheckDetail
from .rolls import Pool, patterns
from .state import Character


def run(
    dice: Dice,
    pool: Pool,
    base: str,
    modifiers: Sequence[ladder.Modifier],
    *,
    faces: list[int] | None,
    entropy: str,
    command: str = "NJ",
) -> CheckDetail:
    """`command` is the dice language's NJ (a check), AT (melee: サツバツ) or EV (evasion)."""
    final, _, clamped = ladder.apply(base, modifiers)
    rolled = dice.roll(f"{command}{pool.size}[{final}]", faces, entropy)
    return CheckDetail(
        pool=pool,
        base_difficulty=ladder.normalise(base),
        modifiers=tuple(modifiers),
        difficulty=final,
        clamped=clamped,
        roll=rolled.record,
        patterns=tuple(patterns(rolled.faces)),
    )


def again(
    dice: Dice, before: CheckDetail, *, faces: list[int] | None, entropy: str, command: str = "NJ"
) -> CheckDetail:
    """ニンジャ第六感: the same pool, base difficulty and modifiers, rolled again (即応ダイス
    were paid for with the first roll)."""
    return run(
        dice,
        before.pool,
        before.base_difficulty,
        before.modifiers,
        faces=faces,
        entropy=entropy,
        command=command,
    )


def successes(detail: CheckDetail) -> int:
    return outcome(detail.roll).successes or 0


def faces(detail: CheckDetail) -> tuple[int, ...]:
    return outcome(detail.roll).faces


def criticals(detail: CheckDetail) -> tuple[str, ...]:
    return outcome(detail.roll).criticals


Detail = TypeVar("Detail")


def placed(
    character: Character, detail: Detail
) -> tuple[Detail | None, Detail | None, tuple[str, ...]]:
    """Where `detail` goes in its event — (`detail` in the open, `secret`) — and the Draft
    audience that goes with it.

    The pool and faces of a character whose sheet is secret (an unrevealed NPC, or a private
    PC) would give its stats away: they go to those who may read the sheet.
    """
    if not character.revealed:
        return None, detail, tuple(dict.fromkeys((GM, character.owner)))
    return detail, None, ()
