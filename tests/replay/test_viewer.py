"""The terminal viewer, driven by Textual's pilot: the keys move the cursor and the view."""

from __future__ import annotations

import asyncio

from textual.widgets import Static

from domain.commands import End, Note, Roll, Start
from domain.lifecycle_events import GameOptions
from domain.service import GameService, NewGame
from replay.cursor import ReplayCursor
from replay.history import History
from replay.viewer import ReplayViewer


def frame_text(app: ReplayViewer) -> str:
    return str(app.query_one("#frame", Static).render())


def test_keys_step_jump_and_switch_perspective(service: GameService) -> None:
    game = service.create_game(NewGame("freeform", "Pilot", ["Aki", "Ben"], GameOptions(), {}))
    gid = game.game_id
    service.execute(gid, "gm", Start())  # 2
    service.execute(gid, "seat:1", Note(text="the key is mine"))  # 3
    service.execute(gid, "seat:2", Roll(expression="2D6+1>=8"))  # 4
    service.execute(gid, "gm", End())  # 5..
    cursor = ReplayCursor(History(service.records(gid)), "seat:2", at=3)

    async def drive() -> None:
        app = ReplayViewer(cursor)
        async with app.run_test() as pilot:
            assert "event 3 of" in frame_text(app)
            assert "(not visible to seat:2)" in frame_text(app)
            await pilot.press("right")
            assert "#4 DiceRolled" in frame_text(app) and "roll: (2D6+1>=8)" in frame_text(app)
            await pilot.press("left", "left")
            assert "#2 GameStarted" in frame_text(app)
            await pilot.press("g", "3", "enter")
            assert "#3 NoteWritten" in frame_text(app)
            await pilot.press("a")  # perspectives cycle public, gm, seat:1, seat:2
            text = frame_text(app)
            assert "as " in text and "as seat:2" not in text
            while "as seat:1" not in frame_text(app):
                await pilot.press("a")
            assert '"text":"the key is mine"' in frame_text(app)
            await pilot.press("g", "999", "enter")
            assert "#3 NoteWritten" in frame_text(app)  # refused jump keeps the place
            await pilot.press("q")

    asyncio.run(drive())
