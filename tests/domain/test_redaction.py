"""Redaction fails closed: it reads what is revealed from a disclosure taken at a seq, and an
event after that seq is refused, never taken for revealed."""

from __future__ import annotations

import pytest

from domain.model import lifecycle
from domain.model.codec import seal
from domain.model.commands import Note, Reveal
from domain.model.game import GameState
from domain.model.records import Recorded
from domain.model.redaction import Disclosure, StaleDisclosure, redact
from tests.decided import decide
from tests.domain.test_decider import GAME, new_game

SECRET = "the butler did it"


def _append(state: GameState, command: Note | Reveal, actor: str) -> tuple[GameState, Recorded]:
    (draft,) = decide(state, command, actor)
    recorded = seal(
        draft,
        game_id=GAME,
        seq=state.version + 1,
        actor=actor,
        at="2026-01-01T00:00:00Z",
        prev_hash=state.head,
    )
    return lifecycle.evolve(state, recorded), recorded


def test_an_older_state_cannot_redact_a_later_secret() -> None:
    before = new_game()
    after, note = _append(before, Note(text=SECRET), "seat:1")
    # The state from before the note would not know it is sealed: refused, not shown.
    for viewer in ("public", "seat:2", "seat:1", "gm"):
        with pytest.raises(StaleDisclosure):
            redact(note, viewer, Disclosure.of(before))
    assert redact(note, "public", Disclosure.of(after))["secret"] is None
    assert redact(note, "seat:2", Disclosure.of(after))["secret"] is None
    assert redact(note, "seat:1", Disclosure.of(after))["secret"] == {"text": SECRET}
    assert redact(note, "gm", Disclosure.of(after))["revealed"] is False


def test_a_reveal_opens_the_body_to_everyone_from_then_on() -> None:
    state, note = _append(new_game(), Note(text=SECRET), "seat:1")
    sealed = Disclosure.of(state)
    state, _reveal = _append(state, Reveal(seq=note.seq), "seat:1")
    shown = redact(note, "public", Disclosure.of(state))
    assert shown["secret"] == {"text": SECRET} and shown["revealed"] is True
    # as of the note's own seq (the replay's frame), it was still sealed
    assert redact(note, "public", sealed)["secret"] is None
