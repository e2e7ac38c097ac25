"""A recorded game in memory, with checkpoints of its folded state for fast seeks.

Folding is the only way to know what an audience saw after event n, so the history folds
once, keeps every CHECKPOINT_EVERY-th state, and answers `state_at(n)` by folding at most
CHECKPOINT_EVERY - 1 events from the nearest checkpoint.

Which sealed bodies an audience may read after event n is indexed beside (`visible`): a
seek picks the latest few a page shows by bisection, without reading every sealed body of
the game, so its cost does not grow with the game.

The events themselves are kept as JSON text, not as decoded models: a decoded
event is some twenty objects that the cycle collector walks on every full collection, and a
server keeps up to `KIROKU_REPLAY_EVENTS` of them warm (docs/soak.md: the histories were half
of everything it walked, and each full collection paused every request for hundreds of ms).
A text is one object the collector never looks at. The few events a seek reads are decoded
again (a fold from a checkpoint is at most CHECKPOINT_EVERY - 1 of them), and the latest
decoded are shared by every history of the process (`DECODED_EVENTS`).
"""

from __future__ import annotations

import bisect
import gc
import heapq
import itertools
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator

from domain.model import codec
from domain.model.audience import may_see
from domain.model.errors import KirokuError
from domain.model.lifecycle_events import Revealed
from domain.model.records import Recorded
from projections.views import ProjectionState, SecretItem, fold

CHECKPOINT_EVERY = 128
RECENT_STATES = 8  # states kept beside the checkpoints: a page asks the frame and the log at once
OPENED_BLOCK = 512  # reveals between two snapshots of the latest revealed seqs
OPENED_SNAPSHOT = 256  # how many of the latest revealed seqs a snapshot keeps
# Decoded events kept for all the histories of a process: a replay page reads its frame, the
# fold up to it and a log of LOG_WINDOW (200) lines, some of them reveals of older events.
DECODED_EVENTS = 1024


def settle() -> None:
    """For a process that loads a history once and keeps it (the replay tool): move what is
    alive now out of the cyclic collector's sight. A long game is hundreds of thousands of
    objects; without this, every full collection pauses a seek for a few hundred ms."""
    gc.collect()
    gc.freeze()


class _Decoded:
    """The events lately decoded from the histories' texts, the least recently read let go."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._records: OrderedDict[tuple[int, int], Recorded] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, history: int, seq: int, text: str, *, keep: bool = True) -> Recorded:
        """Event `seq` of a history, decoded from `text` unless it is kept; `keep=False` for a
        pass over a whole game, which would push out what the seeks read."""
        key = (history, seq)
        with self._lock:
            found = self._records.get(key)
            if found is not None:
                self._records.move_to_end(key)
                return found
        recorded = codec.decode(text)  # outside the lock: decoding is the slow part
        if not keep:
            return recorded
        with self._lock:
            self._records[key] = recorded
            while len(self._records) > self.size:
                self._records.popitem(last=False)
        return recorded


_decoded = _Decoded(DECODED_EVENTS)
_serials = itertools.count()


class History:
    def __init__(self, records: Iterable[Recorded] = ()) -> None:
        self._serial = next(_serials)  # its events' key in `_decoded`
        self._texts: list[str] = []  # event n as JSON (`codec.pack`) at n - 1
        self._checkpoints: list[int] = []  # seqs, ascending
        self._states: dict[int, ProjectionState] = {}
        self._last: ProjectionState | None = None
        self._recent: OrderedDict[int, ProjectionState] = OrderedDict()
        self._sealed_seqs: list[int] = []  # every sealed event's seq, ascending
        self._sealed_to: list[tuple[str, ...]] = []  # …and its audience
        self._reveals: list[tuple[int, int]] = []  # (reveal's seq, the seq it first reveals)
        self._revealed: set[int] = set()
        self._visible: dict[str, _Visible] = {}
        self._lock = threading.Lock()
        self.extend(records)

    @property
    def last_seq(self) -> int:
        return len(self._texts)

    @property
    def final(self) -> ProjectionState:
        if self._last is None:
            raise KirokuError("empty_history", "This game has no events.")
        return self._last

    def extend(self, records: Iterable[Recorded]) -> None:
        """Append newly recorded events (a live game grows while it is replayed)."""
        for recorded in records:
            if recorded.seq != self.last_seq + 1:
                raise KirokuError(
                    "history_gap",
                    f"Event {recorded.seq} does not follow event {self.last_seq}.",
                )
            self._texts.append(codec.pack(recorded))
            self._last = fold(self._last, recorded)
            sealed = recorded.envelope.sealed
            if sealed is not None:
                self._sealed_seqs.append(recorded.seq)
                self._sealed_to.append(tuple(sealed.audience))
            event = recorded.event
            if (
                isinstance(event, Revealed)
                and event.of_seq not in self._revealed
                and event.of_seq in self._last.sealed
            ):
                self._revealed.add(event.of_seq)
                self._reveals.append((recorded.seq, event.of_seq))
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
        known = self._recent.get(seq)
        if known is not None:
            return known
        start = self._checkpoints[bisect.bisect_right(self._checkpoints, seq) - 1]
        state = self._states[start]
        for number in range(start + 1, seq + 1):
            state = fold(state, self.record(number))
        with self._lock:
            self._recent[seq] = state
            while len(self._recent) > RECENT_STATES:
                self._recent.popitem(last=False)
        return state

    def visible(
        self, audience: str, state: ProjectionState, latest: int | None = None
    ) -> tuple[int, list[SecretItem]]:
        """How many sealed bodies `audience` may read at `state` (a state of this history),
        and those bodies, in seq order: all of them, or only the `latest` (by seq), found by
        bisection in this audience's index rather than by reading every sealed body."""
        seq = state.game.version
        with self._lock:
            index = self._visible.get(audience)
            if index is None:
                index = self._visible[audience] = _Visible(audience)
            index.catch_up(self)
            direct = bisect.bisect_right(index.direct, seq)
            opened = bisect.bisect_right(index.opened_at, seq)
            if latest is None:
                chosen = sorted(index.direct[:direct] + index.opened[:opened])
            else:
                candidates = index.direct[max(0, direct - latest) : direct]
                candidates += index.latest_opened(opened, latest)
                chosen = sorted(heapq.nlargest(latest, candidates))
        return direct + opened, [state.sealed[number] for number in chosen]

    def record(self, seq: int) -> Recorded:
        self._check(seq)
        return _decoded.get(self._serial, seq, self._texts[seq - 1])

    def records(self, after: int = 0) -> Iterator[Recorded]:
        """The events after seq `after`, in order: a pass over the game (none of them kept
        decoded)."""
        for seq in range(after + 1, self.last_seq + 1):
            yield _decoded.get(self._serial, seq, self._texts[seq - 1], keep=False)


class _Visible:
    """One audience's index of the sealed bodies it may read: those addressed to it (by their
    seq) and those revealed to it later (by the reveal's seq), each list ascending."""

    def __init__(self, audience: str) -> None:
        self.audience = audience
        self.direct: list[int] = []  # sealed seqs it reads from the start
        self.opened_at: list[int] = []  # the seqs of the reveals of the others…
        self.opened: list[int] = []  # …and the seqs they reveal
        # every OPENED_BLOCK reveals: the latest OPENED_SNAPSHOT seqs revealed so far
        self.snapshots: list[list[int]] = []
        self._sealed = 0  # how far it has read the history's lists
        self._reveals = 0

    def catch_up(self, history: History) -> None:
        known = len(history._sealed_to)  # appended after its seq: both lists hold this many
        for number, audience in zip(
            history._sealed_seqs[self._sealed : known],
            history._sealed_to[self._sealed : known],
            strict=True,
        ):
            if may_see(self.audience, audience, revealed=False):
                self.direct.append(number)
        self._sealed = known
        reveals = history._reveals[self._reveals :]
        for at, number in reveals:
            if self.direct and number <= self.direct[-1]:
                found = bisect.bisect_left(self.direct, number)
                if found < len(self.direct) and self.direct[found] == number:
                    continue  # it read that one already
            self.opened_at.append(at)
            self.opened.append(number)
            if len(self.opened) % OPENED_BLOCK == 0:
                previous = self.snapshots[-1] if self.snapshots else []
                latest = heapq.nlargest(OPENED_SNAPSHOT, previous + self.opened[-OPENED_BLOCK:])
                self.snapshots.append(sorted(latest))
        self._reveals += len(reveals)

    def latest_opened(self, count: int, latest: int) -> list[int]:
        """The `latest` largest seqs among the first `count` reveals: from a snapshot and the
        reveals after it (at most OPENED_BLOCK), or, asked for more than a snapshot keeps, from
        all of them."""
        block = count // OPENED_BLOCK
        if block and latest <= OPENED_SNAPSHOT:
            rest = self.opened[block * OPENED_BLOCK : count]
            return heapq.nlargest(latest, self.snapshots[block - 1] + rest)
        return heapq.nlargest(latest, self.opened[:count])
