"""The application service: create and join games, execute commands, import archives.

It says what each command decides (through the lifecycle and the game's ruleset) and hands it
to the process's writer (domain/application/writer.py), which owns the write protocol. A
command sent with an Idempotency-Key is answered once, durably: its answer is stored with its
events.
"""

from __future__ import annotations

import base64
import hmac
import secrets
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any
from uuid import UUID, uuid4, uuid5

from domain.adapters.bcdice_engine import BCDiceEngine
from domain.adapters.repository import Answer, AppendConflict, GameRepository
from domain.adapters.store import EventLog
from domain.application.writer import GroupWriter, Job, Listener, Outcome, Then
from domain.dice.bcdice import default_system
from domain.model import lifecycle
from domain.model.audience import GM, seat_actor
from domain.model.authentication import hash_token
from domain.model.canonical import canonical_request, sha256_hex
from domain.model.commands import Command
from domain.model.errors import KirokuError, Unauthorized
from domain.model.fairness import new_server_seed
from domain.model.game import GameState
from domain.model.lifecycle_events import GameCreated, GameOptions, SeatJoined
from domain.model.messages import N_
from domain.model.records import CommandKey, Draft, Recorded, ServerData
from domain.model.text import (
    BLANK_TEXT,
    FORBIDDEN_CHARACTER,
    blank,
    blank_text,
    forbidden_character,
    problem_text,
)
from domain.model.verification import Unreadable, VerificationReport, verify

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
    system: str | None = None  # BCDice game system; None: the ruleset's (default_system)


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
    replayed: bool = False  # answered again for a retry with the same Idempotency-Key
    recovery_code: str = ""  # the creator's, single use: gets its seat back (lifecycle.recover)


# Game ids of creations sent with an Idempotency-Key: derived from the key, so a retry finds
# the game its first attempt made (and two racing attempts collide on seq 1).
_CREATED_WITH_KEY = UUID("5b0f3c1e-6f0a-4d8e-9c43-2a1d7f6e9b10")


def _derived(server_seed: str, *parts: str, size: int) -> str:
    """A secret derived from the game's server seed and what only its requester holds (an
    Idempotency-Key, an invite): a retry gets the very same one back, and it is never stored
    (only its hash is, like every other token). The seed is secret until the game ends."""
    message = "\n".join(("kiroku/idempotent", *parts)).encode()
    digest = hmac.new(bytes.fromhex(server_seed), message, "sha256").digest()
    return base64.urlsafe_b64encode(digest[:size]).rstrip(b"=").decode()


TITLE_OR_NAME = N_("タイトルか名前")  # where a refused character is, in a game's creation


def key_reused(what: str) -> KirokuError:
    """422, as the Idempotency-Key draft asks: the key answered another request before."""
    return KirokuError(
        "idempotency_key_reused",
        "This Idempotency-Key was already used for a different {what}.",
        params={"what": what},
    )


class GameService:
    """Made by the bootstrap (domain/application/bootstrap.py) over its repository, its
    writer and the BCDice engine that evaluates chat rolls, asked before deciding."""

    def __init__(self, games: GameRepository, writer: GroupWriter, bcdice: BCDiceEngine) -> None:
        self.games = games
        self.writer = writer
        self.listeners: list[Listener] = writer.listeners
        self.bcdice = bcdice

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

    def create_game(self, new: NewGame, idempotency_key: str | None = None) -> CreatedGame:
        """Create a game. With an Idempotency-Key, a retry of the same request answers the
        game its first attempt created (same id, token and invites); the key with another
        request is refused (422 idempotency_key_reused)."""
        canonical_request([new.title, new.seat_names, new.ruleset_options])
        for name in (new.title, *new.seat_names):  # the API's models check these too; the CLI
            found = forbidden_character(name, one_line=True)
            if found is not None:
                raise KirokuError(FORBIDDEN_CHARACTER, problem_text(TITLE_OR_NAME, *found))
            if blank(name):
                raise KirokuError(BLANK_TEXT, blank_text(TITLE_OR_NAME))
        system = new.system or default_system(new.ruleset)
        self.bcdice.info(system)  # refuses a system BCDice does not have
        open_seats = [s for s in range(1, len(new.seat_names) + 1) if s != new.host_seat]
        server_seed = new_server_seed()
        command: CommandKey | None = None
        if idempotency_key is None:
            game_id = str(uuid4())
            token, recovery = secrets.token_urlsafe(32), secrets.token_urlsafe(16)
            invites = {seat: secrets.token_urlsafe(16) for seat in open_seats}
        else:
            key = sha256_hex(f"create\n{idempotency_key}")
            request = sha256_hex(canonical_request(_creation_request(new)))
            game_id = str(uuid5(_CREATED_WITH_KEY, key))
            if self.games.exists(game_id):
                return self._created_again(game_id, new, idempotency_key, request)
            token, invites, recovery = _creation_secrets(server_seed, idempotency_key, open_seats)
            command = CommandKey(key=key, request=request, count=1)
        draft = lifecycle.create(
            ruleset=new.ruleset,
            title=new.title,
            seat_names=new.seat_names,
            options=new.options,
            ruleset_options=new.ruleset_options,
            server_seed=server_seed,
            token_hash=hash_token(token),
            invite_hashes=[hash_token(i) for i in invites.values()],
            referee=new.referee,
            host_seat=new.host_seat,
            system=system,
            bcdice=self.bcdice.version(),
            recovery_hash=hash_token(recovery),
        )
        assert isinstance(draft.event, GameCreated)
        host = draft.event.host
        if command is not None:
            draft = _keyed(draft, command)
        try:
            self.writer.run(Job(game_id, [draft], lambda _d: host or GM))
        except AppendConflict:
            if idempotency_key is None:
                raise
            # The same key's other attempt created it a moment ago.
            return self._created_again(game_id, new, idempotency_key, request)
        return _created(game_id, new, token, invites, host, recovery)

    def _created_again(
        self, game_id: str, new: NewGame, idempotency_key: str, request: str
    ) -> CreatedGame:
        """The answer a creation with this key gave, again (the secrets derived once more)."""
        first = next(self.records(game_id, upto=1))
        command = first.server.command if first.server is not None else None
        if command is None or command.request != request:
            raise key_reused(N_("game creation"))
        state = self.state(game_id)
        open_seats = [s.seat for s in state.seats if s.actor != state.host]
        token, invites, recovery = _creation_secrets(state.server_seed, idempotency_key, open_seats)
        return _created(game_id, new, token, invites, state.host, recovery, replayed=True)

    def join(
        self,
        game_id: str,
        invite: str,
        client_seed: str | None,
        idempotency_key: str | None = None,
    ) -> tuple[int, str]:
        """Take a seat with its invite. With an Idempotency-Key a retry of the same request
        answers the same seat and token again (the invite is spent only once); the key with
        another request is refused (422 idempotency_key_reused)."""
        canonical = canonical_request([invite, client_seed])
        tokens: dict[str, str] = {}

        def token_for(state: GameState) -> str:
            if idempotency_key is None:
                return tokens.setdefault("token", secrets.token_urlsafe(32))
            return _derived(state.server_seed, "join", invite, idempotency_key, size=32)

        def decide(state: GameState) -> list[Draft]:
            token = tokens["token"] = token_for(state)
            return [lifecycle.join(state, hash_token(invite), hash_token(token), client_seed)]

        def actor_of(draft: Draft) -> str:
            assert isinstance(draft.event, SeatJoined)
            return seat_actor(draft.event.seat)

        answer = None
        if idempotency_key is not None:
            key = sha256_hex(f"join\n{idempotency_key}")
            answer = Answer(key=key, request=sha256_hex(canonical))
        try:
            outcome = self.writer.run(Job(game_id, decide, actor_of, answer))
        except KirokuError as error:
            if error.code == "idempotency_key_reused":
                raise key_reused(N_("joining")) from None
            raise
        joined = outcome.records[0].event
        assert isinstance(joined, SeatJoined)
        token = token_for(outcome.state) if outcome.replayed else tokens["token"]
        return joined.seat, token

    def _act(self, game_id: str, actor: str, step: Callable[[GameState], Draft]) -> None:
        """A lifecycle step `actor` takes (the lifecycle says who may)."""
        self.writer.run(Job(game_id, lambda state: [step(state)], lambda _d: actor))

    def issue_invite(self, game_id: str, actor: str, seat: int) -> str:
        """A new single-use invite for a seat."""
        invite = secrets.token_urlsafe(16)
        self._act(
            game_id, actor, lambda s: lifecycle.issue_invite(s, actor, seat, hash_token(invite))
        )
        return invite

    def rotate_credentials(self, game_id: str, actor: str, seat: int) -> str:
        """Replace a seat's credentials: its tokens, sessions and invites stop working;
        returns the one new invite."""
        invite = secrets.token_urlsafe(16)
        self._act(
            game_id,
            actor,
            lambda s: lifecycle.rotate_credentials(s, actor, seat, hash_token(invite)),
        )
        return invite

    def open_session(self, game_id: str, actor: str) -> str:
        """A browser session id for an authenticated actor; only its hash is stored."""
        session = secrets.token_urlsafe(32)
        self._act(game_id, actor, lambda s: lifecycle.open_session(s, actor, hash_token(session)))
        return session

    def recover(self, game_id: str, code: str) -> tuple[str, str, str]:
        """The creator's seat back with its recovery code (lifecycle.recover): returns its
        actor, a new token and the next recovery code (each shown once; the used code, the
        old token and every other browser session of the seat stop working)."""
        token, following = secrets.token_urlsafe(32), secrets.token_urlsafe(16)
        creator: dict[str, str] = {}

        def decide(state: GameState) -> list[Draft]:
            creator["actor"] = state.host or GM
            hashes = hash_token(code), hash_token(token), hash_token(following)
            return [lifecycle.recover(state, *hashes)]

        self.writer.run(Job(game_id, decide, lambda _d: creator["actor"]))
        return creator["actor"], token, following

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
        self.writer.send(self._command_job(game_id, actor, command, idempotency_key, session, then))

    def _command_job(
        self,
        game_id: str,
        actor: str,
        command: Command,
        idempotency_key: str | None,
        session: str | None = None,
        then: Then | None = None,
    ) -> Job:
        # Python mode, so NaN and infinities reach the check instead of becoming null.
        canonical = canonical_request(command.model_dump())
        answer = None
        if idempotency_key is not None:
            answer = Answer(sha256_hex(f"{actor}\n{idempotency_key}"), sha256_hex(canonical))

        def decide(state: GameState) -> list[Draft]:
            if session is not None and state.sessions.get(session) != actor:
                raise Unauthorized(
                    "bad_session",
                    "This browser is not signed in to this game: open your invite link.",
                )
            bcdice = self.bcdice.for_command(state, command)
            drafts = lifecycle.decide(state, command, actor, bcdice)
            if answer is not None and drafts:
                key = CommandKey(key=answer.key, request=answer.request, count=len(drafts))
                drafts[0] = _keyed(drafts[0], key)
            return drafts

        return Job(game_id, decide, lambda _d: actor, answer, then)

    def import_game(self, records: list[Recorded]) -> GameState:
        """Store a finished game's records under its own id (for archives); refuses an id
        that exists. The records are folded first, so a game that does not fold is refused."""
        if not records:
            raise KirokuError("empty_game", "There is nothing to import.")
        exists = KirokuError("game_exists", "A game with this id is already here.", kind="conflict")
        if self.games.exists(records[0].envelope.game_id):
            raise exists
        try:
            state = self.games.add(None, records)
        except AppendConflict:  # imported meanwhile by another caller
            raise exists from None
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


def _creation_request(new: NewGame) -> dict[str, Any]:
    """Everything a creation asks for, to refuse its Idempotency-Key with another request."""
    return {
        "ruleset": new.ruleset,
        "title": new.title,
        "seats": new.seat_names,
        "options": new.options.model_dump(mode="json"),
        "ruleset_options": new.ruleset_options,
        "referee": new.referee,
        "host_seat": new.host_seat,
        "system": new.system,
    }


def _creation_secrets(
    server_seed: str, idempotency_key: str, open_seats: list[int]
) -> tuple[str, dict[int, str], str]:
    """The creator's token, the seats' invites and the creator's recovery code of a creation
    sent with a key (the same on a retry)."""
    token = _derived(server_seed, "create", "token", idempotency_key, size=32)
    invites = {
        seat: _derived(server_seed, "create", f"invite {seat}", idempotency_key, size=16)
        for seat in open_seats
    }
    return token, invites, _derived(server_seed, "create", "recovery", idempotency_key, size=16)


def _created(
    game_id: str,
    new: NewGame,
    token: str,
    invites: dict[int, str],
    host: str | None,
    recovery: str,
    replayed: bool = False,
) -> CreatedGame:
    seats = [SeatInvite(s, new.seat_names[s - 1], invite) for s, invite in invites.items()]
    return CreatedGame(game_id, token, host or GM, host is not None, seats, replayed, recovery)


def _keyed(draft: Draft, key: CommandKey) -> Draft:
    """The draft carrying its command's Idempotency-Key, stored with it (server-only)."""
    server = draft.server or ServerData()
    return Draft(draft.event, draft.audience, server.model_copy(update={"command": key}))
