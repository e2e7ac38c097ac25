"""The interactive terminal viewer (Textual): step with the arrow keys, jump to a seq, switch
whose eyes you look through. Everything it shows comes from replay.text.render_frame."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Input, Static

from domain.errors import KirokuError
from replay.cursor import ReplayCursor
from replay.text import render_frame


class ReplayViewer(App[None]):
    TITLE = "Kiroku replay"
    BINDINGS = [
        Binding("right", "step", "next"),
        Binding("left", "step_back", "previous"),
        Binding("home", "first", "first"),
        Binding("end", "last", "last"),
        Binding("g", "jump", "go to seq"),
        Binding("a", "switch", "switch perspective"),
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
        frame = self.cursor.current()
        self.sub_title = f"event {frame.seq}/{frame.last_seq} as {frame.audience}"
        self.query_one("#frame", Static).update(render_frame(frame))

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
