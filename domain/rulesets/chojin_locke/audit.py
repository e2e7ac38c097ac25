"""The replay audit: every declaration beside the truth the server held when it was made."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.lifecycle_events import Amended, GameCreated
from domain.records import Recorded
from domain.ruleset import DeclarationCheck
from domain.rulesets.chojin_locke.declarations import STAT_NAMES
from domain.rulesets.chojin_locke.events import Checked
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.stats import current

Fold = Callable[[ChojinState, Recorded], ChojinState]
Start = Callable[[GameCreated], ChojinState]


def audit(history: Sequence[Recorded], start: Start, fold: Fold) -> list[DeclarationCheck]:
    if not history or not isinstance(history[0].event, GameCreated):
        return []
    amended = {r.event.concerning_seq: r.seq for r in history if isinstance(r.event, Amended)}
    state = start(history[0].event)
    checks: list[DeclarationCheck] = []
    for recorded in history:
        event = recorded.event
        if isinstance(event, Checked):
            player = state.players.get(event.seat)
            if player is None or player.sheet is None:
                truth, verdict = None, "unknown"
            else:
                truth = current(player, event.stat)
                verdict = (
                    "legal"
                    if event.declared == truth
                    else "understated"
                    if event.declared < truth
                    else "overstated"
                )
            notes = []
            if event.roll is not None and event.roll.manual:
                notes.append("manual faces")
            if recorded.seq in amended:
                notes.append(f"amended at seq {amended[recorded.seq]}")
            checks.append(
                DeclarationCheck(
                    seq=recorded.seq,
                    actor=recorded.envelope.actor,
                    what=f"{event.purpose}: {STAT_NAMES[event.stat]}",
                    declared=event.declared,
                    truth=truth,
                    verdict=verdict,  # type: ignore[arg-type]
                    note="; ".join(notes),
                )
            )
        state = fold(state, recorded)
    return checks
