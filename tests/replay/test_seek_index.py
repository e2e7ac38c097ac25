"""A seek reads the latest secrets from the history's index, not from every sealed body: the
index must say exactly what the full view says, at every seq, for every audience."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.model.records import Recorded
from projections.views import render
from replay import history as history_module
from replay.archive import read_archive, records_from_envelopes
from replay.cursor import ReplayCursor
from replay.history import History
from tests.samples import SAMPLES


def _sample(path: Path) -> list[Recorded]:
    with path.open(encoding="utf-8") as lines:
        _header, envelopes = read_archive(lines)
    return records_from_envelopes([e for e in envelopes if isinstance(e, dict)], strict=False)


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_the_index_reads_as_the_full_view_at_every_seq(
    sample: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # snapshots every 3 reveals, of the latest 4: the samples reveal tens, not thousands
    monkeypatch.setattr(history_module, "OPENED_BLOCK", 3)
    monkeypatch.setattr(history_module, "OPENED_SNAPSHOT", 4)
    history = History(_sample(sample))
    game = history.final.game
    audiences = ["public", "gm", "host", *(f"seat:{s.seat}" for s in game.seats)]
    for seq in range(1, history.last_seq + 1):
        state = history.state_at(seq)
        for audience in audiences:
            full = render(state, audience).secrets
            total, every = history.visible(audience, state)
            assert (total, every) == (len(full), full), (seq, audience)
            for latest in (0, 1, 3, 50):
                total, some = history.visible(audience, state, latest)
                assert total == len(full)
                assert some == full[len(full) - min(latest, len(full)) :], (seq, audience)


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_a_seek_names_the_secrets_its_event_changed(sample: Path) -> None:
    """What a frame says changed in the secrets is what the full views differ in."""
    history = History(_sample(sample))
    for audience in ("public", "seat:1", "gm"):
        cursor = ReplayCursor(history, audience)
        for seq in range(2, history.last_seq + 1):
            before = {i.seq: i for i in render(history.state_at(seq - 1), audience).secrets}
            after = render(history.state_at(seq), audience).secrets
            expected = [f"secrets.#{i.seq}" for i in after if before.get(i.seq) != i]
            got = [c.path for c in cursor.at(seq, 2).changes if c.path.startswith("secrets.")]
            assert got == expected, (seq, audience)
