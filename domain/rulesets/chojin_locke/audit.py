"""The replay audit: every declaration beside the truth the server held when it was made."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.lifecycle_events import Amended, GameCreated
from domain.records import Recorded
from domain.ruleset import DeclarationCheck
from domain.rulesets.chojin_locke.declarations import STAT_NAMES
from domain.rulesets.chojin_locke.party_events import PartyTeleportDeclared
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.stats import current
from domain.rulesets.chojin_locke.turn_events import Checked

Fold = Callable[[ChojinState, Recorded], ChojinState]
Start = Callable[[GameCreated], ChojinState]


@CHOJIN_LOCKE.audits
def audit(history: Sequence[Recorded], start: Start, fold: Fold) -> list[DeclarationCheck]:
    if not history or not isinstance(history[0].event, GameCreated):
        return []
    amended = {r.event.concerning_seq: r.seq for r in history if isinstance(r.event, Amended)}
    state = start(history[0].event)
    checks: list[DeclarationCheck] = []
    for recorded in history:
        event = recorded.event
        notes = [f"amended at seq {amended[recorded.seq]}"] if recorded.seq in amended else []
        if isinstance(event, PartyTeleportDeclared):
            what = f"party teleport: {STAT_NAMES['esp_level']}"
            truth = _truth(state, event.seat, "esp_level")
            checks.append(_check(recorded, what, event.declared, truth, notes))
        elif isinstance(event, Checked):
            if event.roll is not None and event.roll.manual:
                notes.append("manual faces")
            what = f"{event.purpose}: {STAT_NAMES[event.stat]}"
            truth = _truth(state, event.seat, event.stat)
            checks.append(_check(recorded, what, event.declared, truth, notes))
        state = fold(state, recorded)
    return checks


def _truth(state: ChojinState, seat: int, stat: str) -> int | None:
    player = state.players.get(seat)
    if player is None or player.sheet is None:
        return None
    return current(player, stat)


def _check(
    recorded: Recorded, what: str, declared: int, truth: int | None, notes: list[str]
) -> DeclarationCheck:
    if truth is None:
        verdict = "unknown"
    elif declared == truth:
        verdict = "legal"
    else:
        verdict = "understated" if declared < truth else "overstated"
    return DeclarationCheck(
        seq=recorded.seq,
        actor=recorded.envelope.actor,
        what=what,
        declared=declared,
        truth=truth,
        verdict=verdict,  # type: ignore[arg-type]
        note="; ".join(notes),
    )
