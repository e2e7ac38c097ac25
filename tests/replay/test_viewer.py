"""The terminal viewer, driven by Textual's pilot: the keys move the cursor and the view, every
event reads as the table's log line (never JSON), and the footer lists the keys."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.widgets import Footer, Input, Static

from api.pages.i18n import Reader
from domain.application.service import GameService, NewGame
from domain.model.commands import End, Note, Roll, Start
from domain.model.lifecycle_events import GameOptions
from domain.model.logline import LogLine
from replay.archive import read_archive, records_from_envelopes
from replay.cursor import ReplayCursor
from replay.history import History
from replay.text import render_at, render_line
from replay.viewer import ReplayViewer
from tests.samples import SAMPLES

JSON = re.compile(r'[{}]|"\w+":')  # a brace, or a quoted key: JSON leaking into the text


def frame_text(app: ReplayViewer) -> str:
    return str(app.query_one("#frame", Static).render())


def footer_text(app: ReplayViewer) -> str:
    return " ".join(str(key.render()) for key in app.query_one(Footer).query("FooterKey"))


def test_keys_step_jump_and_switch_perspective(service: GameService) -> None:
    game = service.create_game(NewGame("freeform", "Pilot", ["Aki", "Ben"], GameOptions(), {}))
    gid = game.game_id
    service.execute(gid, "gm", Start())  # 2
    service.execute(gid, "seat:1", Note(text="the key is mine"))  # 3
    service.execute(gid, "seat:2", Roll(expression="2D6+1>=8"))  # 4
    service.execute(gid, "gm", End())  # 5..
    cursor = ReplayCursor(History(service.records(gid)), "seat:2", at=3)
    last = cursor.history.last_seq

    async def drive() -> None:
        app = ReplayViewer(cursor)
        async with app.run_test(size=(140, 40)) as pilot:
            await pilot.pause()
            footer = footer_text(app)
            for key, what in [("←", "back"), ("→", "next"), ("Home", "first"), ("End", "last")]:
                assert f"{key} {what}" in footer, footer
            for key in ("PgUp", "PgDn", "go to seq", "perspective", "quit"):
                assert key in footer, footer
            assert "event 3 of" in frame_text(app)
            assert "▶ #3 [メイン] Aki: 秘密のメモ" in frame_text(app)
            assert "(its secret part is not visible to Ben)" in frame_text(app)
            assert "  #2 [メイン] GM: ゲーム開始" in frame_text(app)  # the log before it
            await pilot.press("right")
            assert "▶ #4 [メイン] Ben: (2D6+1>=8) ＞" in frame_text(app)
            assert "roll: (2D6+1>=8) ＞" in frame_text(app)
            await pilot.press("left", "left")
            assert "▶ #2 [メイン] GM: ゲーム開始" in frame_text(app)
            assert "status: waiting to start → in play" in frame_text(app)  # what it changed
            await pilot.press("end")
            assert f"event {last} of {last}" in frame_text(app)
            await pilot.press("home")
            assert "event 1 of" in frame_text(app)
            await pilot.press("pagedown")
            assert f"event {min(11, last)} of" in frame_text(app)
            await pilot.press("pageup")
            assert "event 1 of" in frame_text(app)
            await pilot.press("g", "3", "enter")
            assert "▶ #3 [メイン] Aki: 秘密のメモ" in frame_text(app)
            await pilot.press("a")  # perspectives cycle public, gm, seat:1, seat:2
            text = frame_text(app)
            assert "as " in text and "as Ben" not in text and "seat:" not in text
            while "as Aki" not in frame_text(app):
                await pilot.press("a")
            assert "▶ #3 [メイン] Aki: the key is mine  (note; → " in frame_text(app)
            assert "only Aki)" in frame_text(app) or "only GM, Aki)" in frame_text(app)  # by name
            assert "#3 (sealed): the key is mine" in frame_text(app)
            await pilot.press("g", "1", "left", "9", "enter")  # ← edits the box: 91
            assert "▶ #3 [メイン]" in frame_text(app)  # refused jump keeps the place
            assert not app.query_one("#jump", Input).display
            assert JSON.search(frame_text(app)) is None, frame_text(app)
            await pilot.press("q")

    asyncio.run(drive())


@pytest.mark.parametrize("sample", sorted(SAMPLES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_the_samples_read_as_lines_never_json(sample: Path) -> None:
    """Every event of every sample as a line, before and after the end, for the GM, a seat and
    a spectator; and frames through the game: no JSON anywhere."""
    with sample.open(encoding="utf-8") as archive:
        _, envelopes = read_archive(archive)
    history = History(records_from_envelopes([e for e in envelopes if isinstance(e, dict)]))
    last = history.last_seq
    for audience in ("gm", "seat:1", "public"):
        cursor = ReplayCursor(history, audience)
        for at in (last // 2, last):  # mid-game, secrets sealed; after the end, revealed
            for _, line in cursor.log(at, at):
                text = render_line(line)
                assert JSON.search(text) is None, f"{sample.name} as {audience}: {text}"
        for seq in range(1, last + 1, 13):
            cursor.seek(seq)
            text = render_at(cursor, recent=0)
            assert JSON.search(text) is None, f"{sample.name} #{seq} as {audience}:\n{text}"


def test_a_revealed_line_is_marked_in_the_readers_language() -> None:
    revealed = LogLine(
        seq=12,
        kind="roll",
        speaker="Ben",
        text="(1D100<=50) ＞ 14 ＞ 成功",
        sealed_to=("gm",),
        audience_text="GMだけ",
        audience_names=("GM",),
        revealed=True,
    )
    assert render_line(revealed, Reader("ja")).endswith("(ダイス; → GMだけ; 公開)")
    assert render_line(revealed, Reader("en")).endswith("(roll; → only GM; revealed)")
