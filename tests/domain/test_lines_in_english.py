"""A ruleset's log line reads in the page's language (issue 33, item 1): each is a message
whose key is its Japanese and whose English is in the catalogs, so the English page, session
log and replay read no Japanese but the names the players typed.

Every event type of each ruleset (from an example of it) and every line of the sample games,
for each audience, before and after its secrets are revealed, is read in English with its
plain-text arguments (names, typed texts) blanked: no Japanese may be left. A plain-text
argument that is a catalog key should have been a term (`N_`), read in the reader's language.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from api.pages import i18n
from domain.model.logline import LogLine, describe
from domain.model.messages import N_, Items, Message, encode, read, read_encoded, source
from domain.model.redaction import Disclosure, redact
from domain.rulesets import ruleset_for
from replay.archive import records_from_envelopes
from tests.domain.test_logline_every_event import BUILT_IN, SEAT_NAMES, _sample_events, instance
from tests.lines import redacted

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff60「」『』【】・、。]")
# Rulesets whose lines are not yet messages, listed so the list can only shrink.
NOT_YET: set[str] = set()
TYPES = [t for t in BUILT_IN if "." in t and t.split(".")[0] not in NOT_YET]
SAMPLES = [
    name for name, envelopes in _sample_events() if envelopes[0]["public"]["ruleset"] not in NOT_YET
]


def blanked(args: Any) -> Any:
    """The encoded arguments with every plain text (a name, a typed text) made `X`."""
    if isinstance(args, dict):
        return {key: blanked(value) for key, value in args.items()}
    if isinstance(args, list):
        return [blanked(value) for value in args]
    return "X"


def plain_texts(args: Any) -> list[str]:
    """The plain texts among a line's encoded arguments: not its terms, nor a nested message's
    key, nor a list's separator (`encode`'s shapes)."""
    if isinstance(args, dict):
        return [text for value in args.values() for text in _plain(value)]
    return []


def _plain(value: Any) -> list[str]:
    if isinstance(value, dict):
        if "term" in value:
            return []
        if "msg" in value:
            return plain_texts(value.get("args"))
        return [text for v in value.get("list", []) for text in _plain(v)]
    return [value] if isinstance(value, str) else []


def terms_kept(args: Any) -> Any:
    """`blanked`, but a term, a nested message's key and a list's separator kept as they are
    (and no arguments left as none)."""
    if args is None:
        return None
    if isinstance(args, dict):
        return {
            key: value if key in ("term", "msg", "sep") else terms_kept(value)
            for key, value in args.items()
        }
    if isinstance(args, list):
        return [terms_kept(value) for value in args]
    return "X"


def in_english(line: LogLine, where: str) -> None:
    if line.kind != "rules":
        return
    assert line.msg is not None, f"{where}: a ruleset's line as plain text: {line.text!r}"
    english = i18n.read_line(line.msg, terms_kept(line.args) if line.args else None, "en")
    assert not JAPANESE.search(english), f"{where}: {line.text!r} reads {english!r} in English"
    keys = i18n.CATALOGS["en"]
    for text in plain_texts(line.args):
        assert text not in keys or not JAPANESE.search(text), (
            f"{where}: {text!r} is a catalog key given as plain text (a term: N_)"
        )
    japanese = i18n.read_line(line.msg, line.args, "ja")
    assert japanese == line.text, f"{where}: the Japanese catalog reads {japanese!r}"


@pytest.mark.parametrize("type_name", TYPES)
def test_each_event_types_line_reads_in_english(type_name: str) -> None:
    event = instance(type_name)
    ruleset = ruleset_for(type_name.split(".")[0])
    secret = event.secret_part()
    for sees in (True, False) if event.has_secret() else (True,):
        seen = redacted(
            type_name, event.public_part(), seq=7, actor="seat:1", secret=secret, sees=sees
        )
        line = describe(seen, "seat:1" if sees else "seat:2", SEAT_NAMES, ruleset.describe)
        in_english(line, type_name)


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_line_of_the_sample_games_reads_in_english(sample: str) -> None:
    records = records_from_envelopes(dict(_sample_events())[sample])
    created = records[0].envelope.public
    ruleset = ruleset_for(created["ruleset"])
    names = {seat["seat"]: seat["name"] for seat in created["seats"]}
    sealed = {r.seq for r in records if r.envelope.sealed is not None}
    during = Disclosure(upto=len(records), unrevealed=sealed)
    after = Disclosure(upto=len(records), unrevealed=set())
    for recorded in records:
        for audience in ["public", "gm", *(f"seat:{n}" for n in names)]:
            for disclosure in (during, after):
                event = redact(recorded, audience, disclosure)
                line = describe(event, audience, names, ruleset.describe)
                in_english(line, f"{sample} #{recorded.seq} as {audience}")


def test_a_message_line_reads_in_each_language() -> None:
    """The kit's own example: メカd20's turn line, a message with a name in it."""
    from domain.rulesets.mech_d20.turns import TurnStarted

    started = redacted(TurnStarted.type, {"unit": "u1", "round": 2, "turn": 1}, seq=3)
    line = describe(
        started, "public", {}, ruleset_for("mech_d20").describe, people={"u1": "ギガント"}
    )
    assert line.text == "ギガント のターン (ラウンド 2)"
    assert i18n.read_line(line.msg or "", line.args, "en") == "ギガント's turn (round 2)"


def test_a_manual_roll_line_reads_in_each_language() -> None:
    roll = {"expression": "2D6", "manual": True, "result": {"explanation": "(2D6) ＞ 7[3,4] ＞ 7"}}
    rolled = redacted("DiceRolled", {"roll": roll}, seq=4, actor="seat:1")
    line = describe(rolled, "public", {1: "Aki"})
    assert line.text == "(2D6) ＞ 7[3,4] ＞ 7 (手動ダイス)"
    english = i18n.read_line(line.msg or "", line.args, "en")
    assert english == "(2D6) ＞ 7[3,4] ＞ 7 (manual dice)"


def test_encoded_arguments_read_as_the_message_does() -> None:
    """`encode` then `read_encoded` (what a page or the session log does with a line) reads the
    same words as `read` on the message itself, in each language: terms and nested messages
    translated, a list joined by the language's 「・」, a name as typed even if it is a key."""
    said = Message(
        N_("{unit} のターン (ラウンド {round})"),
        {
            "unit": Message(N_("{roll} (手動ダイス)"), {"roll": "移動フェイズ"}),
            "round": Items((N_("移動フェイズ"), "移動フェイズ", 3)),
        },
    )
    encoded = encode(said.params)
    assert encoded["round"] == {
        "list": [{"term": "移動フェイズ"}, "移動フェイズ", "3"],
        "sep": "・",
    }
    for language in ("ja", "en"):
        gettext = lambda key, lang=language: i18n.gettext(key, lang)  # noqa: E731
        assert read_encoded(said.key, encoded, gettext) == read(said.key, said.params, gettext)
    english = i18n.read_line(said.key, encoded, "en")
    assert english == "移動フェイズ (manual dice)'s turn (round Movement Phase, 移動フェイズ, 3)"
    assert i18n.read_line(said.key, encoded, "ja") == read(said.key, said.params, source)


def test_the_check_tells_a_plain_text_from_a_term() -> None:
    """`plain_texts` finds a catalog key given as plain text, not one given as a term or as a
    nested message's key; a line without arguments is read without any."""
    encoded = encode(
        {"plain": "移動フェイズ", "term": N_("移動フェイズ"), "nested": Message(N_("・"), {"n": 1})}
    )
    assert plain_texts(encoded) == ["移動フェイズ", "1"]
    assert terms_kept(None) is None


def test_a_seat_joined_without_a_name_reads_as_someone_taking_it() -> None:
    """Only an imported record holds a nameless seat: its join line names nobody (was
    「が席2に着いた」) and reads in each language."""
    joined = redacted("SeatJoined", {"seat": 2, "name": ""}, seq=3, actor="seat:2")
    line = describe(joined, "public", {})
    assert line.text == "席2に誰かが着いた"
    assert i18n.read_line(line.msg or "", line.args, "en") == "Someone took seat 2"
