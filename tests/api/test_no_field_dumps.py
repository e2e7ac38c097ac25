"""No line a person reads is a dump of fields: across each sample game, for every audience,
neither the table's line of an event (`/events`' `line`) nor the exported session log's
lines hold an internal field name, a seed, a long hex digest or a Python/JSON repr. A
reveal reads as the line it reveals (its roll with its result), never as its body's fields."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from api.pages.sessionlog import disclosure_after, render_chunks, session_log
from domain.model.logline import describe
from domain.model.records import Recorded
from domain.model.redaction import Disclosure, redact
from domain.rulesets import ruleset_for
from replay.archive import read_archive, records_from_envelopes
from replay.cursor import seen
from replay.history import History
from tests.samples import SAMPLES

LINE = re.compile(
    r'<p style="color:#[0-9a-f]{6};"><span> \[[^\]<]*\]</span> <span>[^<]*</span>'
    r" : <span>(.*?)</span></p>"
)
DUMP = re.compile(
    r"seeds|entropy|server_seed|salt|\b[0-9a-f]{16,}\b|\bNone\b|\bnull\b|\(\d+,\)"
    r"|\b[a-z]+_[a-z_]+\b"  # snake_case: a field name or an id
)


def _sample(path: Path) -> list[Recorded]:
    with path.open(encoding="utf-8") as lines:
        _header, envelopes = read_archive(lines)
    return records_from_envelopes([e for e in envelopes if isinstance(e, dict)], strict=False)


def _audiences(records: list[Recorded]) -> list[str]:
    game = History(records).final.game
    chair = ["host"] if game.host is not None else ["gm"]
    return ["public", *chair, *(f"seat:{s.seat}" for s in game.seats)]


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_no_table_or_log_line_is_a_field_dump(sample: Path) -> None:
    records = _sample(sample)
    history = History(records)
    disclosure = disclosure_after(records)
    ruleset = ruleset_for(history.final.game.ruleset)
    dumps: list[tuple[str, int | str, str]] = []
    for audience in _audiences(records):
        # the table's lines: each event as it read when it came, and after the end
        for recorded in records:
            state = history.state_at(recorded.seq).game
            seat_names = {seat.seat: seat.name for seat in state.seats}
            for disclosed in (Disclosure.of(state), disclosure):
                event = redact(recorded, audience, disclosed)
                text = describe(event, audience, seat_names, ruleset.describe).text
                if DUMP.search(text):
                    dumps.append((audience, recorded.seq, text))
            # the replay's line (a reveal, as the line it reveals)
            text = seen(history.final.game, recorded, audience, history)[1].text
            if DUMP.search(text):
                dumps.append((audience, f"replay {recorded.seq}", text))
        html = "".join(render_chunks(session_log(records, audience, disclosure)))
        for text in LINE.findall(html):
            if DUMP.search(text):
                dumps.append((audience, "log", text))
    assert not dumps, sorted({d[2] for d in dumps})[:40]
