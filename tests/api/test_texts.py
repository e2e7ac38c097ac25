"""Texts players see refuse the characters that disguise a log (domain/model/text.py): control
characters and bidirectional overrides and isolates, with a 422 that names the character, and
nothing appended. Every script, emoji and the implicit direction marks stay allowed.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.serverproc import REPO_ROOT
from tests.table import Table

# (character, how the refusal names it)
FORBIDDEN = [
    ("\x00", "U+0000"),
    ("\x1b", "U+001B"),
    ("\r", "U+000D"),
    ("\x7f", "U+007F"),
    ("\x85", "U+0085"),
    ("\u202a", "U+202A LEFT-TO-RIGHT EMBEDDING"),
    ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE"),
    ("\u2067", "U+2067 RIGHT-TO-LEFT ISOLATE"),
    ("\u2069", "U+2069 POP DIRECTIONAL ISOLATE"),
    ("\u2028", "U+2028 LINE SEPARATOR"),
    ("\u200b", "U+200B ZERO WIDTH SPACE"),
    ("\u00ad", "U+00AD SOFT HYPHEN"),
    ("\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    ("\U000e0041", "U+E0041 TAG LATIN CAPITAL LETTER A"),
    ("\ufffe", "U+FFFE (a noncharacter)"),
    ("\U0010ffff", "U+10FFFF (a noncharacter)"),
    ("\u3164", "U+3164 HANGUL FILLER"),
    ("\u2800", "U+2800 BRAILLE PATTERN BLANK"),
]


def command_with(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Every command text field a player fills in, lifecycle and ruleset alike."""
    return [
        ("seat:1", {"type": "declare", "text": f"I open the {text}door"}),
        ("seat:1", {"type": "note", "text": f"psst{text}", "to": ["gm"]}),
        ("seat:1", {"type": "roll", "expression": f"2D6>=7 sneak{text}"}),
        ("seat:1", {"type": "roll", "expression": "1D6", "entropy": f"lucky{text}"}),
        ("gm", {"type": "ruling", "concerning_seq": 1, "text": f"ok{text}"}),
        ("gm", {"type": "amend", "concerning_seq": 1, "reason": f"typo{text}"}),
        ("gm", {"type": "end", "summary": f"fin{text}"}),
        ("gm", {"type": "advance_phase", "phase": f"Night{text}"}),
    ]


@pytest.fixture
def table(client: TestClient) -> Table:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    return table


@pytest.mark.parametrize(("character", "name"), FORBIDDEN)
def test_commands_refuse_disguising_characters_naming_them(
    table: Table, character: str, name: str
) -> None:
    before = table.log_bytes()
    for actor, body in command_with(character):
        response = table.send(actor, body)
        assert response.status_code == 422, (body, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
        problem = response.json()
        assert problem["code"] == "forbidden_character", problem
        assert name in problem["detail"], problem["detail"]
        assert character not in response.text  # the refusal names it, never carries it
    assert table.log_bytes() == before


def test_a_ruleset_command_is_held_to_the_same_rule(client: TestClient) -> None:
    """Fields a ruleset declares as plain `str` are checked too (the Command base class)."""
    table = Table.create(client, ruleset="ninja_slayer")
    table.join_all()
    before = table.log_bytes()
    body = {"type": "ninja_slayer.adjust", "character": "x", "reason": "because\u202e"}
    response = table.send("gm", body)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "forbidden_character"
    assert "reason" in response.json()["detail"]
    assert table.log_bytes() == before


@pytest.mark.parametrize(("character", "name"), [*FORBIDDEN, ("\n", "U+000A"), ("\t", "U+0009")])
def test_names_and_titles_are_one_line_of_plain_text(
    client: TestClient, character: str, name: str
) -> None:
    for body in (
        {"title": f"Friday{character}", "seats": ["Aki"]},
        {"title": "Friday", "seats": ["Aki", f"B{character}en"]},
    ):
        response = client.post("/games", json=body)
        assert response.status_code == 422, response.text
        assert response.json()["code"] == "forbidden_character"
        assert name in response.json()["detail"]
    table = Table.create(client)
    response = client.post(
        f"/games/{table.game_id}/join",
        json={"invite": table.invites[1], "client_seed": f"seed{character}"},
    )
    assert response.status_code == 422 and response.json()["code"] == "forbidden_character"


@pytest.mark.parametrize(
    "text",
    [
        "line one\nline two\tand a tab",
        "忍殺！ ニンジャスレイヤー　アイエエエ！",
        "family 👨\u200d👩\u200d👧 and flags 🇯🇵",
        "עברית \u200fمرحبا\u061c and an LRM\u200e",
        "non-breaking\u00a0space, ideographic\u3000space",
    ],
)
def test_every_script_emoji_and_direction_mark_is_welcome(table: Table, text: str) -> None:
    response = table.send("seat:1", {"type": "declare", "text": text})
    assert response.status_code == 201, response.text
    assert response.json()["events"][0]["public"]["text"] == text


def test_the_command_line_refuses_them_too(tmp_path: Any) -> None:
    argv = ["new", "Evil\x1b[2Jtitle", "--seat", "Aki", "--db", str(tmp_path / "cli.db")]
    result = subprocess.run(
        [sys.executable, "-m", "api.cli", *argv],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "U+001B" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("character", ["\u3164", "\u200d", "\ufeff", "\U000e0041", "\uffff"])
def test_names_titles_tabs_and_chat_refuse_invisible_characters_in_words(
    table: Table, client: TestClient, character: str
) -> None:
    """Issue 34: a blank-looking name, a tag-hidden title, a ZWJ in a tab; problem+json with
    a stable code and a Japanese sentence naming the character."""
    refusals = [
        client.post("/games", json={"title": f"卓{character}", "seats": ["Aki"]}),
        client.post("/games", json={"title": "卓", "seats": [character]}),
        table.send("gm", {"type": "add_tab", "name": f"戦闘{character}"}),
        table.send("seat:1", {"type": "say", "text": f"こんにちは{character}"}),
    ]
    before = table.log_bytes()
    for response in refusals:
        assert response.status_code == 422, response.text
        assert response.headers["content-type"] == "application/problem+json"
        problem = response.json()
        assert problem["code"] == "forbidden_character", problem
        assert f"U+{ord(character):04X}" in problem["detail"] and "文字目" in problem["detail"]
        assert character not in response.text
    assert table.log_bytes() == before


def test_a_blank_name_is_refused(table: Table, client: TestClient) -> None:
    for response in (
        client.post("/games", json={"title": "　", "seats": ["Aki"]}),
        client.post("/games", json={"title": "卓", "seats": ["  "]}),
        table.send("gm", {"type": "add_tab", "name": " "}),
    ):
        assert response.status_code == 422, response.text
        assert response.json()["code"] == "blank_text", response.json()
        assert "空白" in response.json()["detail"]
