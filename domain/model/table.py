"""What a ruleset's rules see of a game: the table, not the server's books.

Deciders get a `Table` and views a `TableView`: status, seats, options, the ruleset's own
typed state, the next seq, dice that number their own draws, and the refusals every game
shares (one code each). Never the server seed, credentials, idempotency records or any sealed
body: the dice reach the seed through functions the lifecycle hands in, and the reveals that
end a game are added by the lifecycle after the ruleset has decided.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from domain.dice import RollResult
from domain.model.audience import GM, seat_number
from domain.model.draws import DiceDraw, ShuffleDraw
from domain.model.errors import Forbidden, KirokuError, RuleViolation
from domain.model.game import SeatState, Status
from domain.model.lifecycle_events import GameEnded, GameOptions, RollRecord
from domain.model.messages import Term
from domain.model.records import Draft

S = TypeVar("S")

# (expression, manual faces or None, entropy, draw number) → the roll as recorded
Roller = Callable[[str, Sequence[int] | None, str, int], RollRecord]
Drawer = Callable[[Sequence[tuple[int, int]], int, str], DiceDraw]  # requests, number, entropy
Shuffler = Callable[[int, int, str], ShuffleDraw]  # items, number, entropy


@dataclass(frozen=True, slots=True)
class Rolled:
    """A roll: the record an event carries, and its result as a typed model."""

    record: RollRecord
    result: RollResult

    @property
    def success(self) -> bool:
        return bool(self.result.success)

    @property
    def successes(self) -> int:
        return self.result.successes or 0

    @property
    def total(self) -> int:
        return self.result.total or 0

    @property
    def faces(self) -> tuple[int, ...]:
        return self.result.faces


def outcome(record: RollRecord) -> RollResult:
    """The typed result of a roll read back from an event (its JSON form)."""
    return RollResult.model_validate(record.result)


class Dice:
    """The game's committed randomness for one command: each server draw takes the next number
    (manual faces take none), so a decider never counts draws (boardgame.io's ctx.random)."""

    def __init__(self, roller: Roller, drawer: Drawer, shuffler: Shuffler, first: int) -> None:
        self._roller = roller
        self._drawer = drawer
        self._shuffler = shuffler
        self._next = first

    def _take(self) -> int:
        number = self._next
        self._next += 1
        return number

    def roll(
        self, expression: str, faces: Sequence[int] | None = None, entropy: str = ""
    ) -> Rolled:
        """A dice-language roll: a fair draw, or physical `faces` where the dice policy allows."""
        record = self._roller(expression, faces, entropy, self._next)
        if faces is None:
            self._take()
        return Rolled(record=record, result=outcome(record))

    def draw(self, requests: Sequence[tuple[int, int]], entropy: str = "") -> DiceDraw:
        """Faces for (count, sides) requests, always from the server (setup draws)."""
        return self._drawer(requests, self._take(), entropy)

    def shuffle(self, items: int, entropy: str = "") -> ShuffleDraw:
        """A verifiable permutation of `items` (position i holds original item order[i])."""
        return self._shuffler(items, self._take(), entropy)


def acting_seat(actor: str) -> int:
    """The acting seat's number; the referee is refused (seat_only)."""
    number = seat_number(actor)
    if number is None:
        raise Forbidden("seat_only", "Only a player (a seat) can do this.")
    return number


def _no_dice() -> Dice:
    def refuse(*_: object) -> RollRecord:
        raise AssertionError("a view does not roll")

    return Dice(refuse, refuse, refuse, 0)  # type: ignore[arg-type]


@dataclass(frozen=True)
class TableView(Generic[S]):
    """The game as its rules read it: what a view may look at."""

    status: Status
    seats: tuple[SeatState, ...]
    options: GameOptions
    rules: S
    referee: str = "GM"  # how refusals name the one who may do referee things ("host")
    referee_actor: str = GM  # who that is: gm, or the host's actor ("host" or "seat:N")

    @property
    def ended(self) -> bool:
        return self.status == "ended"

    def seat(self, number: int) -> SeatState | None:
        return self.seats[number - 1] if 1 <= number <= len(self.seats) else None


@dataclass(frozen=True)
class Table(TableView[S]):
    """A decider's view of the table: the view's, plus dice, the next seq and the shared
    refusals."""

    next_seq: int = 1  # the seq the first event of this command will have
    dice: Dice = field(default_factory=_no_dice)

    # -------------------------------------------------------------- the shared refusals

    def started(self) -> S:
        """The rules' state, while the game is running."""
        if self.status == "setup":
            raise RuleViolation("game_not_started", "The game has not started yet.")
        return self.not_ended()

    def not_ended(self) -> S:
        if self.status == "ended":
            raise RuleViolation("game_ended", "The game has ended.")
        return self.rules

    def referee_only(self, actor: str, what: str) -> None:
        """The GM (gm_only), or in a game without a referee its host (host_only)."""
        if actor != self.referee_actor:
            code = "gm_only" if self.referee_actor == GM else "host_only"
            raise Forbidden(
                code,
                "Only the {referee} can {what}.",
                params={"referee": Term(self.referee), "what": Term(what)},
            )

    def seat_of(self, actor: str) -> int:
        """The acting seat's number; the referee is refused."""
        return acting_seat(actor)

    def known_seat(self, audience: str) -> None:
        number = seat_number(audience)
        if number is not None and self.seat(number) is None:
            raise KirokuError(
                "unknown_seat", "There is no seat {seat} in this game.", params={"seat": number}
            )

    # -------------------------------------------------------------- the end

    def end(self, summary: str) -> list[Draft]:
        """The lifecycle's end. The lifecycle adds every secret's reveal after it, as its own
        `end` does: a ruleset never holds a sealed body."""
        return [Draft(GameEnded(summary=summary))]
