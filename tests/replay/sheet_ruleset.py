"""A tiny ruleset for testing the audit of checked declarations: the GM deals each seat a
secret ESP value; a seat claims an ESP value, which may be lower than the truth, never higher.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.game import GameState
from domain.records import Draft, Recorded
from domain.ruleset import DeclarationCheck, Ruleset
from domain.rulesets import register


class Deal(Command):
    type: Literal["sheet_test.deal"] = "sheet_test.deal"
    seat: int
    esp: int = Field(ge=1, le=9)


class Claim(Command):
    type: Literal["sheet_test.claim"] = "sheet_test.claim"
    esp: int


class Sheet(BaseModel):
    model_config = ConfigDict(frozen=True)
    esp: int


class SheetDealt(Event):
    type = "sheet_test.SheetDealt"
    seat: int
    secret: Sheet | None = None


class Claimed(Event):
    type = "sheet_test.Claimed"
    esp: int


class State(BaseModel):
    model_config = ConfigDict(frozen=True)
    esp: dict[int, int] = {}


class SheetRuleset(Ruleset[State]):
    id = "sheet_test"
    version = "1"
    State = State
    Options = State
    commands = (Deal, Claim)

    def initial(self, options: BaseModel, seats: int) -> State:
        return State()

    def decide(self, game: GameState, command: Command, actor: str) -> list[Draft]:
        if isinstance(command, Deal):
            return [
                Draft(
                    SheetDealt(seat=command.seat, secret=Sheet(esp=command.esp)),
                    audience=(f"seat:{command.seat}",),
                )
            ]
        assert isinstance(command, Claim)
        seat = int(actor.split(":")[1])
        if command.esp > game.rules.esp.get(seat, 0):
            raise RuleViolation("declaration_too_high", "You cannot declare more than you have.")
        return [Draft(Claimed(esp=command.esp))]

    def evolve(self, state: State, recorded: Recorded) -> State:
        event = recorded.event
        if isinstance(event, SheetDealt) and event.secret is not None:
            return State(esp={**state.esp, event.seat: event.secret.esp})
        return state

    def view(self, game: GameState, audience: str) -> dict[str, Any]:
        return {}

    def audit_declarations(self, history: Sequence[Recorded]) -> list[DeclarationCheck]:
        truth: dict[str, int] = {}
        checks = []
        for recorded in history:
            event = recorded.event
            if isinstance(event, SheetDealt) and event.secret is not None:
                truth[f"seat:{event.seat}"] = event.secret.esp
            elif isinstance(event, Claimed):
                actual = truth.get(recorded.envelope.actor)
                verdict: Literal["legal", "understated", "overstated", "unknown"] = (
                    "unknown"
                    if actual is None
                    else "overstated"
                    if event.esp > actual
                    else "understated"
                    if event.esp < actual
                    else "legal"
                )
                checks.append(
                    DeclarationCheck(
                        seq=recorded.seq,
                        actor=recorded.envelope.actor,
                        what="ESP",
                        declared=event.esp,
                        truth=actual,
                        verdict=verdict,
                    )
                )
        return checks


register(SheetRuleset())
