"""The state of one game as the server knows it (secrets included), folded from its events."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from domain.model.audience import GM, HOST, PUBLIC, seat_actor
from domain.model.lifecycle_events import GameOptions
from domain.model.messages import N_
from domain.model.seqmap import SeqMap

Status = Literal["setup", "started", "ended"]
# Names GameState's shape and the lifecycle's folds: bump it when either changes, so stored
# states (snapshots, projection states) folded by older code are dropped and folded again.
# tests/contract/test_state_versions.py fails when the schema changes and this stays.
GAME_STATE_VERSION = "4"  # 4: the creator's recovery code (its hash)
# ココフォリア's main / info / other: Kiroku's words (terms, read in the reader's language), where
# a tab a player opens is named as typed
DEFAULT_TABS = (N_("メイン"), N_("情報"), N_("雑談"))


class SeatState(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    name: str
    joined: bool = False
    client_seed: str | None = None

    @property
    def actor(self) -> str:
        return seat_actor(self.seat)


class SecretRecord(BaseModel):
    """An unrevealed sealed body, kept so a reveal (or the end) can publish it."""

    model_config = ConfigDict(frozen=True)

    audience: tuple[str, ...]
    author: str
    salt: str
    body: dict[str, Any]


class GameState(BaseModel):
    model_config = ConfigDict(frozen=True)

    game_id: str
    version: int
    head: str
    status: Status = "setup"
    ruleset: str
    title: str
    options: GameOptions
    seats: tuple[SeatState, ...]
    server_seed: str
    server_seed_hash: str
    draws: int = 0
    unrevealed: SeqMap[SecretRecord] = SeqMap()
    credentials: dict[str, str] = {}  # token hash → actor
    invites: dict[str, int] = {}  # invite hash → seat
    sessions: dict[str, str] = {}  # browser session id hash → actor
    recovery: str | None = None  # the creator's recovery code's hash (single use)
    tabs: tuple[str, ...] = DEFAULT_TABS
    # A game without a referee: its host's actor ("host", or "seat:N" when the host also sits
    # at seat N); None in a GM-run game.
    host: str | None = None
    # The BCDice game system of its chat rolls and the BCDice version it keeps (None: the
    # engine's own, for games created before BCDice answered).
    system: str = "DiceBot"
    bcdice: str | None = None
    rules: Any = None  # the ruleset's own state model

    def seat(self, number: int) -> SeatState | None:
        return self.seats[number - 1] if 1 <= number <= len(self.seats) else None

    def client_seeds(self) -> tuple[str, ...]:
        return tuple(s.client_seed for s in self.seats if s.client_seed)

    @property
    def referee(self) -> str:
        """Who may do the referee's things (start, end, rulings): the GM, or the host."""
        return self.host or GM

    def referee_name(self) -> str:
        """How refusals name the referee: "GM", or "host" in a game without one."""
        return N_("GM") if self.host is None else N_("host")

    def audiences(self) -> tuple[str, ...]:
        """Every audience with a view of its own: the public, the GM (a host that does not
        sit instead), and the seats."""
        chair = HOST if self.host == HOST else GM
        return (PUBLIC, chair, *(s.actor for s in self.seats))
