"""`freeform`: any dice, any declaration, GM-named phases — the fallback for any game.

Everything but phases is the shared lifecycle; this ruleset adds `advance_phase`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.audience import GM
from domain.commands import Command
from domain.errors import Forbidden, RuleViolation
from domain.events import Event
from domain.game import GameState
from domain.records import Draft, Recorded
from domain.ruleset import Ruleset


class AdvancePhase(Command):
    """GM: name the phase the table is now in."""

    type: Literal["advance_phase"] = "advance_phase"
    phase: str = Field(min_length=1, max_length=80, examples=["Round 2: night"])


class PhaseAdvanced(Event):
    type = "PhaseAdvanced"
    phase: str
    number: int


class FreeformOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FreeformState(BaseModel):
    model_config = ConfigDict(frozen=True)

    phase: str | None = None
    phase_number: int = 0


class Freeform(Ruleset[FreeformState]):
    id = "freeform"
    version = "1"
    State = FreeformState
    Options = FreeformOptions
    commands = (AdvancePhase,)

    def initial(self, options: BaseModel, seats: int) -> FreeformState:
        return FreeformState()

    def decide(self, game: GameState, command: Command, actor: str) -> list[Draft]:
        assert isinstance(command, AdvancePhase)
        if actor != GM:
            raise Forbidden("gm_only", "Only the GM can advance the phase.")
        if game.status != "started":
            raise RuleViolation("game_not_running", "Phases advance only while the game runs.")
        number = game.rules.phase_number + 1
        return [Draft(PhaseAdvanced(phase=command.phase, number=number))]

    def evolve(self, state: FreeformState, recorded: Recorded) -> FreeformState:
        event = recorded.event
        if isinstance(event, PhaseAdvanced):
            return FreeformState(phase=event.phase, phase_number=event.number)
        return state

    def view(self, game: GameState, audience: str) -> dict[str, Any]:
        rules: FreeformState = game.rules
        return {"phase": rules.phase, "phase_number": rules.phase_number}


FREEFORM = Freeform()
