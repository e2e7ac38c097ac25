"""The encounter on a battle map over HTTP, and its shipped sample: it audits clean offline,
imports with `kiroku import`, and ends where the script left every unit."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from replay.archive import read_archive
from replay.audit import audit
from tests.samples import imported

from .make_map_sample import SAMPLE
from .map_script import new_table, play, run
from .script import Script
from .test_secrecy import normalised


def test_the_map_encounter_plays_over_http(client: TestClient) -> None:
    table, seqs = run(client)
    boss = table.client.get(f"/games/{table.game_id}/view").json()["rules"]["units"]["boss"]
    assert boss["position"] == {"x": 10, "y": 5, "altitude": 0}
    scout = next(e for e in table.events("public") if e["seq"] == seqs["scout_move"])
    assert scout["secret"] is not None  # revealed: its square is public now


def test_the_map_sample_audits_clean() -> None:
    with SAMPLE.open(encoding="utf-8") as lines:
        header, envelopes = read_archive(lines)
    assert header.ruleset == "mech_d20"
    report = audit(header.game_id, envelopes)
    assert report.verdict == "clean", report.summary
    assert report.declarations and {d.verdict for d in report.declarations} == {"legal"}


def test_the_map_sample_imports_with_every_unit_where_the_script_left_it(tmp_path: Path) -> None:
    with imported(SAMPLE, tmp_path) as (service, game_id):
        state = service.state(game_id)
        units = state.rules.units
        assert state.rules.grid is not None and state.rules.grid.width == 12
        positions = {uid: u.position.square for uid, u in units.items() if u.position}
        assert positions == {"aki": (7, 4), "ben": (1, 6), "boss": (10, 5), "scout": (10, 3)}
        assert not units["scout"].hidden
        assert service.verify(game_id).ok


def test_no_seat_receives_a_byte_that_depends_on_the_hidden_scout_s_square(
    client: TestClient,
) -> None:
    """The map encounter over HTTP twice, the hidden 偵察機 placed and moved to different
    squares: every byte the seats and the public receive (responses, refusals, views, events
    after each step) is the same in both once ids, hashes and times are set aside."""
    runs = []
    for scout, scout_to in (((10, 1), (10, 3)), ((11, 0), (11, 2))):
        script = Script(new_table(client), watch=True)
        play(script, scout, scout_to)
        runs.append(script)
    first, second = runs
    assert [(a, w) for a, w, _ in first.seen] == [(a, w) for a, w, _ in second.seen]
    for (audience, what, one), (_, _, other) in zip(first.seen, second.seen, strict=True):
        assert normalised(one) == normalised(other), (audience, what)
    # The GM's views do differ: the comparison covers what could have leaked.
    assert first.unit("scout")["position"] != second.unit("scout")["position"]
