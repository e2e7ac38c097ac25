"""Group commit: one writer thread per process owns every append (see docs/design.md).

Callers queue a `Job` — a game, a decider, who acts, an Idempotency-Key's answer — and wait
for its outcome (a future; an event loop's caller gets it by `Job.then`). The writer takes
every job queued (up to `MAX_BATCH`), decides each against the batch's running state of its
game, and writes all their events in one transaction, so a burst of commands, of one game or
of many, costs one commit (one fsync). Each caller then gets exactly its own outcome or
refusal.

Nothing is answered before the batch is stored: a refusal decided on a state that holds
earlier jobs' events is only given once those events are. When the transaction fails —
another process appended to one of its games first — no job has been answered, and each is
run again on its own (`GameService._append_with_retry`: reload, decide again), in order. Jobs
of a game another process writes too, or whose key was already answered, also run on their
own after the batch.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING

from domain.dice import DiceError
from domain.errors import KirokuError
from domain.game import GameState
from domain.records import Draft, Recorded
from domain.repository import Answer, AppendConflict, Pending

if TYPE_CHECKING:
    from domain.service import GameService, Outcome

log = logging.getLogger(__name__)
MAX_BATCH = 64  # jobs in one transaction
MAX_DEFERRED = 8  # batches a job may be left out of while another worker holds its game


Then = Callable[["Outcome | None", "BaseException | None"], None]


@dataclass
class Job:
    """A command for the writer. Its outcome or refusal goes to `then`, on the writer's
    thread: an event loop's caller hands it to its loop (no thread waits); `submit` makes it
    a future's."""

    game_id: str
    decide: Callable[[GameState], list[Draft]]
    actor_of: Callable[[Draft], str]
    answer: Answer | None
    then: Then | None = None
    deferred: int = 0  # batches it was left out of: its game was locked by another worker
    settled: bool = False

    def settle(self, outcome: Outcome | None, error: BaseException | None = None) -> None:
        if self.settled:
            return
        self.settled = True
        assert self.then is not None, "a job is queued with somewhere to send its outcome"
        try:
            self.then(outcome, error)
        except Exception:  # the writer goes on whatever a caller does with its outcome
            log.exception("a command's outcome could not be handed to its caller")


@dataclass
class _Decided:
    """A job decided in the batch: its outcome (or refusal) once the batch is stored."""

    job: Job
    outcome: Outcome | None = None
    error: BaseException | None = None


class GroupWriter:
    def __init__(self, service: GameService) -> None:
        self._service = service
        self._queue: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._guard = threading.Lock()
        self._deferred: list[Job] = []  # jobs whose game another worker had locked: next batch
        self.batches = 0  # transactions written by batches (figures for tests and benchmarks)
        self.batched = 0  # jobs answered from those batches

    def run(self, job: Job) -> Outcome:
        """Queue `job` and wait for its outcome (from the writer itself: run it at once)."""
        if threading.current_thread() is self._thread:
            return self._service._append_with_retry(
                job.game_id, job.decide, job.actor_of, job.answer
            )
        return self.submit(job).result()

    def submit(self, job: Job) -> Future[Outcome]:
        """Queue `job`; its outcome (or refusal) arrives in the future returned."""
        future: Future[Outcome] = Future()

        def then(outcome: Outcome | None, error: BaseException | None) -> None:
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(outcome)  # type: ignore[arg-type]

        job.then = then
        self.send(job)
        return future

    def send(self, job: Job) -> None:
        """Queue `job`; its outcome goes to `job.then`."""
        with self._guard:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._loop, name="kiroku-writer", daemon=True
                )
                self._thread.start()
        self._queue.put(job)

    def close(self) -> None:
        with self._guard:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join()

    # ------------------------------------------------------------------------- the thread

    def _loop(self) -> None:
        while True:
            jobs, self._deferred = self._deferred, []
            if not jobs:
                first = self._queue.get()
                if first is None:
                    return
                jobs = [first]
            stop = False
            while len(jobs) < MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                jobs.append(more)
            self._run(jobs)
            if stop:
                while self._deferred:
                    jobs, self._deferred = self._deferred, []
                    self._run(jobs)
                return

    def _run(self, jobs: list[Job]) -> None:
        try:
            self._batch(jobs)
        except BaseException as error:  # never leave a caller waiting
            log.exception("the writer failed a batch of %d commands", len(jobs))
            self._deferred = []
            for job in jobs:
                job.settle(None, error)

    def _batch(self, jobs: list[Job]) -> None:
        games = self._service.games
        shared = {job.game_id for job in jobs if games.is_shared(job.game_id)}
        if not shared:
            solo = self._decide_and_write(jobs, set())
        else:
            # PostgreSQL: take turns with other workers on these games (a lock each). A game
            # another worker holds waits for the next batch (its jobs first, in order).
            # A job left out of MAX_DEFERRED batches waits for its game's lock at last.
            patient = any(job.deferred >= MAX_DEFERRED for job in jobs)
            with games.write_lock(shared, wait=patient) as held:
                if held is None:  # SQLite: they run on their own
                    solo = self._decide_and_write(jobs, set())
                else:
                    now = [j for j in jobs if j.game_id not in shared or j.game_id in held]
                    self._deferred = [j for j in jobs if j.game_id in shared - held]
                    for job in self._deferred:
                        job.deferred += 1
                    solo = self._decide_and_write(now, held)
        for job in solo:  # after letting go: each takes its own game's lock
            self._solo(job)

    def _decide_and_write(self, jobs: list[Job], locked: set[str]) -> list[Job]:
        """`locked`: the games whose write lock this process holds, so a game other workers
        write too is read before deciding and written in the batch (else it runs on its own).
        Returns the jobs to run on their own, in order, once the locks are let go."""
        service = self._service
        games = service.games
        states: dict[str, GameState] = {}  # each game's running state in this batch
        checked: set[str] = set()  # games whose base state is known to be the latest
        solo: list[Job] = []  # run on their own after the batch, in order
        solo_games: set[str] = set()
        keys: set[tuple[str, str]] = set()
        decided: list[_Decided] = []
        pendings: dict[str, list[Pending]] = {}
        stale = False
        # The locked games, read all at once (PostgreSQL: one query for what other workers
        # appended to any of them, where reading each costs a round trip).
        read = [game_id for game_id in dict.fromkeys(j.game_id for j in jobs) if game_id in locked]
        latest = games.get_many(read) if len(read) > 1 else {}

        for job in jobs:
            game_id = job.game_id
            shared = games.is_shared(game_id)
            if game_id in solo_games or (shared and game_id not in locked):
                solo.append(job)
                solo_games.add(game_id)
                continue
            if job.answer is not None and (
                (game_id, job.answer.key) in keys
                or games.answer(game_id, job.answer.key) is not None
            ):
                solo.append(job)  # a retry: answered on its own, from the store
                solo_games.add(game_id)
                continue
            try:
                state = states.get(game_id)
                if state is None:
                    if game_id in latest:
                        found = latest.pop(game_id)
                        if isinstance(found, BaseException):
                            raise found
                        state, fresh = found, True
                    elif shared:
                        state, fresh = games.get(game_id), True
                    else:
                        state, fresh = games.current(game_id)
                    states[game_id] = state
                    if fresh:
                        checked.add(game_id)
            except BaseException as error:  # no such game, a damaged one, no store
                decided.append(_Decided(job, error=error))
                continue
            entry = _Decided(job)
            decided.append(entry)
            try:
                drafts = job.decide(state)
                records = service._seal_all(state, drafts, job.actor_of)
                if records:
                    pending = games.prepare(state, records, job.answer)
            except BaseException as error:
                entry.error = error
                records = []
            if not records:
                # A refusal (or nothing to append) stands only on the latest state.
                if game_id not in checked:
                    if not service._is_latest(state):
                        stale = True
                        break
                    checked.add(game_id)
                if entry.error is None:
                    entry.outcome = _outcome(state, [])
                elif not isinstance(entry.error, (KirokuError, DiceError)):  # not a refusal
                    log.exception("a command on game %s failed", game_id, exc_info=entry.error)
                continue
            if job.answer is not None:
                keys.add((game_id, job.answer.key))
            pendings.setdefault(game_id, []).append(pending)
            states[game_id] = pending.state
            entry.outcome = _outcome(pending.state, records)

        if not stale:
            try:
                if pendings:
                    games.commit([p for ps in pendings.values() for p in ps])
                    self.batches += 1
            except AppendConflict:
                stale = True
            except BaseException as error:  # no store (StoreBusy): nothing was stored
                for entry in decided:
                    entry.outcome, entry.error = None, error
        if stale:  # nothing was stored: every job on its own, in order
            return jobs
        self.batched += len(decided)
        for entry in decided:
            if entry.error is not None:
                entry.job.settle(None, entry.error)
            else:
                assert entry.outcome is not None
                if entry.outcome.records:
                    service._announce(entry.outcome.state, entry.outcome.records)
                entry.job.settle(entry.outcome)
        return solo

    def _solo(self, job: Job) -> None:
        try:
            with self._service.games.write_lock([job.game_id]):
                outcome = self._service._append_with_retry(
                    job.game_id, job.decide, job.actor_of, job.answer
                )
        except BaseException as error:
            job.settle(None, error)
        else:
            job.settle(outcome)


def _outcome(state: GameState, records: list[Recorded]) -> Outcome:
    from domain.service import Outcome

    return Outcome(state=state, records=records, last_seq=state.version)
