"""The interactive terminal viewer (Textual): step with the arrow keys, jump to a seq, switch
whose eyes you look through. Everything it shows comes from replay.text (the table's log lines,
never JSON); its footer lists its keys. Its texts are catalog keys read through `say` (the
reader's language, as `kiroku` chose it)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Input, Static

from domain.model.errors import KirokuError
from domain.model.messages import N_
from replay.cursor import ReplayCursor
from replay.text import Say, Source, person, render_at

PAGE = 10  # events PageUp / PageDown move, as on the replay page
# Keys that move through the game; they win over the scrolling frame's own (priority), but not
# while the seq box is open, where ← → Home End edit the number.
MOVES = ("step", "step_back", "first", "last", "page_back", "page")


# (key, action, catalog key of its footer label, key shown, wins over the frame's own)
KEYS: tuple[tuple[str, str, str, str | None, bool], ...] = (
    ("left", "step_back", N_("back"), "←", True),
    ("right", "step", N_("next"), "→", True),
    ("home", "first", N_("first"), "Home", True),
    ("end", "last", N_("last"), "End", True),
    ("pageup", "page_back", f"-{PAGE}", "PgUp", True),
    ("pagedown", "page", f"+{PAGE}", "PgDn", True),
    ("g", "jump", N_("go to seq"), None, False),
    ("a", "switch", N_("perspective"), None, False),
    ("q", "quit", N_("quit"), None, False),
)


def _bindings(say: Say) -> list[Binding]:
    return [
        Binding(key, action, say(label), key_display=shown, priority=priority)
        for key, action, label, shown, priority in KEYS
    ]


class ReplayViewer(App[None]):
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        *_bindings(Source())
    ]

    def __init__(self, cursor: ReplayCursor, say: Say | None = None) -> None:
        self.say = say or Source()
        super().__init__()
        self.title = self.say("Kiroku replay")
        for binding in _bindings(self.say):  # the footer's labels in the reader's language
            self._bindings.key_to_bindings[binding.key] = [binding]
        self.cursor = cursor
        final = cursor.history.final.game
        self.audiences = list(final.audiences())

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static(id="frame")
        yield Input(placeholder=self.say("seq, then Enter"), id="jump")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#jump", Input).display = False
        self.show()

    def show(self) -> None:
        cursor = self.cursor
        seats = {s.seat: s.name for s in cursor.history.final.game.seats}
        self.sub_title = self.say(
            "event {seq}/{last} as {audience}",
            seq=cursor.seq,
            last=cursor.history.last_seq,
            audience=person(cursor.audience, seats, self.say),
        )
        self.query_one("#frame", Static).update(render_at(self.cursor, say=self.say))

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
            self.notify(
                self.say(
                    "No event {value}: 1 to {last}.",
                    value=message.value,
                    last=self.cursor.history.last_seq,
                )
            )
        self.show()


def run_viewer(cursor: ReplayCursor, say: Say | None = None) -> None:
    ReplayViewer(cursor, say).run()
