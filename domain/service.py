"""The application service: load a game, decide, seal, append — and read it back.

Concurrency: appends are optimistic on the game's version (the store's unique
(game, seq) key). A conflict — another thread or worker appended first — reloads and decides
again, so no command is lost, duplicated or reordered, whichever process it reached.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError, OperationalError

from domain import codec, lifecycle
from domain.audience import GM, PUBLIC, seat_actor
from domain.canonical import canonical_request, sha256_hex
from domain.commands import Command
from domain.envelope import genesis_hash
from domain.errors import KirokuError, NotFound, Unauthorized
from domain.fairness import new_server_seed
from domain.game import GameState
from domain.lifecycle_events import GameOptions
from domain.records import CommandKey, Draft, Recorded, ServerData
from domain.store import (
    EventLog,
    StateSnapshot,
    StoredRecord,
    dumps,
    record_text,
    store_env,
    with_setup_retry,
)
from domain.verification import Unreadable, VerificationReport, verify

log = logging.getLogger(__name__)
SNAPSHOT_INTERVAL = 100
MAX_ATTEMPTS = 60

Listener = Callable[[GameState, list[Recorded]], None]


@dataclass(frozen=True)
class NewGame:
    ruleset: str
    title: str
    seat_names: list[str]
    options: GameOptions
    ruleset_options: dict[str, Any]


@dataclass(frozen=True)
class SeatInvite:
    seat: int
    name: str
    invite: str


@dataclass(frozen=True)
class CreatedGame:
    game_id: str
    gm_token: str
    seats: list[SeatInvite]


@dataclass(frozen=True)
class Outcome:
    """What a command appended (or, on an idempotent retry, had appended)."""

    state: GameState
    records: list[Recorded]
    last_seq: int
    replayed: bool = False


def hash_token(token: str) -> str:
    return sha256_hex("kiroku/token:" + token)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _parse_game_id(game_id: str) -> UUID:
    try:
        return UUID(game_id)
    except (ValueError, TypeError, AttributeError):
        raise NotFound("game_not_found", "There is no such game.") from None


class GameService:
    def __init__(self, env: dict[str, str] | None = None) -> None:
        self.env = env if env is not None else store_env()
        self.log = with_setup_retry(lambda: EventLog(env=self.env))
        self._cache: dict[str, GameState] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self.listeners: list[Listener] = []

    def close(self) -> None:
        self.log.close()

    # ------------------------------------------------------------------------- commands

    def create_game(self, new: NewGame) -> CreatedGame:
        canonical_request([new.title, new.seat_names, new.ruleset_options])
        game_id = str(uuid4())
        gm_token = secrets.token_urlsafe(32)
        invites = [secrets.token_urlsafe(16) for _ in new.seat_names]
        draft = lifecycle.create(
            ruleset=new.ruleset,
            title=new.title,
            seat_names=new.seat_names,
            options=new.options,
            ruleset_options=new.ruleset_options,
            server_seed=new_server_seed(),
            gm_token_hash=hash_token(gm_token),
            invite_hashes=[hash_token(i) for i in invites],
        )
        recorded = codec.seal(
            draft,
            game_id=game_id,
            seq=1,
            actor=GM,
            at=_now(),
            prev_hash=genesis_hash(game_id),
        )
        state = lifecycle.initial_state(recorded)
        self._put(game_id, [recorded])
        self._remember(state, [recorded], [])
        seats = [
            SeatInvite(seat=s.seat, name=s.name, invite=invite)
            for s, invite in zip(state.seats, invites, strict=True)
        ]
        return CreatedGame(game_id=game_id, gm_token=gm_token, seats=seats)

    def join(self, game_id: str, invite: str, client_seed: str | None) -> tuple[int, str]:
        canonical_request([invite, client_seed])
        token = secrets.token_urlsafe(32)

        def decide(state: GameState) -> list[Draft]:
            return [lifecycle.join(state, hash_token(invite), hash_token(token), client_seed)]

        outcome = self._append_with_retry(
            game_id, decide, actor_of=lambda d: seat_actor(d.event.seat)
        )  # type: ignore[attr-defined]
        seat = outcome.records[0].event.seat  # type: ignore[attr-defined]
        return seat, token

    def issue_invite(self, game_id: str, seat: int) -> str:
        """A new single-use invite for a seat (the caller has been checked to be the GM)."""
        invite = secrets.token_urlsafe(16)
        self._append_with_retry(
            game_id,
            lambda state: [lifecycle.issue_invite(state, seat, hash_token(invite))],
            actor_of=lambda _d: GM,
        )
        return invite

    def open_session(self, game_id: str, actor: str) -> str:
        """A browser session id for an authenticated actor; only its hash is stored."""
        session = secrets.token_urlsafe(32)
        self._append_with_retry(
            game_id,
            lambda state: [lifecycle.open_session(state, actor, hash_token(session))],
            actor_of=lambda _d: actor,
        )
        return session

    def execute(
        self, game_id: str, actor: str, command: Command, idempotency_key: str | None = None
    ) -> Outcome:
        # Python mode, so NaN and infinities reach the check instead of becoming null.
        request = sha256_hex(canonical_request(command.model_dump()))
        key = sha256_hex(f"{actor}\n{idempotency_key}") if idempotency_key else None

        def decide(state: GameState) -> list[Draft] | Outcome:
            if key is not None and key in state.commands:
                return self._replay(state, key, request)
            drafts = lifecycle.decide(state, command, actor)
            if key is not None and drafts:
                first = drafts[0]
                server = first.server or ServerData()
                tagged = server.model_copy(
                    update={"command": CommandKey(key=key, request=request, count=len(drafts))}
                )
                drafts[0] = Draft(first.event, first.audience, tagged)
            return drafts

        return self._append_with_retry(game_id, decide, actor_of=lambda _d: actor)

    def import_game(self, records: list[Recorded]) -> GameState:
        """Store a finished game's records under its own id (for archives); refuses an id
        that exists. The records are folded first, so a game that does not fold is refused."""
        if not records:
            raise KirokuError("empty_game", "There is nothing to import.")
        game_id = records[0].envelope.game_id
        try:
            self.state(game_id)
        except NotFound:
            pass
        else:
            raise KirokuError(
                "game_exists", "A game with this id is already here.", kind="conflict"
            )
        state, due = self._fold(lifecycle.initial_state(records[0]), records[1:])
        with self._lock(game_id):
            for start in range(0, len(records), 1000):
                self._put(game_id, records[start : start + 1000])
            self._remember(state, records, due)
        return state

    def _replay(self, state: GameState, key: str, request: str | None) -> Outcome:
        record = state.commands[key]
        if record.request != request:
            raise KirokuError(
                "idempotency_key_reused",
                "This Idempotency-Key was already used for a different command.",
                kind="conflict",
            )
        records = list(self.records(state.game_id, after=record.first - 1, upto=record.last))
        return Outcome(state=state, records=records, last_seq=record.last, replayed=True)

    def _append_with_retry(
        self,
        game_id: str,
        decide: Callable[[GameState], list[Draft] | Outcome],
        actor_of: Callable[[Draft], str],
    ) -> Outcome:
        with self._lock(game_id):
            for attempt in range(MAX_ATTEMPTS):
                # Always fast-forward first: the version check would catch a stale state on
                # append, but not a refusal decided on one (another worker started the game).
                state = self.state(game_id)
                decided = decide(state)
                if isinstance(decided, Outcome):
                    return decided
                records = self._seal_all(state, decided, actor_of)
                # Fold before storing: an event the game cannot fold is never appended.
                new_state, to_snapshot = self._fold(state, records)
                try:
                    self._put(game_id, records)
                except (IntegrityError, OperationalError):
                    # Another worker appended first: reload and decide again.
                    self._cache.pop(game_id, None)
                    time.sleep(random.uniform(0, 0.002 * (attempt + 1)))
                    continue
                self._remember(new_state, records, to_snapshot)
                return Outcome(state=new_state, records=records, last_seq=new_state.version)
        raise KirokuError(
            "game_busy", "The game is too busy right now; please try again.", kind="conflict"
        )

    def _seal_all(
        self, state: GameState, drafts: list[Draft], actor_of: Callable[[Draft], str]
    ) -> list[Recorded]:
        records: list[Recorded] = []
        head, seq, at = state.head, state.version, _now()
        for draft in drafts:
            seq += 1
            recorded = codec.seal(
                draft, game_id=state.game_id, seq=seq, actor=actor_of(draft), at=at, prev_hash=head
            )
            records.append(recorded)
            head = recorded.envelope.hash
        return records

    def _put(self, game_id: str, records: list[Recorded]) -> None:
        uuid = _parse_game_id(game_id)
        events = [
            StoredRecord(
                originator_id=uuid,
                originator_version=r.seq,
                timestamp=StoredRecord.create_timestamp(),
                record=codec.encode(r),
            )
            for r in records
        ]
        self.log.events.put(events)

    @staticmethod
    def _fold(state: GameState, records: list[Recorded]) -> tuple[GameState, list[GameState]]:
        """The state after `records`, and the states along the way that are due a snapshot."""
        due: list[GameState] = []
        for recorded in records:
            if recorded.seq != state.version:  # the initial state already folded GameCreated
                state = lifecycle.evolve(state, recorded)
            if recorded.seq % SNAPSHOT_INTERVAL == 0:
                due.append(state)
        return state, due

    def _remember(
        self, state: GameState, records: list[Recorded], to_snapshot: list[GameState]
    ) -> None:
        for snapshot in to_snapshot:
            self._snapshot(snapshot)
        self._cache[state.game_id] = state
        for listener in self.listeners:
            try:
                listener(state, records)
            except Exception:  # the append is stored: a listener must not turn it into an error
                log.exception("listener %r failed after appending to %s", listener, state.game_id)

    def _snapshot(self, state: GameState) -> None:
        data = state.model_dump(mode="json")
        snapshot = StateSnapshot(
            originator_id=UUID(state.game_id),
            originator_version=state.version,
            timestamp=StateSnapshot.create_timestamp(),
            state=dumps(data),
        )
        try:
            assert self.log.snapshots is not None
            self.log.snapshots.put([snapshot])
        except IntegrityError:
            pass  # another worker took the same snapshot

    def _lock(self, game_id: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(game_id, threading.Lock())

    # ------------------------------------------------------------------------- reads

    def state(self, game_id: str) -> GameState:
        """The current full state: cached, fast-forwarded by any events other workers added."""
        uuid = _parse_game_id(game_id)
        state = self._cache.get(game_id)
        if state is None:
            state = self._from_snapshot(uuid)
        for recorded in codec.read_records(self.log, uuid, state.version if state else 0):
            state = (
                lifecycle.initial_state(recorded)
                if state is None
                else lifecycle.evolve(state, recorded)
            )
        if state is None:
            raise NotFound("game_not_found", "There is no such game.")
        self._cache[game_id] = state
        return state

    def _from_snapshot(self, uuid: UUID) -> GameState | None:
        assert self.log.snapshots is not None
        latest = list(self.log.snapshots.get(uuid, desc=True, limit=1))
        if not latest:
            return None
        snapshot = latest[0]
        assert isinstance(snapshot, StateSnapshot)
        return lifecycle.restore_state(json.loads(snapshot.state))

    def records(self, game_id: str, after: int = 0, upto: int | None = None) -> Iterator[Recorded]:
        return codec.read_records(self.log, _parse_game_id(game_id), after, upto)

    def authenticate(self, game_id: str, token: str | None) -> str:
        """The caller's audience in this game: gm, seat:N, or public (when spectators may).

        Credentials are only ever added and options never change, so a cached state that knows
        the token (or the game's options) answers without reading the store.
        """
        cached = self._cache.get(game_id)
        if cached is not None and (token is None or hash_token(token) in cached.credentials):
            state = cached
        else:
            state = self.state(game_id)
        if token is None:
            if not state.options.spectators:
                raise Unauthorized(
                    "token_required", "This game's log is private: present your seat token."
                )
            return PUBLIC
        actor = state.credentials.get(hash_token(token))
        if actor is None:
            raise Unauthorized("bad_token", "This token is not valid for this game.")
        return actor

    def authenticate_session(self, game_id: str, session: str) -> str:
        """The audience of a browser session of this game; revoked or foreign ones are refused."""
        actor = self.state(game_id).sessions.get(hash_token(session))
        if actor is None:
            raise Unauthorized(
                "bad_session", "This browser is not signed in to this game: open your invite link."
            )
        return actor

    def verify(self, game_id: str) -> VerificationReport:
        return verify(game_id, self.envelopes(game_id))

    def envelopes(self, game_id: str) -> list[dict[str, Any] | Unreadable]:
        """The envelopes exactly as stored, for verification; an unreadable one as (seq, why)."""
        uuid = _parse_game_id(game_id)
        self.state(game_id)  # 404 for an unknown game
        envelopes: list[dict[str, Any] | Unreadable] = []
        for stored in self.log.recorder.select_events(uuid):
            try:
                # The stored state is the transcoder's plain JSON (no cipher, no compression):
                # read the record straight from it rather than through the mapper.
                envelopes.append(codec.raw_envelope(record_text(stored.state)))
            except Exception as error:
                envelopes.append((stored.originator_version, type(error).__name__))
        return envelopes
