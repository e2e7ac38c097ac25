"""A tiny ruleset for testing the audit of checked declarations: the GM deals each seat a
secret ESP value; a seat claims an ESP value, which may be lower than the truth, never higher.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.model.audience import seat_actor
from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.lifecycle_events import GameCreated
from domain.model.records import Draft, Recorded
from domain.model.ruleset import DeclarationCheck, Ruleset
from domain.model.secrecy import RulesView
from domain.model.table import Table, TableView
from domain.rulesets import register


class Sheet(BaseModel):
    model_config = ConfigDict(frozen=True)
    esp: int


class State(BaseModel):
    model_config = ConfigDict(frozen=True)
    esp: dict[int, int] = {}


class TestRuleset(Ruleset[State, State]):
    """Defined here, so the ruleset reads as the tests' own, not a built-in one."""


SHEET_TEST = TestRuleset(
    "sheet_test",
    "1",
    state=State,
    options=State,
    initial=lambda options, seats: State(),
    summary="A secret ESP value per seat, and claims checked against it.",
)


@SHEET_TEST.command("deal")
class Deal(Command):
    seat: int
    esp: int = Field(ge=1, le=9)


@SHEET_TEST.decides(Deal)
def deal(t: Table[State], command: Deal, actor: str) -> list[Draft]:
    event = SheetDealt(seat=command.seat, secret=Sheet(esp=command.esp))
    return [Draft(event, audience=(seat_actor(command.seat),))]


@SHEET_TEST.command("claim")
class Claim(Command):
    esp: int


@SHEET_TEST.decides(Claim)
def claim(t: Table[State], command: Claim, actor: str) -> list[Draft]:
    seat = t.seat_of(actor)
    if command.esp > t.rules.esp.get(seat, 0):
        raise RuleViolation("declaration_too_high", "You cannot declare more than you have.")
    return [Draft(Claimed(esp=command.esp))]


@SHEET_TEST.event
class SheetDealt(Event):
    seat: int
    secret: Sheet | None = None


@SHEET_TEST.folds(SheetDealt)
def _dealt(state: State, event: SheetDealt, seq: int) -> State:
    if event.secret is None:
        return state
    return State(esp={**state.esp, event.seat: event.secret.esp})


@SHEET_TEST.event
class Claimed(Event):
    esp: int


SHEET_TEST.ignores(Claimed)


class NoView(RulesView):
    pass


@SHEET_TEST.views
def view(t: TableView[State], audience: str) -> NoView:
    return NoView()


@SHEET_TEST.audits
def audit(
    history: Sequence[Recorded],
    start: Callable[[GameCreated], State],
    fold: Callable[[State, Recorded], State],
) -> list[DeclarationCheck]:
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


register(SHEET_TEST)
