"""GET /games/{id}/log.html and `kiroku log`: the session log as each audience may read it.

Before the end the file is the caller's own log (as /events), and — tested as an attacker
would, over generated games — holds no byte of a secret its reader may not see; after the end
every secret is in it, folded. Every line keeps ココフォリア's export shape.
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape

from api.cli import main
from api.pages.sessionlog import embedded_archive
from domain.application.service import GameService
from tests.samples import SAMPLES
from tests.table import Table

SEATS = ("seat:1", "seat:2", "seat:3")
ACTORS = ("gm", *SEATS)
VIEWERS = ("public", *ACTORS)
# ココフォリア's line as the regex-based log tools read it: anchored on the opening tag.
COCOFOLIA_LINE = re.compile(
    r'<p style="color:(#[0-9a-fA-F]{6});">\s*<span>\s*\[([^\]<]*)\]\s*</span>\s*'
    r"<span>([^<]*)</span>\s*:\s*<span>(.*?)</span>\s*</p>",
    re.S,
)


def log_html(table: Table, viewer: str) -> tuple[int, str, dict[str, str]]:
    response = table.client.get(f"/games/{table.game_id}/log.html", headers=table.auth(viewer))
    return response.status_code, response.text, dict(response.headers)


def test_the_log_of_a_game_in_play_and_after_its_end(client: TestClient) -> None:
    table = Table.create(client, seats=["Aki", "Ben"])
    table.join_all()
    table.do("gm", {"type": "start"})
    table.do("seat:1", {"type": "say", "text": "こんにちは <b>皆さん</b>\n二行目"})
    table.do("seat:2", {"type": "say", "text": "雑談です", "tab": "雑談", "color": "#123456"})
    roll = table.do("seat:1", {"type": "roll", "expression": "2D6>=7 忍び足"})["last_seq"]
    table.do("seat:1", {"type": "roll", "expression": "S2D6 AKI_SECRET_ROLL"})
    table.do("seat:1", {"type": "note", "text": "AKI_NOTE_TO_GM", "to": ["gm"]})
    table.do("gm", {"type": "ruling", "concerning_seq": roll, "text": "見張りは寝ていた"})

    status, html, headers = log_html(table, "seat:2")
    assert status == 200 and headers["content-type"].startswith("text/html")
    policy = headers["content-security-policy"]
    assert "'sha256-" in policy and "unsafe-inline" not in policy and "connect-src" not in policy
    assert f'content="{escape(policy)}"' in html  # the same policy travels inside the file
    assert headers["kiroku-head"].split()[0] == str(roll + 3)
    assert "AKI_SECRET_ROLL" not in html and "AKI_NOTE_TO_GM" not in html
    assert "シークレットダイス" in html and "秘密のメモ" in html
    assert "こんにちは &lt;b&gt;皆さん&lt;/b&gt;<br>二行目" in html  # text, never markup
    assert (
        '<p style="color:#123456;"><span> [other]</span> <span>Ben</span> : '
        "<span>雑談です</span></p>" in html
    )
    # A roll as ココフォリア writes it: the command (and comment) first, then the result.
    assert re.search(r"<span>2D6&gt;=7 忍び足 \(2D6&gt;=7\) ＞ \d+\[\d,\d\] ＞ \d+ ＞ ", html)
    assert len(COCOFOLIA_LINE.findall(html)) == roll + 3  # one line per event
    data = json.loads(re.search(r'id="kiroku-lines">(.*?)</script>', html, re.S).group(1))  # type: ignore[union-attr]
    assert data["links"][str(roll + 3)][0] == ["↪", roll]  # the ruling points at its roll
    assert [name for name, _shown in data["tabs"]] == ["メイン", "情報", "雑談"]

    _status, as_aki, _headers = log_html(table, "seat:1")
    assert "AKI_SECRET_ROLL" in as_aki and "AKI_NOTE_TO_GM" in as_aki

    table.do("gm", {"type": "end"})
    _status, after, _headers = log_html(table, "public")
    assert "AKI_SECRET_ROLL" in after and "AKI_NOTE_TO_GM" in after
    assert "シークレットダイス → 公開 ✓" in after and "秘密のメモ → 公開 ✓" in after


def test_the_log_is_refused_as_the_events_are(client: TestClient) -> None:
    table = Table.create(client, options={"spectators": False})
    status, _html, headers = log_html(table, "public")
    events = client.get(f"/games/{table.game_id}/events")
    assert status == events.status_code == 401
    assert headers["content-type"] == "application/problem+json"
    assert _html == events.text
    response = client.get(f"/games/{uuid.uuid4()}/log.html")
    assert response.status_code == 404 and response.json()["code"] == "game_not_found"


def test_kiroku_log_writes_the_file_from_an_archive(tmp_path: Path) -> None:
    sample = SAMPLES / "ninja-slayer-combat.jsonl"
    out = tmp_path / "session.html"
    assert main(["log", str(sample), "-o", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    events = len(sample.read_text(encoding="utf-8").splitlines()) - 1
    assert len(COCOFOLIA_LINE.findall(html)) == events
    assert "<title>ニンジャスレイヤー: ブラックマンバ戦 - logs</title>" in html
    assert main(["log", str(sample), "-o", str(out), "--ccfolia-title"]) == 0
    assert "<title>ccfolia - logs</title>" in out.read_text(encoding="utf-8")


actor = st.sampled_from(ACTORS)
step = st.one_of(
    st.tuples(st.just("note"), actor, st.frozensets(st.sampled_from(ACTORS), max_size=2)),
    st.tuples(st.just("secret_roll"), actor, st.sampled_from(["S2D6", "S1D20+3>=10"])),
    st.tuples(st.just("blind_roll"), actor, st.just("1D100")),
    st.tuples(st.just("whisper"), actor, st.sampled_from(ACTORS)),
    st.tuples(st.just("reveal"), actor, st.integers(0, 50)),
    st.tuples(st.just("say"), actor, st.sampled_from(["メイン", "雑談"])),
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(step, max_size=12))
def test_a_seats_log_before_the_end_holds_no_byte_of_anothers_secret(
    client: TestClient, service: GameService, steps: list[tuple[str, str, object]]
) -> None:
    table = Table.create(client, seats=["Aki", "Ben", "Chie"])
    table.join_all()
    table.do("gm", {"type": "start"})
    markers: dict[int, str] = {}  # seq → the marker its sealed body carries
    for kind, who, arg in steps:
        marker = f"MARK-{uuid.uuid4().hex}"
        body: dict[str, Any]
        if kind == "note":
            to = sorted(a for a in arg if a != who)  # type: ignore[attr-defined]
            body = {"type": "note", "text": marker, "to": to}
        elif kind == "secret_roll":
            body = {"type": "roll", "expression": f"{arg} {marker}"}
        elif kind == "blind_roll":
            body = {"type": "roll", "expression": f"{arg} {marker}", "blind": True}
        elif kind == "whisper":
            body = {"type": "say", "text": marker, "to": [arg]}
        elif kind == "reveal" and markers:
            index = int(arg) % len(markers)  # type: ignore[call-overload]
            body = {"type": "reveal", "seq": sorted(markers)[index]}
        else:
            body = {"type": "say", "text": f"open {marker}", "tab": arg}
        response = table.send(who, body)
        if response.status_code == 201 and kind not in ("say", "reveal"):
            markers[response.json()["last_seq"]] = marker

    state = service.state(table.game_id)
    records = {r.seq: r for r in service.records(table.game_id)}
    for viewer in VIEWERS:
        status, html, _headers = log_html(table, viewer)
        assert status == 200
        # The file's bytes and its archive's, unpacked: nothing hides in the compressed block.
        data = html.encode() + embedded_archive(html).encode()
        assert state.server_seed.encode() not in data
        for seq, recorded in records.items():
            sealed = recorded.envelope.sealed
            if sealed is None or recorded.salt is None:
                continue
            revealed = seq not in state.unrevealed
            allowed = revealed or (
                bool(sealed.audience) and (viewer == "gm" or viewer in sealed.audience)
            )
            if not revealed:
                assert recorded.salt.encode() not in data, (viewer, seq)
            if seq in markers:
                # It fails both ways: what the reader may see is in its log.
                assert (markers[seq].encode() in data) == allowed, (viewer, seq, allowed)


def test_kiroku_log_writes_a_seats_log_from_the_store(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.create(client)
    table.join_all()
    table.do("gm", {"type": "start"})
    table.do("seat:1", {"type": "note", "text": "AKI_ONLY", "to": []})
    out = tmp_path / "seat2.html"
    monkeypatch.setenv("KIROKU_DB", str(tmp_path / "kiroku.db"))  # the `service` fixture's
    monkeypatch.delenv("KIROKU_DATABASE_URL", raising=False)
    assert main(["log", table.game_id, "-o", str(out), "--as", "seat:2"]) == 0
    as_ben = out.read_text(encoding="utf-8")  # in the terminal's language (the tests': English)
    assert '<html lang="en">' in as_ben
    assert "Secret note" in as_ben and "AKI_ONLY" not in as_ben
    assert main(["log", table.game_id, "-o", str(out), "--as", "seat:2", "--lang", "ja"]) == 0
    in_japanese = out.read_text(encoding="utf-8")
    assert '<html lang="ja">' in in_japanese and "秘密のメモ" in in_japanese
    assert main(["log", table.game_id, "-o", str(out), "--as", "seat:1"]) == 0
    assert "AKI_ONLY" in out.read_text(encoding="utf-8")


def test_the_embedded_archive_is_the_archive(tmp_path: Path) -> None:
    """The block the verifier reads is the game's archive: `kiroku audit` checks it too."""
    out = tmp_path / "session.html"
    assert main(["log", str(SAMPLES / "chojin-locke-6p.jsonl"), "-o", str(out)]) == 0
    archive = tmp_path / "embedded.jsonl"
    archive.write_text(embedded_archive(out.read_text(encoding="utf-8")) + "\n", encoding="utf-8")
    assert main(["audit", str(archive)]) == 0
