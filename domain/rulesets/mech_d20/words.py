"""What this ruleset's log lines share (the line of each event sits beside the event, in the
module that declares it): a roll as BCDice explained it."""

from __future__ import annotations

from domain.model.lifecycle_events import RollRecord


def roll_words(record: RollRecord | None) -> str:
    """A roll's explanation (its expression where there is none); "" for no roll."""
    if record is None:
        return ""
    return str(record.result.get("explanation") or record.expression)
