"""The interactive terminal viewer (Textual): step with the arrow keys, jump to a seq, switch
whose eyes you look through. Everything it shows comes from replay.text (the table's log lines,
never JSON); its footer lists its keys."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Input, Static

from domain.model.errors import KirokuError
from replay.cursor import ReplayCursor
from replay.text import render_at

PAGE = 10  # events PageUp / PageDown move, as on the replay page
# Keys that move through the game; they win over the scrolling frame's own (priority), but not
# while the seq box is open, where ← → Home End edit the number.
MOVES = ("step", "step_back", "first", "last", "page_back", "page")


class ReplayViewer(App[None]):
    TITLE = "Kiroku replay"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("left", "step_back", "back", key_display="←", priority=True),
        Binding("right", "step", "next", key_display="→", priority=True),
        Binding("home", "first", "first", key_display="Home", priority=True),
        Binding("end", "last", "last", key_display="End", priority=True),
        Binding("pageup", "page_back", f"-{PAGE}", key_display="PgUp", priority=True),
        Binding("pagedown", "page", f"+{PAGE}", key_display="PgDn", priority=True),
        Binding("g", "jump", "go to seq"),
        Binding("a", "switch", "perspective"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, cursor: ReplayCursor) -> None:
        super().__init__()
        self.cursor = cursor
        final = cursor.history.final.game
        self.audiences = list(final.audiences())

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static(id="frame")
        yield Input(placeholder="seq, then Enter", id="jump")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#jump", Input).display = False
        self.show()

    def show(self) -> None:
        cursor = self.cursor
        self.sub_title = f"event {cursor.seq}/{cursor.history.last_seq} as {cursor.audience}"
        self.query_one("#frame", Static).update(render_at(self.cursor))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action in MOVES and self.query_one("#jump", Input).has_focus)

    def action_step(self) -> None:
        self.cursor.step()
        self.show()

    def action_step_back(self) -> None:
        self.cursor.back()
        self.show()

    def action_first(self) -> None:
        self.cursor.seek(1)
        self.show()

    def action_last(self) -> None:
        self.cursor.seek(self.cursor.history.last_seq)
        self.show()

    def action_page(self) -> None:
        self.cursor.seek(min(self.cursor.seq + PAGE, self.cursor.history.last_seq))
        self.show()

    def action_page_back(self) -> None:
        self.cursor.seek(max(self.cursor.seq - PAGE, 1))
        self.show()

    def action_switch(self) -> None:
        index = (
            self.audiences.index(self.cursor.audience)
            if (self.cursor.audience in self.audiences)
            else -1
        )
        self.cursor = self.cursor.as_audience(self.audiences[(index + 1) % len(self.audiences)])
        self.show()

    def action_jump(self) -> None:
        box = self.query_one("#jump", Input)
        box.display = True
        box.value = ""
        box.focus()

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.input.display = False
        try:
            self.cursor.seek(int(message.value))
        except (ValueError, KirokuError):
            self.notify(f"No event {message.value!r}: 1 to {self.cursor.history.last_seq}.")
        self.show()


def run_viewer(cursor: ReplayCursor) -> None:
    ReplayViewer(cursor).run()
