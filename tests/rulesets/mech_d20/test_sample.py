"""The shipped sample encounter audits clean offline and imports with `kiroku import`."""

from __future__ import annotations

from pathlib import Path

from replay.archive import read_archive
from replay.audit import audit, render_text
from tests.samples import imported

from .make_sample import SAMPLE


def test_the_sample_audits_clean() -> None:
    with SAMPLE.open(encoding="utf-8") as lines:
        header, envelopes = read_archive(lines)
    assert header.ruleset == "mech_d20"
    report = audit(header.game_id, envelopes)
    assert report.verdict == "clean", report.summary
    assert report.declarations and {d.verdict for d in report.declarations} == {"legal"}
    text = render_text(report)
    # units by name, the defence in the rulebook's words (「対AC」), never an id
    assert "CLEAN" in text and "→ ガルムス (対AC)" in text and "ガルムスの半壊/脱落 (" in text
    assert not any(f" {unit} " in text or f"{unit}'s" in text for unit in ("boss", "chika"))


def test_the_sample_imports_and_ends_as_scripted(tmp_path: Path) -> None:
    with imported(SAMPLE, tmp_path) as (service, game_id):
        state = service.state(game_id)
        assert state.status == "ended" and state.ruleset == "mech_d20"
        units = state.rules.units
        assert units["chika"].status == "修理不能" and units["boss"].hp == 60
        assert units["boss"].revealed and state.rules.encounter is None
        assert service.verify(game_id).ok
