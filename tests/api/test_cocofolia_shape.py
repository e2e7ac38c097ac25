"""The session log read as the public ココフォリア log tools read it.

Three ways the tools find lines, each over every sample game: a regex anchored on
`<p style="color:#rrggbb;">`, a `body > p` selection (BeautifulSoup over html5lib, which parses
as a browser does), and "every `<p>` has three spans". Each gets every line of the game, in
order, with its tab, speaker, colour and text — checked against the events themselves.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from api.pages.sessionlog import disclosure_after, render, session_log
from replay.archive import read_archive, records_from_envelopes
from tests.samples import SAMPLES
from tests.table import Table

SAMPLE_FILES = sorted(SAMPLES.glob("*.jsonl"))
# What the regex-based tools use: the opening tag exactly, then the three spans.
TOOL_LINE = re.compile(
    r'<p style="color:(#[0-9a-fA-F]{6});">\s*<span>\s*\[([^\]]*)\]\s*</span>\s*'
    r"<span>(.*?)</span>\s*:\s*<span>(.*?)</span>\s*</p>",
    re.S,
)
TABS = {"メイン": "main", "情報": "info", "雑談": "other"}


def unescape(text: str) -> str:
    return BeautifulSoup(text.replace("<br>", "\n"), "html5lib").get_text()


def sample_log(path: Path) -> tuple[str, list[dict[str, Any]]]:
    with path.open(encoding="utf-8") as lines:
        _header, envelopes = read_archive(lines)
    readable = [e for e in envelopes if isinstance(e, dict)]
    records = records_from_envelopes(readable)
    html, _csp = render(session_log(records, "public", disclosure_after(records)))
    return html, readable


def names_of(envelopes: list[dict[str, Any]]) -> dict[str, str]:
    names = {"gm": "GM", "host": "Host", "system": "System"}
    for seat in envelopes[0]["public"].get("seats", []):
        names[f"seat:{seat['seat']}"] = seat["name"]
    for envelope in envelopes:
        if envelope["type"] == "SeatJoined" and envelope["public"].get("name"):
            names[f"seat:{envelope['public']['seat']}"] = envelope["public"]["name"]
    return names


def revealed_lines(envelopes: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Each reveal's seq → the sealed event whose line it reads as (the first reveal of an
    event other than the dice seed's)."""
    found: dict[int, dict[str, Any]] = {}
    done: set[int] = set()
    for envelope in envelopes:
        of = envelope["public"].get("of_seq") if envelope["type"] == "Revealed" else None
        if (
            isinstance(of, int)
            and 1 < of < envelope["seq"]
            and of not in done
            and envelopes[of - 1].get("sealed")
        ):
            done.add(of)
            found[envelope["seq"]] = envelopes[of - 1]
    return found


def in_line_order(
    envelopes: list[dict[str, Any]], reads_as: dict[int, dict[str, Any]]
) -> list[dict[str, Any]]:
    """The events in the file's order: a sealed event's first reveal right after its line."""
    under = {revealed["seq"]: reveal for reveal, revealed in reads_as.items()}
    ordered = []
    for envelope in envelopes:
        if envelope["seq"] in reads_as:
            continue
        ordered.append(envelope)
        if envelope["seq"] in under:
            ordered.append(envelopes[under[envelope["seq"]] - 1])
    return ordered


def check_against_events(
    lines: list[tuple[str, str, str, str]], envelopes: list[dict[str, Any]]
) -> None:
    """Each (colour, tab, speaker, text) is the event of its place (in seq order, but for a
    sealed event's reveal, right under its line): who says it, in which tab, and — where the
    line is the event's own words — what."""
    assert len(lines) == len(envelopes)
    names = names_of(envelopes)
    reads_as = revealed_lines(envelopes)
    for (colour, tab, speaker, text), envelope in zip(
        lines, in_line_order(envelopes, reads_as), strict=True
    ):
        said = reads_as.get(envelope["seq"], envelope)  # a reveal reads as the line it reveals
        public = said["public"]
        assert re.fullmatch(r"#[0-9a-f]{6}", colour)
        if public.get("color"):
            assert colour == public["color"].lower()
        expected_tab = "メイン" if said["type"] == "RulingMade" else public.get("tab", "メイン")
        assert tab == TABS.get(expected_tab, expected_tab), envelope["seq"]
        assert speaker == (public.get("speaker") or names[said["actor"]]), envelope["seq"]
        public = envelope["public"]
        if envelope["type"] == "Said" and isinstance(public.get("text"), str):
            assert text == public["text"]
        roll = public.get("roll") if envelope["type"] == "DiceRolled" else None
        if roll:  # ココフォリア's roll: the command first, then BCDice's result
            command = " ".join(filter(None, [roll["expression"], roll.get("comment")]))
            assert text.startswith(f"{command} {roll['result']['explanation']}"), text
        assert text.strip()


@pytest.fixture(scope="module", params=[p.stem for p in SAMPLE_FILES])
def sample(request: pytest.FixtureRequest) -> tuple[str, list[dict[str, Any]]]:
    return sample_log(SAMPLES / f"{request.param}.jsonl")


def test_the_regex_tools_read_every_line(sample: tuple[str, list[dict[str, Any]]]) -> None:
    html, envelopes = sample
    lines = [
        (colour, tab, unescape(name), unescape(text))
        for colour, tab, name, text in TOOL_LINE.findall(html)
    ]
    check_against_events(lines, envelopes)
    # Every `<p` of the file opens exactly so: no other paragraph for a tool to stumble on.
    assert len(re.findall(r"<p[\s>/]", html)) == len(envelopes)
    assert "<progress" not in html and "<pre" not in html
    assert len(re.findall(r'<p style="color:#[0-9a-fA-F]{6};">', html)) == len(envelopes)


def test_body_p_and_three_spans_read_every_line(sample: tuple[str, list[dict[str, Any]]]) -> None:
    html, envelopes = sample
    soup = BeautifulSoup(html, "html5lib")
    paragraphs = soup.select("body > p")
    assert paragraphs == soup.find_all("p")  # nothing else in the body is a <p>
    lines = []
    for p in paragraphs:
        assert list(p.attrs) == ["style"]
        spans = p.find_all("span", recursive=False)
        assert len(spans) == 3 and len(p.find_all(recursive=False)) == 3
        tab = re.fullmatch(r" \[(.*)\]", spans[0].get_text())
        assert tab is not None
        assert (
            p.get_text() == f"{spans[0].get_text()} {spans[1].get_text()} : {spans[2].get_text()}"
        )
        colour = re.fullmatch(r"color:(#[0-9a-fA-F]{6});", str(p["style"]))
        assert colour is not None
        text = "\n".join(s for s in spans[2].strings)
        lines.append((colour.group(1), tab.group(1), spans[1].get_text(), text))
    check_against_events(lines, envelopes)


def test_the_ccfolia_title_and_file_name_are_an_option(client: TestClient) -> None:
    table = Table.create(client, title="古い屋敷 第1話")
    table.join_all()
    table.do("gm", {"type": "say", "text": "ようこそ"})
    plain = client.get(f"/games/{table.game_id}/log.html")
    assert "<title>古い屋敷 第1話 - logs</title>" in plain.text
    assert f'filename="kiroku-{table.game_id}.html"' in plain.headers["content-disposition"]
    ccfolia = client.get(f"/games/{table.game_id}/log.html?name=ccfolia")
    assert "<title>ccfolia - logs</title>" in ccfolia.text
    disposition = ccfolia.headers["content-disposition"]
    assert (
        "filename*=UTF-8''%E5%8F%A4%E3%81%84%E5%B1%8B%E6%95%B7%20%E7%AC%AC1%E8%A9%B1%5Ball%5D.html"
        in disposition
    )
    assert client.get(f"/games/{table.game_id}/log.html?name=other").status_code == 422
