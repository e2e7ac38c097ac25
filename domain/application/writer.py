"""The write protocol, once: decide → seal → check → append → announce, by one writer thread
per process (group commit; see docs/explanation/design/index.md).

Callers queue a `Job` — a game, a decider, who acts, an Idempotency-Key's answer — and get its
outcome or refusal by `Job.then` (an event loop's caller hands it to its loop; `submit` makes
it a future's). The writer takes every job queued (up to `MAX_BATCH`), decides each against
the batch's running state of its game, seals the events, and appends all of them in one
transaction, so a burst of commands, of one game or of many, costs one commit. A single
command is a batch of one.

Nothing is answered before the batch is stored, and a refusal (or a command that appends
nothing) stands only on the game's latest state: one decided on a cached state is checked
against the store first. When the check fails, or the version check refuses the append —
another process appended to one of the games first — nothing was stored and no job answered;
each job then runs alone, in order, on the state read from the store, under its game's write
lock, again until it is stored or refused. With PostgreSQL the games that other processes
write too are decided under their write locks (advisory locks: writers take turns instead of
racing for a version); a game another process holds waits for the next batch.
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

    @property
    def new(self) -> bool:
        """Does it create its game?"""
        return isinstance(self.decide, list)

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


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def seal(
    game_id: str, state: GameState | None, drafts: list[Draft], actor_of: Callable[[Draft], str]
) -> list[Recorded]:
    """The drafts as events after `state` (None: a new game), chained and timestamped."""
    records: list[Recorded] = []
    head = state.head if state is not None else genesis_hash(game_id)
    seq = state.version if state is not None else 0
    at = now()
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
    """A job decided in the batch: its outcome (or refusal) once the batch is stored."""

    job: Job
    outcome: Outcome | None = None
    error: BaseException | None = None


class GroupWriter:
    def __init__(self, games: GameRepository) -> None:
        self._games = games
        self.listeners: list[Listener] = []  # told of every append (live streams, views)
        self._loop: ThreadLoop[Job] = ThreadLoop("kiroku-writer", self._run, max_batch=MAX_BATCH)
        self.batches = 0  # transactions written by batches (figures for tests and benchmarks)
        self.batched = 0  # jobs answered from those batches

    def run(self, job: Job) -> Outcome:
        """Queue `job` and wait for its outcome (on the writer's own thread: run it at once)."""
        if self._loop.running_here():
            result: list[Outcome | BaseException | None] = [None]

            def keep(outcome: Outcome | None, error: BaseException | None) -> None:
                result[0] = error if error is not None else outcome

            job.then = keep
            self._alone(job)
            if isinstance(result[0], BaseException):
                raise result[0]
            assert result[0] is not None
            return result[0]
        return self.submit(job).result()

    def submit(self, job: Job) -> Future[Outcome]:
        """Queue `job`; its outcome (or refusal) arrives in the future returned."""
        future: Future[Outcome] = Future()

        def then(outcome: Outcome | None, error: BaseException | None) -> None:
            if error is not None:
                future.set_exception(error)
            else:
                assert outcome is not None
                future.set_result(outcome)

        job.then = then
        self.send(job)
        return future

    def send(self, job: Job) -> None:
        """Queue `job`; its outcome goes to `job.then`."""
        self._loop.put(job)

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        self._loop.close()

    def announce(self, state: GameState, records: list[Recorded]) -> None:
        """Tell the listeners what was just stored."""
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
        games = self._games
        shared = {job.game_id for job in jobs if games.is_shared(job.game_id)}
        later: list[Job] = []
        if not shared:
            alone = self._write(jobs, set())
        else:
            # PostgreSQL: take turns with other processes on these games (a lock each). A game
            # another process holds waits for the next batch (its jobs first, in order). A job
            # left out of MAX_DEFERRED batches waits for its game's lock at last.
            patient = any(job.deferred >= MAX_DEFERRED for job in jobs)
            with games.write_lock(shared, wait=patient) as held:
                if held is None:  # SQLite: its file lock serializes writers
                    alone = self._write(jobs, set())
                else:
                    now_ = [j for j in jobs if j.game_id not in shared or j.game_id in held]
                    later = [j for j in jobs if j.game_id in shared - held]
                    for job in later:
                        job.deferred += 1
                    alone = self._write(now_, held)
        for job in alone:  # after letting go: each takes its own game's lock
            self._alone(job)
        return later

    def _alone(self, job: Job) -> None:
        """`job` on its own: decided on the state read from the store, under its game's write
        lock, again after each conflict, until it is stored or refused."""
        for attempt in range(MAX_ATTEMPTS):
            try:
                with self._games.write_lock([job.game_id]) as held:
                    again = self._write([job], held or set(), fresh=True)
            except BaseException as error:  # no store, a damaged game
                job.settle(None, error)
                return
            if not again:
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
        stale = False
        # The locked games, read all at once (PostgreSQL: one query for what other processes
        # appended to any of them, where reading each costs a round trip).
        read = [game_id for game_id in dict.fromkeys(j.game_id for j in jobs) if game_id in locked]
        latest = games.get_many(read) if len(read) > 1 and not fresh else {}

        for job in jobs:
            game_id = job.game_id
            shared = games.is_shared(game_id)
            if game_id in alone_games or (shared and game_id not in locked and not fresh):
                alone.append(job)
                alone_games.add(game_id)
                continue
            if job.answer is not None:
                if (game_id, job.answer.key) in keys:  # answered in this batch: once stored
                    alone.append(job)
                    alone_games.add(game_id)
                    continue
                earlier = games.answer(game_id, job.answer.key)
                if earlier is not None:
                    decided.append(self._replayed(job, job.answer, earlier))
                    continue
            entry = _Decided(job)
            decided.append(entry)
            try:
                if game_id not in states:
                    states[game_id], known = self._base(job, latest, fresh or shared)
                    if known:
                        checked.add(game_id)
                state = states[game_id]
            except BaseException as error:  # no such game, a damaged one, no store
                entry.error = error
                continue
            pending: Pending | None = None
            try:
                records = seal(game_id, state, job.drafts(state), job.actor_of)
                if records:
                    pending = games.prepare(state, records, job.answer)
            except BaseException as error:
                entry.error = error
            if pending is None:
                # A refusal (or nothing to append) stands only on the latest state.
                if game_id not in checked:
                    if state is not None and games.get(game_id).version != state.version:
                        stale = True
                        break
                    checked.add(game_id)
                if entry.error is None:
                    assert state is not None
                    entry.outcome = Outcome(state=state, records=[], last_seq=state.version)
                elif not isinstance(entry.error, KirokuError | DiceError):  # not a refusal
                    log.exception("a command on game %s failed", game_id, exc_info=entry.error)
                continue
            if job.answer is not None:
                keys.add((game_id, job.answer.key))
            pendings.append(pending)
            states[game_id] = pending.state
            entry.outcome = Outcome(
                state=pending.state, records=records, last_seq=pending.state.version
            )

        if not stale:
            try:
                if pendings:
                    games.commit(pendings)
                    self.batches += 1
            except AppendConflict:
                stale = True
            except BaseException as error:  # no store (StoreBusy): nothing was stored
                for entry in decided:
                    entry.outcome, entry.error = None, error
        if stale:  # nothing was stored: every job alone, in order
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
        if job.new:
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
        return _Decided(
            job, Outcome(state=state, records=records, last_seq=earlier.last, replayed=True)
        )
