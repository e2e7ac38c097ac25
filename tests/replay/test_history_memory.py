"""A replay history keeps its events as text: out of the cycle collector's sight, and read back
as the very records it was given (docs/soak.md: decoded events in warm histories were half of
what a server's full collections walked)."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from domain.model import codec
from domain.model.records import Recorded
from projections.views import fold
from replay.archive import records_from_envelopes
from replay.cursor import ReplayCursor, marks, seen
from replay.history import DECODED_EVENTS, History
from tests.longgame import long_game_records
from tests.samples import SAMPLES


def _sample_records(sample: Path) -> list[Recorded]:
    lines = sample.read_text(encoding="utf-8").splitlines()[1:]
    return records_from_envelopes([json.loads(line)["envelope"] for line in lines])


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_event_of_every_ruleset_reads_back_as_it_was_given(sample: Path) -> None:
    records = _sample_records(sample)
    for recorded in records:
        assert codec.decode(codec.pack(recorded)) == recorded
    history = History(records)
    assert [history.record(n) for n in range(1, len(records) + 1)] == records
    assert list(history.records()) == records
    assert list(history.records(after=len(records) - 3)) == records[-3:]


def test_a_history_leaves_its_events_out_of_the_collectors_sight() -> None:
    long_game_records(10)  # the rulesets' first-use objects, before counting
    gc.collect()
    before = len(gc.get_objects())
    history = History(long_game_records(6_000)[1])
    gc.collect()
    kept = len(gc.get_objects()) - before
    # A decoded event is a dozen to twenty-odd tracked objects; a history keeps the states at
    # its checkpoints, its seek indexes and the shared window of decoded events: a few an event.
    assert kept < 4 * history.last_seq, kept


def test_a_seek_folds_the_decoded_events_to_the_state_a_full_fold_reaches() -> None:
    _, records = long_game_records(3_000)
    history = History(records)
    states, state = [], None
    for recorded in records:
        state = fold(state, recorded)
        states.append(state)
    marks(history)  # a pass over the whole game first, longer than the decoded window
    assert history.last_seq > DECODED_EVENTS
    for seq in (1, 2, 127, 128, 129, 1_500, 2_999, 3_000):
        assert history.state_at(seq) == states[seq - 1]
    cursor = ReplayCursor(history, "seat:2")
    assert [line for _, line in cursor.log(2_000, count=3)] == [
        seen(states[1_999].game, records[n - 1], "seat:2", history)[1]
        for n in (1_998, 1_999, 2_000)
    ]
