"""The action economy of a turn (L12–15, L46–48, L138–158, L85, L383–394, L427).

A turn has a standard, a move and a minor action, in any order (L12, L47); a heavier one may be
taken as a lighter one, never the reverse (L13–15, L141). Free actions are unlimited, but one
free-action attack per turn (L158). 突撃 ends the turn (L85). 幻惑 and 支配 allow one of the
three (L383, L389), 朦朧 and 無防備 none (L385, L394); a hero point buys one more action of any
kind on one's own turn (L427), even while 朦朧 (L386).
"""

from __future__ import annotations

from typing import Literal

from domain.model.errors import RuleViolation

from .state import Turn

ActionKind = Literal["標準", "移動", "マイナー"]
FIELDS: dict[str, str] = {"標準": "standard", "移動": "move", "マイナー": "minor"}
# What may be spent for each kind, lightest first: standard → move or minor, move → minor.
SPENDABLE: dict[str, tuple[str, ...]] = {
    "標準": ("standard",),
    "移動": ("move", "standard"),
    "マイナー": ("minor", "move", "standard"),
}
NAMES = {"standard": "標準アクション", "move": "移動アクション", "minor": "マイナー・アクション"}


def spend(turn: Turn, kind: ActionKind, limit: int | None, name: str) -> tuple[Turn, str]:
    """The turn after taking one action of `kind`, and which slot paid for it."""
    if turn.charged:
        raise RuleViolation(
            "turn_over_after_charge",
            "{name} charged: its turn is over (突撃, L85).",
            params={"name": name},
        )
    if limit is not None and turn.taken >= limit + turn.extra:
        raise RuleViolation(
            "no_actions_left",
            "{name} may take only {limit} action(s) this turn (幻惑・支配: one; 朦朧・無防備: "
            "none; a hero "
            "point adds one).",
            params={"name": name, "limit": limit + turn.extra},
        )
    for slot in SPENDABLE[kind]:
        if getattr(turn, slot) > 0:
            update = {slot: getattr(turn, slot) - 1, "taken": turn.taken + 1}
            return turn.model_copy(update=update), slot
    raise RuleViolation(
        "no_action_of_that_kind",
        "{name} has no {names} left, nor a heavier one to take it with.",
        params={"name": name, "names": NAMES[FIELDS[kind]]},
    )


def left(turn: Turn, limit: int | None) -> dict[str, int]:
    """What the turn holder can still do, for views (slots, capped by the action limit)."""
    slots = {"standard": turn.standard, "move": turn.move, "minor": turn.minor}
    if turn.charged:
        return dict.fromkeys(slots, 0)
    if limit is not None:
        remaining = max(0, limit + turn.extra - turn.taken)
        return {k: min(v, remaining) for k, v in slots.items()}
    return slots


def hero_action(turn: Turn) -> Turn:
    """L427: one more action of any kind (a standard one may be taken as any lighter one)."""
    return turn.model_copy(update={"standard": turn.standard + 1, "extra": turn.extra + 1})
