"""One read of a game's new events from the store, encoded at most once per audience."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from api.live.sse import event_message
from api.present import RevealedRecords
from domain.application.service import GameService
from domain.model.game import GameState
from domain.model.records import Recorded

Message = tuple[int, bytes]  # (seq, encoded SSE message)


@dataclass
class Batch:
    """The events with `after` < seq <= `last`, and a state that covers every one of them."""

    after: int
    last: int
    state: GameState
    records: list[Recorded]
    # the events its reveals reveal, read with it: encoding for an audience reads nothing
    revealed: RevealedRecords | None = None
    _encoded: dict[str, list[Message]] = field(default_factory=dict, repr=False)

    def messages(self, audience: str) -> list[Message]:
        encoded = self._encoded.get(audience)
        if encoded is None:
            encoded = [
                (r.seq, event_message(self.state, r, audience, self.revealed)) for r in self.records
            ]
            self._encoded[audience] = encoded
        return encoded

    def kept(self) -> Encoded:
        """What a feed keeps of it: its messages as encoded so far, without its events."""
        return Encoded(self.after, self.last, {a: tuple(m) for a, m in self._encoded.items()})


@dataclass(frozen=True, slots=True)
class Encoded:
    """What a game's feed keeps of a batch: its messages for the audiences that followed the
    game when it was read. Not its events nor its state: a decoded event is some twenty objects
    that the cycle collector walks at every full collection, and a feed keeping them for the
    rare stream of another audience made them a quarter of a server's tracked heap
    (docs/soak.md). Such a stream reads those events from the store instead. Tuples of bytes,
    not lists: the collector stops tracking a tuple (and then a dict) that holds nothing it
    tracks, so what a feed keeps drops out of its full collections."""

    after: int
    last: int
    messages: Mapping[str, tuple[Message, ...]]


def read_batch(service: GameService, game_id: str, after: int | None, limit: int) -> Batch:
    """Blocking (run it in a worker thread). `after=None` reads only the current head.

    The state is read first: redacting with a state older than an event would treat a sealed
    event it does not know yet as revealed. Appends are contiguous by seq, so everything up to
    the state's version is already in the store.
    """
    state = service.state(game_id)
    if after is None:
        return Batch(after=state.version, last=state.version, state=state, records=[])
    upto = min(state.version, after + limit)
    if upto <= after:
        return Batch(after=after, last=after, state=state, records=[])
    records = list(service.records(game_id, after=after, upto=upto))
    last = records[-1].seq if records else after
    revealed = RevealedRecords(service, game_id, records)
    return Batch(after=after, last=last, state=state, records=records, revealed=revealed)
