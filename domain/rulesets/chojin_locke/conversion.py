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


def apply(target: Player, faction: str, success: bool) -> None:
    if success and affects(target, faction):
        target.step += 1
        target.flags = []  # flags are lost when the alignment changes
    if faction not in target.flags:
        target.flags.append(faction)  # gained whatever the check's outcome
