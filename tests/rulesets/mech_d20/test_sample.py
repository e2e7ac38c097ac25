"""The shipped sample encounter audits clean offline and imports with `kiroku import`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from domain.config import store_env
from domain.service import GameService
from replay.archive import read_archive
from replay.audit import audit, render_text

from .make_sample import SAMPLE


def test_the_sample_audits_clean() -> None:
    with SAMPLE.open(encoding="utf-8") as lines:
        header, envelopes = read_archive(lines)
    assert header.ruleset == "mech_d20"
    report = audit(header.game_id, envelopes)
    assert report.verdict == "clean", report.summary
    assert report.declarations and {d.verdict for d in report.declarations} == {"legal"}
    text = render_text(report)
    assert "CLEAN" in text and "boss (AC)" in text


def test_the_sample_imports_and_ends_as_scripted(tmp_path: Path) -> None:
    db = tmp_path / "import.db"
    result = subprocess.run(
        [sys.executable, "-m", "api.cli", "import", str(SAMPLE), "--db", str(db)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    game_id = json.loads(SAMPLE.read_text(encoding="utf-8").splitlines()[0])["game_id"]
    service = GameService(store_env(sqlite_path=str(db)))
    try:
        state = service.state(game_id)
        assert state.status == "ended" and state.ruleset == "mech_d20"
        units = state.rules.units
        assert units["chika"].status == "修理不能" and units["boss"].hp == 60
        assert units["boss"].revealed and state.rules.encounter is None
        assert service.verify(game_id).ok
    finally:
        service.close()
