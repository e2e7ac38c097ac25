"""The application service: create and join games, execute commands, import archives.

It says what each command decides (through the lifecycle and the game's ruleset) and hands it
to the process's writer (domain/application/writer.py), which decides, seals, checks, appends and
announces: a conflict — another process appended first — is decided again there, so no
command is lost, duplicated or reordered, whichever process it reached. A command sent with
an Idempotency-Key is answered once, durably: its answer is stored with its events.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any
from uuid import uuid4

from domain import lifecycle
from domain.adapters.repository import Answer, AppendConflict, GameRepository
from domain.adapters.store import EventLog
from domain.application.writer import GroupWriter, Job, Listener, Outcome, Then
from domain.audience import GM, seat_actor
from domain.authentication import hash_token
from domain.canonical import canonical_request, sha256_hex
from domain.commands import Command
from domain.errors import KirokuError, Unauthorized
from domain.fairness import new_server_seed
from domain.game import GameState
from domain.lifecycle_events import GameCreated, GameOptions, SeatJoined
from domain.records import CommandKey, Draft, Recorded, ServerData
from domain.text import FORBIDDEN_CHARACTER, forbidden_character, problem_text
from domain.verification import Unreadable, VerificationReport, verify

log = logging.getLogger(__name__)
__all__ = ["Outcome"]  # the writer's, answered by the service


@dataclass(frozen=True)
class NewGame:
    ruleset: str
    title: str
    seat_names: list[str]
    options: GameOptions
    ruleset_options: dict[str, Any]
    referee: str | None = None  # "gm" or "host"; None: the ruleset's default
    host_seat: int | None = None  # the seat a host also sits at


@dataclass(frozen=True)
class SeatInvite:
    seat: int
    name: str
    invite: str


@dataclass(frozen=True)
class CreatedGame:
    game_id: str
    token: str  # the creator's: the GM's, or the host's
    actor: str  # gm, host, or the seat:N the host sits at
    host: bool  # a game without a referee
    seats: list[SeatInvite]  # every seat but the one a host sits at (it needs no invite)


class GameService:
    """Made by the bootstrap (domain/application/bootstrap.py) over its repository and
    writer."""

    def __init__(self, games: GameRepository, writer: GroupWriter) -> None:
        self.games = games
        self.writer = writer
        self.listeners: list[Listener] = writer.listeners

    @property
    def env(self) -> dict[str, str]:
        return self.games.env

    @property
    def log(self) -> EventLog:
        return self.games.log

    def close(self) -> None:
        self.writer.close()
        self.games.close()

    # ------------------------------------------------------------------------- commands

    def create_game(self, new: NewGame) -> CreatedGame:
        canonical_request([new.title, new.seat_names, new.ruleset_options])
        for name in (new.title, *new.seat_names):  # the API's models check these too; the CLI
            found = forbidden_character(name, one_line=True)
            if found is not None:
                raise KirokuError(FORBIDDEN_CHARACTER, problem_text("A title or name", *found))
        game_id = str(uuid4())
        token = secrets.token_urlsafe(32)
        invites = {
            seat: secrets.token_urlsafe(16)
            for seat in range(1, len(new.seat_names) + 1)
            if seat != new.host_seat
        }
        draft = lifecycle.create(
            ruleset=new.ruleset,
            title=new.title,
            seat_names=new.seat_names,
            options=new.options,
            ruleset_options=new.ruleset_options,
            server_seed=new_server_seed(),
            token_hash=hash_token(token),
            invite_hashes=[hash_token(i) for i in invites.values()],
            referee=new.referee,
            host_seat=new.host_seat,
        )
        assert isinstance(draft.event, GameCreated)
        host = draft.event.host
        self.writer.run(Job(game_id, [draft], lambda _d: host or GM))
        seats = [
            SeatInvite(seat=s, name=new.seat_names[s - 1], invite=i) for s, i in invites.items()
        ]
        return CreatedGame(
            game_id=game_id, token=token, actor=host or GM, host=host is not None, seats=seats
        )

    def join(self, game_id: str, invite: str, client_seed: str | None) -> tuple[int, str]:
        canonical_request([invite, client_seed])
        token = secrets.token_urlsafe(32)

        def decide(state: GameState) -> list[Draft]:
            return [lifecycle.join(state, hash_token(invite), hash_token(token), client_seed)]

        def actor_of(draft: Draft) -> str:
            assert isinstance(draft.event, SeatJoined)
            return seat_actor(draft.event.seat)

        outcome = self.writer.run(Job(game_id, decide, actor_of))
        joined = outcome.records[0].event
        assert isinstance(joined, SeatJoined)
        seat = joined.seat
        return seat, token

    def issue_invite(self, game_id: str, actor: str, seat: int) -> str:
        """A new single-use invite for a seat, asked for by `actor` (lifecycle.issue_invite
        says who may)."""
        invite = secrets.token_urlsafe(16)
        self.writer.run(
            Job(
                game_id,
                lambda state: [lifecycle.issue_invite(state, actor, seat, hash_token(invite))],
                lambda _d: actor,
            )
        )
        return invite

    def open_session(self, game_id: str, actor: str) -> str:
        """A browser session id for an authenticated actor; only its hash is stored."""
        session = secrets.token_urlsafe(32)
        self.writer.run(
            Job(
                game_id,
                lambda state: [lifecycle.open_session(state, actor, hash_token(session))],
                lambda _d: actor,
            )
        )
        return session

    def execute(
        self, game_id: str, actor: str, command: Command, idempotency_key: str | None = None
    ) -> Outcome:
        """Decide and append `command` (through the process's writer) and wait for it."""
        return self.writer.run(self._command_job(game_id, actor, command, idempotency_key))

    def submit(
        self, game_id: str, actor: str, command: Command, idempotency_key: str | None = None
    ) -> Future[Outcome]:
        """As `execute`, without waiting: the outcome (or refusal) arrives in the future."""
        return self.writer.submit(self._command_job(game_id, actor, command, idempotency_key))

    def send(
        self,
        game_id: str,
        actor: str,
        command: Command,
        idempotency_key: str | None,
        then: Then,
        *,
        session: str | None = None,
    ) -> None:
        """As `submit`, for an event loop: `then(outcome, refusal)` is called on the writer's
        thread once the command is stored or refused (the caller hands it to its loop).
        `session`: the hash of the browser session the caller was known by, checked again on
        the state the command is decided on (a revocation a moment ago counts)."""
        job = self._command_job(game_id, actor, command, idempotency_key, session)
        job.then = then
        self.writer.send(job)

    def _command_job(
        self,
        game_id: str,
        actor: str,
        command: Command,
        idempotency_key: str | None,
        session: str | None = None,
    ) -> Job:
        # Python mode, so NaN and infinities reach the check instead of becoming null.
        canonical = canonical_request(command.model_dump())

        def decided(state: GameState) -> list[Draft]:
            if session is not None and state.sessions.get(session) != actor:
                raise Unauthorized(
                    "bad_session",
                    "This browser is not signed in to this game: open your invite link.",
                )
            return lifecycle.decide(state, command, actor)

        if idempotency_key is None:
            return Job(game_id, decided, lambda _d: actor)
        request = sha256_hex(canonical)
        answer = Answer(key=sha256_hex(f"{actor}\n{idempotency_key}"), request=request)

        def decide(state: GameState) -> list[Draft]:
            drafts = decided(state)
            if drafts:
                first = drafts[0]
                server = first.server or ServerData()
                key = CommandKey(key=answer.key, request=request, count=len(drafts))
                drafts[0] = Draft(
                    first.event, first.audience, server.model_copy(update={"command": key})
                )
            return drafts

        return Job(game_id, decide, lambda _d: actor, answer)

    def import_game(self, records: list[Recorded]) -> GameState:
        """Store a finished game's records under its own id (for archives); refuses an id
        that exists. The records are folded first, so a game that does not fold is refused."""
        if not records:
            raise KirokuError("empty_game", "There is nothing to import.")
        game_id = records[0].envelope.game_id
        if self.games.exists(game_id):
            raise KirokuError(
                "game_exists", "A game with this id is already here.", kind="conflict"
            )
        try:
            state = self.games.add(None, records)
        except AppendConflict:  # imported meanwhile by another caller
            raise KirokuError(
                "game_exists", "A game with this id is already here.", kind="conflict"
            ) from None
        self.writer.announce(state, records)
        return state

    # ------------------------------------------------------------------------- reads

    def state(self, game_id: str) -> GameState:
        """The current full state: cached, fast-forwarded by any events other workers added."""
        return self.games.get(game_id)

    def records(self, game_id: str, after: int = 0, upto: int | None = None) -> Iterator[Recorded]:
        return self.games.records(game_id, after, upto)

    def verify(self, game_id: str, witness: tuple[int, str] | None = None) -> VerificationReport:
        """The game's verification; with `witness` (seq, hash), also whether that head is still
        in the chain."""
        return verify(game_id, self.envelopes(game_id), witness)

    def envelopes(self, game_id: str) -> list[dict[str, Any] | Unreadable]:
        """The envelopes exactly as stored, for verification; an unreadable one as (seq, why)."""
        return self.games.envelopes(game_id)
