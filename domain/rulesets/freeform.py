"""`freeform`: any dice, any declaration, GM-named phases — the fallback for any game.

Everything but phases is the shared lifecycle; this ruleset adds `advance_phase`. It is also
the smallest complete ruleset on the kit (docs/how-to/write-a-ruleset.md).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.glimpse import Glimpse
from domain.model.logline import Names
from domain.model.messages import N_, Message
from domain.model.records import Draft
from domain.model.ruleset import Ruleset
from domain.model.secrecy import RulesView
from domain.model.table import Table, TableView


class FreeformOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FreeformState(BaseModel):
    model_config = ConfigDict(frozen=True)

    phase: str | None = None
    phase_number: int = 0


# Types predate the "<ruleset id>." prefix: "advance_phase", "PhaseAdvanced".
FREEFORM = Ruleset(
    "freeform",
    "1",
    state=FreeformState,
    options=FreeformOptions,
    initial=lambda options, seats: FreeformState(),
    summary="Any dice, any declaration, GM-named phases: the fallback for any game.",
    hosted=True,  # a board game without a referee may be played on it too
    prefix="",
)


@FREEFORM.command("advance_phase")
class AdvancePhase(Command):
    """GM: name the phase the table is now in."""

    phase: str = Field(min_length=1, max_length=80, examples=["Round 2: night"])


@FREEFORM.decides(AdvancePhase)
def advance_phase(t: Table[FreeformState], command: AdvancePhase, actor: str) -> list[Draft]:
    t.referee_only(actor, "advance the phase")
    if t.status != "started":
        # its own code (not game_not_started / game_ended): clients already match on it
        raise RuleViolation("game_not_running", "Phases advance only while the game runs.")
    return [Draft(PhaseAdvanced(phase=command.phase, number=t.rules.phase_number + 1))]


@FREEFORM.event_named("PhaseAdvanced")
class PhaseAdvanced(Event):
    phase: str
    number: int


@FREEFORM.folds(PhaseAdvanced)
def _advanced(state: FreeformState, event: PhaseAdvanced, seq: int) -> FreeformState:
    return FreeformState(phase=event.phase, phase_number=event.number)


class FreeformView(RulesView):
    phase: str | None
    phase_number: int


@FREEFORM.views
def view(t: TableView[FreeformState], audience: str) -> FreeformView:
    return FreeformView(phase=t.rules.phase, phase_number=t.rules.phase_number)


@FREEFORM.glances
def at_a_glance(rules: Glimpse, names: Names, audience: str) -> list[object]:
    """The phase the GM named last, if any (the terminal replay's frame)."""
    phase = rules.text("phase")
    return [Message(N_("フェイズ: {phase}"), {"phase": phase})] if phase else []


FREEFORM.complete()
