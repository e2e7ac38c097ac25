"""An event as an audience may see it, with the line people read: the one output shape of
/events, /commands and /stream."""

from __future__ import annotations

from collections.abc import Iterable

from api.schemas import EventOut
from domain.application.service import GameService
from domain.model.game import GameState
from domain.model.records import Recorded
from replay.cursor import Records, revealed_seq, seen

HEAD_HEADER = "Kiroku-Head"
# Wanted seqs this close are read in one read, the few between them read through: a game's
# end reveals sealed events all over the game, and one read each would be hundreds of reads.
# A read costs about as much as 8 rows more (PostgreSQL: 0.33 ms a read, 25–60 µs a row;
# SQLite: 0.06 ms, 22 µs; a 404-event sample game, this machine).
READ_THROUGH = 8


def head_header(state: GameState) -> dict[str, str]:
    """`Kiroku-Head: <seq> <hash>`: the game's last event when the answer was made. A client
    that notes it can later ask `/verify?seq=…&hash=…` whether the log still holds it — the one
    thing the chain cannot show by itself is events deleted from its end."""
    return {HEAD_HEADER: f"{state.version} {state.head}"}


def event_out(
    state: GameState, recorded: Recorded, audience: str, revealed: Records | None = None
) -> EventOut:
    """Redacted first; the line is described from the redacted event alone, so it can never
    say more than the audience may see. A reveal, given the `revealed` records
    (`RevealedRecords`), reads as the line of the event it reveals, as the replay reads it
    (`replay.cursor.seen`): that event redacted for the audience with the same disclosure."""
    event, line = seen(state, recorded, audience, revealed)
    return EventOut(**event, line=line)


def reveals_any(records: Iterable[Recorded]) -> bool:
    """Does any of `records` read as the line of another event (so needs `RevealedRecords`)?"""
    return any(revealed_seq(recorded) is not None for recorded in records)


class RevealedRecords:
    """The events the reveals among `records` reveal, for their lines: read from the store
    once, when made (blocking: make it off the event loop), in as few reads as reasonable —
    none for those among `records` themselves — and kept, so describing them for every
    audience reads nothing more."""

    def __init__(self, service: GameService, game_id: str, records: Iterable[Recorded]) -> None:
        self._service = service
        self._game_id = game_id
        self._found: dict[int, Recorded] = {}
        reveals: dict[int, int] = {}  # the seq revealed → the reveal's seq
        given: dict[int, Recorded] = {}
        for recorded in records:
            given[recorded.seq] = recorded
            of_seq = revealed_seq(recorded)
            if of_seq is not None:
                reveals[of_seq] = recorded.seq
        for of_seq in reveals:
            if of_seq in given:
                self._found[of_seq] = given[of_seq]
        wanted = sorted(reveals.keys() - self._found.keys())
        for first, last in _runs(wanted, READ_THROUGH):
            for recorded in service.records(game_id, after=first - 1, upto=last):
                if recorded.seq in reveals:
                    self._found[recorded.seq] = recorded

    def record(self, seq: int) -> Recorded:
        found = self._found.get(seq)
        if found is None:  # not among the reveals it was made for: read it (once)
            found = next(iter(self._service.records(self._game_id, after=seq - 1, upto=seq)))
            self._found[seq] = found
        return found


def _runs(seqs: list[int], gap: int) -> Iterable[tuple[int, int]]:
    """Ascending `seqs` as (first, last) ranges, two seqs at most `gap` apart in one range."""
    if not seqs:
        return
    first = last = seqs[0]
    for seq in seqs[1:]:
        if seq - last > gap:
            yield first, last
            first = seq
        last = seq
    yield first, last
