"""セーヴィング・スロー (L303–329): 1d20, 10 or more ends the effect.

At the end of its turn a unit rolls once per (セーヴ・終了) effect on it (L310–311); one save ends
a whole rider (「両方とも終了」, L312–313); identical riders never stack, so they need one save
(L314–318), different ones need their own (L319–321). 後効果 starts on a success (L323);
セーヴ失敗・X回目 on the X-th failure (L325); extra saves never count as failures (L327–329).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from .effects import Effect
from .state import Applied, Unit

SAVE_TARGET = 10  # L306: 10以上が出れば成功、9以下ならば失敗


def succeeds(natural: int) -> bool:
    return natural >= SAVE_TARGET


def saving(unit: Unit) -> tuple[Applied, ...]:
    """The effects the unit saves against at the end of its turn, one roll each, by id."""
    return tuple(
        a for a in sorted(unit.effects, key=lambda a: a.id) if a.ending.kind == "save_ends"
    )


class SaveOutcome(BaseModel):
    """One save: whether it ended the effect, and what starts because of it."""

    model_config = ConfigDict(frozen=True)

    effect: int
    natural: int
    success: bool
    failed: int  # failures so far, this one included
    ends: bool
    starts: tuple[Effect, ...] = ()


def outcome(applied: Applied, natural: int, *, extra: bool = False) -> SaveOutcome:
    if succeeds(natural):
        after = applied.effect.aftereffect
        return SaveOutcome(
            effect=applied.id,
            natural=natural,
            success=True,
            failed=applied.failed,
            ends=True,
            starts=(after,) if after is not None else (),
        )
    if extra:  # L329: an extra save's failure is not a セーヴ失敗
        return SaveOutcome(
            effect=applied.id, natural=natural, success=False, failed=applied.failed, ends=False
        )
    failed = applied.failed + 1
    reached = [f for f in applied.effect.failed_saves if f.count == failed]
    return SaveOutcome(
        effect=applied.id,
        natural=natural,
        success=False,
        failed=failed,
        ends=any(f.replaces for f in reached),
        starts=tuple(f.effect for f in reached),
    )
