"""The shipped sample game imports with `kiroku import`, verifies, and folds to the ending."""

from __future__ import annotations

from pathlib import Path

from replay.archive import read_archive
from replay.audit import audit
from tests.samples import imported

from .make_campaign_sample import SAMPLE as CAMPAIGN
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


def test_the_campaign_sample_imports_audits_and_ends_as_scripted(tmp_path: Path) -> None:
    """samples/ninja-slayer-campaign.jsonl: two scenarios of a campaign in one game."""
    with CAMPAIGN.open(encoding="utf-8") as lines:
        header, envelopes = read_archive(lines)
    report = audit(header.game_id, envelopes)
    assert report.verdict == "clean", report.summary
    with imported(CAMPAIGN, tmp_path) as (service, game_id):
        state = service.state(game_id)
        rules = state.rules
        assert state.status == "ended" and (rules.scenario, rules.stage) == (2, "余暇")
        aki, ben = rules.characters["aki"], rules.characters["ben"]
        assert aki.injuries == {} and aki.sheet.karate == 6 and aki.sheet.manzatsu == 3
        assert [w.name for w in ben.sheet.weapons] == ["チャカガン"] and ben.sheet.manzatsu == 2
        assert rules.characters["boss"].status == "爆発四散" and rules.pool == 0
        texts = [note.text for note in aki.history]
        assert texts[0] == "●部位損傷:頭部 ×1" and texts[-1] == "●部位損傷:頭部を余暇での治療で除去"
        assert service.verify(game_id).ok
