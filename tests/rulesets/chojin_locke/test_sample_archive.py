"""The shipped sample game audits clean offline and imports into an empty store."""

from __future__ import annotations

from pathlib import Path

from domain.application.bootstrap import bootstrap
from domain.application.settings import store_env
from replay.archive import read_archive, records_from_envelopes
from replay.audit import audit
from tests.rulesets.chojin_locke.make_sample import SAMPLE


def test_the_sample_audits_clean_and_imports(tmp_path: Path) -> None:
    with SAMPLE.open(encoding="utf-8") as lines:
        header, envelopes = read_archive(lines)
    assert header.ruleset == "chojin_locke"
    report = audit(header.game_id, envelopes)
    assert report.verdict == "clean", report.summary
    assert report.declarations and all(
        d.verdict in ("legal", "understated") for d in report.declarations
    )

    service = bootstrap(env=store_env(sqlite_path=str(tmp_path / "sample.db")))
    readable = [e for e in envelopes if isinstance(e, dict)]
    state = service.import_game(records_from_envelopes(readable))
    assert state.status == "ended" and state.version == header.events
    assert service.verify(header.game_id).ok
    service.close()
