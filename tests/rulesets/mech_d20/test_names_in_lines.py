"""Every line of the メカd20 sample games names its units (ruling MD-030): read through each
audience's eyes (spectators, the GM, each seat), no unit's id appears as a word in any line,
before or after the end's reveals, where the unit has a name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.model.audience import GM, PUBLIC
from domain.rulesets.mech_d20.state import MechState
from domain.rulesets.mech_d20.units import UnitAdded
from projections.views import ProjectionState, fold
from replay.archive import read_archive, records_from_envelopes
from replay.cursor import seen
from replay.history import History
from tests.samples import SAMPLES

MECH_SAMPLES = [pytest.param(path, id=path.stem) for path in sorted(SAMPLES.glob("mech-d20-*"))]


def history_of(sample: Path) -> History:
    with sample.open(encoding="utf-8") as lines:
        _header, envelopes = read_archive(lines)
    return History(records_from_envelopes([e for e in envelopes if isinstance(e, dict)]))


def as_word(unit_id: str) -> re.Pattern[str]:
    """The id as a word of its own: not inside a longer ASCII word (`aki` is not in `Aki`,
    nor `m1` in `m10`); Japanese next to it does not hide it (「akiの」)."""
    return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(unit_id)}(?![A-Za-z0-9_])")


def lines_read(history: History) -> dict[str, list[tuple[int, str]]]:
    """Each audience's lines, (seq, text), as it read them event by event."""
    final = history.final.game
    audiences = [PUBLIC, GM, *(f"seat:{seat.seat}" for seat in final.seats)]
    read: dict[str, list[tuple[int, str]]] = {audience: [] for audience in audiences}
    state: ProjectionState | None = None
    for recorded in history.records():
        state = fold(state, recorded)
        for audience in audiences:
            _event, line = seen(state.game, recorded, audience, history)
            read[audience].append((recorded.seq, line.text))
    return read


@pytest.mark.parametrize("sample", MECH_SAMPLES)
def test_no_line_says_a_named_unit_by_its_id(sample: Path) -> None:
    history = history_of(sample)
    rules = history.final.game.rules
    assert isinstance(rules, MechState)
    named = {unit.id: unit.name for unit in rules.units.values() if unit.name != unit.id}
    assert len(named) >= 3, named  # the sample's PCs and NPCs, each with a name
    read = lines_read(history)
    found = sorted(
        {
            f"{audience} #{seq}: {text}  ({unit_id} is {name})"
            for audience, lines in read.items()
            for seq, text in lines
            for unit_id, name in named.items()
            if as_word(unit_id).search(text)
        }
    )
    assert found == [], "\n".join(found[:40])
    # and the names are there instead: every unit is named in some line each audience reads
    for audience, lines in read.items():
        texts = "\n".join(text for _seq, text in lines)
        assert all(name in texts for name in named.values()), audience


FIELD_NAMES = re.compile(r"(?<![A-Za-z_])(?:active|defences|max_hp|end_effects|out)(?![A-Za-z_])")


@pytest.mark.parametrize("sample", MECH_SAMPLES)
def test_no_line_says_a_field_name(sample: Path) -> None:
    """What changed is said in the rulebook's words (全防御値 +3, 最大HP, 脱落), never by the
    event's field or value names."""
    read = lines_read(history_of(sample))
    found = sorted(
        {
            f"{audience} #{seq}: {text}"
            for audience, lines in read.items()
            for seq, text in lines
            if FIELD_NAMES.search(text)
        }
    )
    assert found == [], "\n".join(found[:40])


def test_an_npc_sheet_reads_as_a_sheet_once_revealed() -> None:
    """The GM reads the boss's sealed sheet in its line; a seat or a spectator reads only its
    name until the end, when the reveal reads as that line with the sheet — never its fields."""
    history = history_of(SAMPLES / "mech-d20-encounter.jsonl")
    added = next(
        r for r in history.records() if isinstance(r.event, UnitAdded) and r.event.id == "boss"
    )
    reveal = next(
        r
        for r in history.records()
        if r.envelope.type == "Revealed" and r.envelope.public["of_seq"] == added.seq
    )
    read = {audience: dict(lines) for audience, lines in lines_read(history).items()}
    sheet = "ガルムス (NPC) が戦場に — レベル6 【出力】6 【敏捷力】3 習熟ボーナス+3; AC"
    assert read[GM][added.seq].startswith(sheet)
    for audience in (PUBLIC, "seat:1"):
        assert read[audience][added.seq] == "ガルムス (NPC) が戦場に"
        shown = read[audience][reveal.seq]
        assert shown.startswith(sheet), shown
        assert "パワー: クローラッシュ [無限回]" in shown and "hp" in shown
        assert not re.search(r"[{}\"]|max_hp|surge_value|abilities|defences", shown)
