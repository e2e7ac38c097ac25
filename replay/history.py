"""A recorded game in memory, with checkpoints of its folded state for fast seeks.

Folding is the only way to know what an audience saw after event n, so the history folds
once, keeps every CHECKPOINT_EVERY-th state, and answers `state_at(n)` by folding at most
CHECKPOINT_EVERY - 1 events from the nearest checkpoint.
"""

from __future__ import annotations

import bisect
import gc
from collections.abc import Iterable

from domain.model.errors import KirokuError
from domain.model.records import Recorded
from projections.views import ProjectionState, fold

CHECKPOINT_EVERY = 128


def settle() -> None:
    """For a process that loads a history once and keeps it (the replay tool): move what is
    alive now out of the cyclic collector's sight. A long game is hundreds of thousands of
    objects; without this, every full collection pauses a seek for a few hundred ms."""
    gc.collect()
    gc.freeze()


class History:
    def __init__(self, records: Iterable[Recorded] = ()) -> None:
        self.records: list[Recorded] = []
        self._checkpoints: list[int] = []  # seqs, ascending
        self._states: dict[int, ProjectionState] = {}
        self._last: ProjectionState | None = None
        self.extend(records)

    @property
    def last_seq(self) -> int:
        return len(self.records)

    @property
    def final(self) -> ProjectionState:
        if self._last is None:
            raise KirokuError("empty_history", "This game has no events.")
        return self._last

    def extend(self, records: Iterable[Recorded]) -> None:
        """Append newly recorded events (a live game grows while it is replayed)."""
        for recorded in records:
            if recorded.seq != len(self.records) + 1:
                raise KirokuError(
                    "history_gap",
                    f"Event {recorded.seq} does not follow event {len(self.records)}.",
                )
            self.records.append(recorded)
            self._last = fold(self._last, recorded)
            if recorded.seq % CHECKPOINT_EVERY == 0 or recorded.seq == 1:
                self._checkpoints.append(recorded.seq)
                self._states[recorded.seq] = self._last

    def _check(self, seq: int) -> None:
        if not 1 <= seq <= self.last_seq:
            raise KirokuError(
                "seq_out_of_range", f"This game has events 1 to {self.last_seq}; not {seq}."
            )

    def state_at(self, seq: int) -> ProjectionState:
        """The folded state right after event `seq` (1 ≤ seq ≤ last_seq)."""
        self._check(seq)
        if seq == self.last_seq:
            return self.final
        start = self._checkpoints[bisect.bisect_right(self._checkpoints, seq) - 1]
        state = self._states[start]
        for recorded in self.records[start:seq]:
            state = fold(state, recorded)
        return state

    def record(self, seq: int) -> Recorded:
        self._check(seq)
        return self.records[seq - 1]
