"""改心 (4.3): how a conversion attempt changes its target, success or not."""

from __future__ import annotations

from domain.rulesets.chojin_locke.state import Player


def affects(target: Player, faction: str) -> bool:
    """The target is affected if the next step right of its alignment is the converter's faction
    and it holds no flag from that faction."""
    assert target.sheet is not None
    steps = target.sheet.steps
    following = steps[target.step + 1] if target.step + 1 < len(steps) else None
    return following == faction and faction not in target.flags


def apply(target: Player, faction: str, success: bool) -> Player:
    """The target after the attempt."""
    step, flags = target.step, list(target.flags)
    if success and affects(target, faction):
        step += 1
        flags = []  # flags are lost when the alignment changes
    if faction not in flags:
        flags.append(faction)  # gained whatever the check's outcome
    return target.model_copy(update={"step": step, "flags": flags})
