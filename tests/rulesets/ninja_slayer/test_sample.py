"""The shipped sample game imports with `kiroku import`, verifies, and folds to the ending."""

from __future__ import annotations

from pathlib import Path

from replay.archive import read_archive
from replay.audit import audit
from tests.samples import imported

from .make_sample import SAMPLE


def test_the_sample_imports_and_ends_as_scripted(tmp_path: Path) -> None:
    with imported(SAMPLE, tmp_path) as (service, game_id):
        state = service.state(game_id)
        assert state.status == "ended" and state.ruleset == "ninja_slayer"
        characters = state.rules.characters
        assert characters["boss"].status == "爆発四散" and characters["boss"].revealed
        assert {characters[m].status for m in ("m1", "m2", "m3")} == {"removed"}
        assert characters["ben"].now.tairyoku == 1
        assert service.verify(game_id).ok


def test_the_sample_audits_clean_offline() -> None:
    with SAMPLE.open(encoding="utf-8") as lines:
        header, envelopes = read_archive(lines)
    assert header.ruleset == "ninja_slayer"
    report = audit(header.game_id, envelopes)
    assert report.verdict == "clean", report.summary
