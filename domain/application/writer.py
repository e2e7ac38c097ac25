"""The write protocol, once: decide → seal → check → append → announce, by one writer thread
per process (group commit: docs/explanation/design/store-and-write-path.md).

A batch of queued jobs (up to `MAX_BATCH`, of any games) is decided against each game's running
state and appended in one transaction; a single command is a batch of one. Nothing is answered
before the batch is stored, and a refusal stands only on the game's latest state. A batch that
loses a race to another process stored nothing: each job is run again alone (`_alone`).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import UTC, datetime

from domain.adapters.repository import Answer, AppendConflict, GameRepository, Pending
from domain.adapters.store import CommandAnswer
from domain.adapters.thread_loop import ThreadLoop
from domain.dice import DiceError
from domain.model import codec
from domain.model.envelope import genesis_hash
from domain.model.errors import KirokuError
from domain.model.game import GameState
from domain.model.records import Draft, Recorded

log = logging.getLogger(__name__)
MAX_BATCH = 64  # jobs in one transaction
MAX_DEFERRED = 8  # batches a job may be left out of while another process holds its game
MAX_ATTEMPTS = 60  # a job alone: tries before the game is reported busy


@dataclass(frozen=True)
class Outcome:
    """What a command appended (or, on an idempotent retry, had appended)."""

    state: GameState
    records: list[Recorded]
    last_seq: int
    replayed: bool = False


Then = Callable[[Outcome | None, BaseException | None], None]
Listener = Callable[[GameState, list[Recorded]], None]


@dataclass
class Job:
    """A command for the writer: `decide` says what it appends on the game's state (or, for a
    game it creates, is what it appends). Its outcome or refusal goes to `then`, on the
    writer's thread."""

    game_id: str
    decide: Callable[[GameState], list[Draft]] | list[Draft]
    actor_of: Callable[[Draft], str]
    answer: Answer | None = None
    then: Then | None = None
    deferred: int = 0  # batches it was left out of: its game was locked by another process
    settled: bool = field(default=False, repr=False)

    def drafts(self, state: GameState | None) -> list[Draft]:
        if isinstance(self.decide, list):
            return list(self.decide)
        assert state is not None, "a command is decided on its game's state"
        return self.decide(state)

    def settle(self, outcome: Outcome | None, error: BaseException | None = None) -> None:
        if self.settled:
            return
        self.settled = True
        assert self.then is not None, "a job is queued with somewhere to send its outcome"
        try:
            self.then(outcome, error)
        except Exception:  # the writer goes on whatever a caller does with its outcome
            log.exception("a command's outcome could not be handed to its caller")


def seal(
    game_id: str, state: GameState | None, drafts: list[Draft], actor_of: Callable[[Draft], str]
) -> list[Recorded]:
    """The drafts as events after `state` (None: a new game), chained and timestamped."""
    records: list[Recorded] = []
    head = state.head if state is not None else genesis_hash(game_id)
    seq = state.version if state is not None else 0
    at = datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")
    for draft in drafts:
        seq += 1
        recorded = codec.seal(
            draft, game_id=game_id, seq=seq, actor=actor_of(draft), at=at, prev_hash=head
        )
        records.append(recorded)
        head = recorded.envelope.hash
    return records


@dataclass
class _Decided:
    job: Job
    outcome: Outcome | None = None
    error: BaseException | None = None


class _Stale(Exception):
    """A refusal was decided on a state the store has moved past."""


class GroupWriter:
    def __init__(self, games: GameRepository) -> None:
        self._games = games
        self.listeners: list[Listener] = []  # told of every append (live streams, views)
        self._loop: ThreadLoop[Job] = ThreadLoop("kiroku-writer", self._run, max_batch=MAX_BATCH)
        self.batches = 0  # transactions written by batches (figures for tests and benchmarks)
        self.batched = 0  # jobs answered from those batches

    def run(self, job: Job) -> Outcome:
        """Queue `job` and wait for its outcome."""
        assert not self._loop.running_here(), "the writer would wait for itself"
        return self.submit(job).result()

    def submit(self, job: Job) -> Future[Outcome]:
        """Queue `job`; its outcome (or refusal) arrives in the future returned."""
        future: Future[Outcome] = Future()

        job.then = lambda outcome, error: (
            future.set_result(outcome) if error is None else future.set_exception(error)  # type: ignore[arg-type]
        )
        self.send(job)
        return future

    def send(self, job: Job) -> None:
        """Queue `job`; its outcome goes to `job.then`."""
        self._loop.put(job)

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        self._loop.close()

    def announce(self, state: GameState, records: list[Recorded]) -> None:
        for listener in self.listeners:
            try:
                listener(state, records)
            except Exception:  # the append is stored: a listener must not turn it into an error
                log.exception("listener %r failed after appending to %s", listener, state.game_id)

    # ------------------------------------------------------------------------- the thread

    def _run(self, jobs: list[Job]) -> list[Job]:
        """Write a batch; returns the jobs left for the next one."""
        try:
            return self._batch(jobs)
        except BaseException as error:  # never leave a caller waiting
            log.exception("the writer failed a batch of %d commands", len(jobs))
            for job in jobs:
                job.settle(None, error)
            return []

    def _batch(self, jobs: list[Job]) -> list[Job]:
        # PostgreSQL: take turns with other processes on the games they write too (a lock
        # each). A game another process holds waits for the next batch (its jobs first, in
        # order); a job left out of MAX_DEFERRED batches waits for its game's lock at last.
        shared = {job.game_id for job in jobs if self._games.is_shared(job.game_id)}
        patient = any(job.deferred >= MAX_DEFERRED for job in jobs)
        with self._games.write_lock(shared, wait=patient) as held:  # None: no lock to take
            waits = set() if held is None else shared - held
            later = [j for j in jobs if j.game_id in waits]
            for job in later:
                job.deferred += 1
            alone = self._write([j for j in jobs if j.game_id not in waits], held or set())
        for job in alone:  # after letting go: each takes its own game's lock
            self._alone(job)
        return later

    def _alone(self, job: Job) -> None:
        """`job` on its own, decided on the state read from the store under its game's write
        lock, again after each conflict, until it is stored or refused."""
        for attempt in range(MAX_ATTEMPTS):
            try:
                with self._games.write_lock([job.game_id]) as held:
                    if not self._write([job], held or set(), fresh=True):
                        return
                if isinstance(job.decide, list):  # the game it creates was created meanwhile
                    raise AppendConflict(job.game_id)
            except BaseException as error:  # no store, a damaged game
                job.settle(None, error)
                return
            time.sleep(random.uniform(0, 0.002 * (attempt + 1)))
        job.settle(
            None,
            KirokuError(
                "game_busy", "The game is too busy right now; please try again.", kind="conflict"
            ),
        )

    def _write(self, jobs: list[Job], locked: set[str], *, fresh: bool = False) -> list[Job]:
        """Decide, seal and append `jobs` in one transaction, then announce and answer them.

        `locked`: the games whose write lock this process holds (a game other processes write
        too is decided here only then, on a state just read). `fresh`: every game is read from
        the store before deciding. Returns the jobs to run alone, in order, once the locks are
        let go: all of them when nothing could be stored."""
        games = self._games
        states: dict[str, GameState | None] = {}  # each game's running state in this batch
        checked: set[str] = set()  # games whose base state is known to be the latest
        alone: list[Job] = []
        alone_games: set[str] = set()
        keys: set[tuple[str, str]] = set()  # keys of this batch's own appends
        decided: list[_Decided] = []
        pendings: list[Pending] = []
        # The locked games, read at once (PostgreSQL: one query for what others appended).
        read = [game_id for game_id in dict.fromkeys(j.game_id for j in jobs) if game_id in locked]
        latest = games.get_many(read) if len(read) > 1 and not fresh else {}
        try:
            for job in jobs:
                game_id, answer = job.game_id, job.answer
                shared = games.is_shared(game_id)
                if (
                    game_id in alone_games
                    or (shared and game_id not in locked and not fresh)
                    or (answer is not None and (game_id, answer.key) in keys)
                ):
                    alone.append(job)
                    alone_games.add(game_id)
                    continue
                earlier = games.answer(game_id, answer.key) if answer is not None else None
                if earlier is not None:
                    assert answer is not None
                    decided.append(self._replayed(job, answer, earlier))
                    continue
                entry = _Decided(job)
                decided.append(entry)
                try:
                    if game_id not in states:
                        states[game_id], known = self._base(job, latest, fresh or shared)
                        if known:
                            checked.add(game_id)
                except BaseException as error:  # no such game, a damaged one, no store
                    entry.error = error
                    continue
                state = states[game_id]
                pending: Pending | None = None
                try:
                    records = seal(game_id, state, job.drafts(state), job.actor_of)
                    pending = games.prepare(state, records, answer) if records else None
                except BaseException as error:
                    entry.error = error
                if pending is None:  # a refusal (or nothing to append) stands only on the latest
                    if game_id not in checked:
                        if state is not None and games.get(game_id).version != state.version:
                            raise _Stale()
                        checked.add(game_id)
                    if entry.error is None:
                        assert state is not None
                        entry.outcome = Outcome(state, [], state.version)
                    elif not isinstance(entry.error, KirokuError | DiceError):  # not a refusal
                        log.exception("a command on game %s failed", game_id, exc_info=entry.error)
                    continue
                if answer is not None:
                    keys.add((game_id, answer.key))
                pendings.append(pending)
                states[game_id] = pending.state
                entry.outcome = Outcome(pending.state, records, pending.state.version)
            if pendings:
                try:
                    games.commit(pendings)
                except AppendConflict:
                    raise
                except BaseException as error:  # no store (StoreBusy): nothing was stored
                    for entry in decided:
                        entry.outcome, entry.error = None, error
                else:
                    self.batches += 1
        except (_Stale, AppendConflict):  # nothing was stored: every job alone, in order
            return jobs
        self.batched += len(decided)
        for entry in decided:
            if entry.outcome is not None and entry.outcome.records and not entry.outcome.replayed:
                self.announce(entry.outcome.state, entry.outcome.records)
            entry.job.settle(entry.outcome, entry.error)
        return alone

    def _base(
        self, job: Job, latest: dict[str, GameState | BaseException], fresh: bool
    ) -> tuple[GameState | None, bool]:
        """The state to decide a game's first job of the batch on, and whether it is known
        to be the latest (just read from the store, or none yet: a new game)."""
        if isinstance(job.decide, list):  # it creates its game
            return None, True
        found = latest.pop(job.game_id, None)
        if isinstance(found, BaseException):
            raise found
        if found is not None:
            return found, True
        if fresh:
            return self._games.get(job.game_id), True
        return self._games.current(job.game_id)

    def _replayed(self, job: Job, answer: Answer, earlier: CommandAnswer) -> _Decided:
        """The first answer to a command sent again with its Idempotency-Key."""
        if earlier.request != answer.request:
            return _Decided(
                job,
                error=KirokuError(
                    "idempotency_key_reused",
                    "This Idempotency-Key was already used for a different command.",
                    kind="conflict",
                ),
            )
        # Read after the answer: its events are stored with it, so this state covers them.
        try:
            state = self._games.get(job.game_id)
            records = list(self._games.records(job.game_id, earlier.first - 1, earlier.last))
        except BaseException as error:
            return _Decided(job, error=error)
        return _Decided(job, Outcome(state, records, earlier.last, replayed=True))
