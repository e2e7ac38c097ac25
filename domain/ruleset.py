"""The ruleset interface: each ruleset is a decider plugged into the shared lifecycle.

The lifecycle (domain/lifecycle.py) handles what every game has — seats, rolls, notes, rulings,
reveals, the end — and hands the ruleset its own commands and every event, so the ruleset only
writes what its rules define.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from domain.commands import Command
from domain.errors import KirokuError
from domain.game import GameState
from domain.records import Draft, Recorded

RulesState = TypeVar("RulesState", bound=BaseModel)


class DeclarationCheck(BaseModel):
    """One rule-checked declaration set beside the truth that was sealed when it was made."""

    seq: int
    actor: str
    what: str  # e.g. "teleport distance (ESP)"
    declared: Any
    truth: Any
    verdict: Literal["legal", "understated", "overstated", "unknown"]
    note: str = ""  # e.g. "let through by manual faces" or "amended at seq 41"


class Ruleset(ABC, Generic[RulesState]):
    id: ClassVar[str]
    version: ClassVar[str]
    State: ClassVar[type[BaseModel]]
    Options: ClassVar[type[BaseModel]]
    commands: ClassVar[tuple[type[Command], ...]] = ()

    def options(self, raw: dict[str, Any]) -> BaseModel:
        try:
            return self.Options.model_validate(raw)
        except ValidationError as error:
            raise KirokuError(
                "invalid_ruleset_options", f"Options for {self.id} are not valid: {error}"
            ) from None

    @abstractmethod
    def initial(self, options: BaseModel, seats: int) -> RulesState:
        """The ruleset's state right after GameCreated."""

    @abstractmethod
    def decide(self, game: GameState, command: Command, actor: str) -> list[Draft]:
        """Events for one of this ruleset's own commands, or raise RuleViolation."""

    @abstractmethod
    def evolve(self, state: RulesState, recorded: Recorded) -> RulesState:
        """Fold any event (lifecycle ones included) into the ruleset's state."""

    @abstractmethod
    def view(self, game: GameState, audience: str) -> dict[str, Any]:
        """The ruleset's part of the game as `audience` may see it."""

    def describe(
        self, type_name: str, public: dict[str, Any], secret: dict[str, Any] | None
    ) -> tuple[str, str] | None:
        """How the table would say one of this ruleset's events: (kind, text) for the log
        line (see domain/logline.py), from what the reader may see; None for the default."""
        return None

    def check_seats(self, seats: int) -> None:
        """Refuse (KirokuError) a seat count this game cannot be played with, at creation."""

    def restore(self, data: Any) -> RulesState:
        return self.State.model_validate(data)  # type: ignore[return-value]

    def audit_declarations(self, history: Sequence[Recorded]) -> list[DeclarationCheck]:
        """After the end, with every secret revealed (each Recorded carries its body): every
        declaration this ruleset checks, beside the truth. Rulesets without any return []."""
        return []
