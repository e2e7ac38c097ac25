"""Every event type of every ruleset reads as a line people read, never as JSON.

Each type is described from an example of it — built from its own fields, or taken from the
sample games where its fields need more than a placeholder — once as a reader who may see its
sealed part and once as one who may not; and every event of the sample games is described for
a reader of each audience, before and after its secrets are revealed.
"""

from __future__ import annotations

import json
import re
import types
import typing
from collections.abc import Iterator
from typing import Annotated, Any, Literal, get_args, get_origin

import pytest
from pydantic import BaseModel, ValidationError

from domain.model.events import EVENT_TYPES, Event
from domain.model.logline import LogLine, describe, humanize
from domain.model.redaction import Disclosure, redact
from domain.rulesets import all_rulesets, ruleset_for
from replay.archive import read_archive, records_from_envelopes
from tests.lines import redacted
from tests.samples import SAMPLES

all_rulesets()
BUILT_IN = sorted(name for name, cls in EVENT_TYPES.items() if cls.__module__.startswith("domain."))
SEAT_NAMES = {1: "Aki", 2: "Ben", 3: "Chie"}
PLACEHOLDERS = ("x", "G", "A", "1", "a1", "1d6")  # a string that fits the field's pattern, if any


def example(annotation: Any, depth: int = 0) -> Any:
    """A JSON value of the annotated type: the first choice everywhere, short lists."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return example(get_args(annotation)[0], depth)
    if origin is Literal:
        return get_args(annotation)[0]
    if origin in (typing.Union, types.UnionType):
        options = [a for a in get_args(annotation) if a is not type(None)]
        return example(options[0], depth) if options and depth < 4 else None
    if origin in (tuple, list, set, frozenset):
        args = [a for a in get_args(annotation) if a is not Ellipsis]
        if origin is tuple and Ellipsis not in get_args(annotation):
            return [example(a, depth + 1) for a in args]
        return [example(args[0], depth + 1)] if depth < 4 else []
    if origin is dict:
        return {}
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return {
            name: _field(field.annotation, field.metadata, depth + 1)
            for name, field in annotation.model_fields.items()
        }
    return {bool: True, int: 1, float: 1.0}.get(annotation, "x")


def _field(annotation: Any, metadata: list[Any], depth: int) -> Any:
    pattern = next(
        (getattr(m, "pattern", None) for m in metadata if getattr(m, "pattern", None)), None
    )
    if pattern and annotation is str:
        return next((p for p in PLACEHOLDERS if re.fullmatch(pattern, p)), "x")
    return example(annotation, depth)


def _sample_events() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    for sample in sorted(SAMPLES.glob("*.jsonl")):
        with sample.open(encoding="utf-8") as lines:
            _header, envelopes = read_archive(lines)
        yield sample.stem, [e for e in envelopes if isinstance(e, dict)]


def instance(type_name: str) -> Event:
    cls = EVENT_TYPES[type_name]
    try:
        return cls.model_validate(example(cls))
    except ValidationError:
        for _name, envelopes in _sample_events():
            records = records_from_envelopes(envelopes)
            for recorded in records:
                if recorded.envelope.type == type_name:
                    return recorded.event
        raise


def readable(line: LogLine, type_name: str) -> None:
    assert line.text.strip(), type_name
    assert "{" not in line.text and "}" not in line.text, (type_name, line.text)
    assert "None" not in line.text, (type_name, line.text)
    # Not the default words every undescribed event falls back to.
    assert not line.text.startswith(humanize(type_name) + ":"), (type_name, line.text)


@pytest.mark.parametrize("type_name", BUILT_IN)
def test_every_event_type_has_a_readable_line(type_name: str) -> None:
    event = instance(type_name)
    ruleset = ruleset_for(type_name.split(".")[0] if "." in type_name else "freeform")
    secret = event.secret_part()
    for sees in (True, False) if event.has_secret() else (True,):
        seen = redacted(
            type_name, event.public_part(), seq=7, actor="seat:1", secret=secret, sees=sees
        )
        readable(
            describe(seen, "seat:1" if sees else "seat:2", SEAT_NAMES, ruleset.describe),
            type_name,
        )


@pytest.mark.parametrize("sample", [name for name, _envelopes in _sample_events()])
def test_every_line_of_the_sample_games_is_readable(sample: str) -> None:
    envelopes = dict(_sample_events())[sample]
    records = records_from_envelopes(envelopes)
    created = records[0].envelope.public
    ruleset = ruleset_for(created["ruleset"])
    names = {seat["seat"]: seat["name"] for seat in created["seats"]}
    sealed = {r.seq for r in records if r.envelope.sealed is not None}
    during = Disclosure(upto=len(records), unrevealed=sealed)  # as if nothing were revealed
    after = Disclosure(upto=len(records), unrevealed=set())
    audiences = ["public", "gm", *(f"seat:{n}" for n in names)]
    for recorded in records:
        for audience in audiences:
            for disclosure in (during, after):
                event = redact(recorded, audience, disclosure)
                line = describe(event, audience, names, ruleset.describe)
                if recorded.envelope.type != "Revealed":  # a reveal repeats a body in words
                    readable(line, recorded.envelope.type)
                assert "{" not in line.text, (sample, recorded.seq, json.dumps(line.text))
