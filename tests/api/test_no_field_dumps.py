"""No line a person reads is a dump of fields: across each sample game, for every audience,
neither the table's line of an event (`/events`' `line`) nor the exported session log's
lines hold an internal field name, a seed, a long hex digest or a Python/JSON repr. A
reveal reads as the line it reveals (its roll with its result), never as its body's fields."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.pages.sessionlog import disclosure_after, render_chunks, session_log
from api.present import event_out
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


def _replay_and_log_lines(
    records: list[Recorded], history: History, audience: str, disclosure: Disclosure
) -> Iterator[tuple[int | str, str]]:
    """(where, text) of every line `audience` reads in the replay (a reveal, as the line it
    reveals) and in the exported session log."""
    for recorded in records:
        yield (
            f"replay {recorded.seq}",
            seen(history.final.game, recorded, audience, history)[1].text,
        )
    html = "".join(render_chunks(session_log(records, audience, disclosure)))
    for text in LINE.findall(html):
        yield "log", text


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
        for where, text in _replay_and_log_lines(records, history, audience, disclosure):
            if DUMP.search(text):
                dumps.append((audience, where, text))
    assert not dumps, sorted({d[2] for d in dumps})[:40]


# The rulesets whose characters or units have ids (超人ロック's people are its seats).
PEOPLE_BY_ID = ("ninja_slayer", "mech_d20")


def _id_as_word(ids: set[str]) -> re.Pattern[str]:
    """One of `ids` standing alone: not inside a longer run of ASCII letters, digits, _ or -
    (「ben 体力-3」 and 「benに1ダメージ」 hold it; 「Ben」, 「benjamin」 do not)."""
    alternatives = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9_\-])(?:{alternatives})(?![A-Za-z0-9_\-])")


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_no_line_calls_a_person_by_an_id(sample: Path) -> None:
    """Issue 33 item 2, names never ids: every line the table (`/events`' `line`, as it came
    and after the end), the replay and the exported session log show, for every audience,
    says a ruleset's characters or units (its `names` hook) by name — never by an id such as
    `ben`, `m1`, `boss` — wherever the id is not itself a name."""
    records = _sample(sample)
    history = History(records)
    final = history.final.game
    ruleset = ruleset_for(final.ruleset)
    people = ruleset.people(final.rules, "gm")
    names = set(people.values())
    ids = {i for i in people if not any(i in name for name in names)}
    if final.ruleset not in PEOPLE_BY_ID:
        pytest.skip(f"{final.ruleset} has no characters or units by id")
    assert ids, f"{final.ruleset} declares no names (Ruleset.names) for its people"
    as_word = _id_as_word(ids)
    disclosure = disclosure_after(records)
    found: list[tuple[str, int | str, str]] = []
    for audience in _audiences(records):
        for recorded in records:
            for state in (history.state_at(recorded.seq).game, final):
                line = event_out(state, recorded, audience).line
                text = line.text if line is not None else ""
                if as_word.search(text):
                    found.append((audience, recorded.seq, text))
        for where, text in _replay_and_log_lines(records, history, audience, disclosure):
            if as_word.search(text):
                found.append((audience, where, text))
    assert not found, sorted({f[2] for f in found})[:40]
