"""Plain-text rendering of a replay frame, for `kiroku replay --print` and the terminal viewer.

Everything reads as the table reads it: each event is its log line (domain.model.logline.describe,
as in the table page and the replay page), values are words (`logline.words`), never JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.model.logline import LogLine, humanize, words
from replay.cursor import Change, Frame, ReplayCursor

MAX_VALUE = 160  # characters of one value before it is cut
RECENT = 6  # log lines shown before the current one


def render_at(cursor: ReplayCursor, recent: int = RECENT) -> str:
    """The cursor's frame, after the last `recent` lines of the log as they read then."""
    frame = cursor.current()
    return render_frame(frame, [line for _, line in cursor.log(frame.seq, recent + 1)])


def render_line(line: LogLine) -> str:
    """One log line: `#seq [tab] speaker: text`, then who may read it and what it concerns."""
    text = f"#{line.seq} [{line.tab}] {line.speaker}: {line.text}"
    marks: list[str] = []
    if line.kind not in ("chat", "rules"):
        marks.append(line.kind)
    if line.outcome:
        marks.append(line.outcome)
    if line.sealed_to is not None:
        marks.append(f"→ {', '.join(line.sealed_to)}" if line.sealed_to else "sealed until the end")
    if line.revealed:
        marks.append("公開")
    if line.concerns:
        marks.append(f"↪ #{line.concerns}")
    return text + (f"  ({'; '.join(marks)})" if marks else "")


def render_frame(frame: Frame, log: Sequence[LogLine] = ()) -> str:
    """The frame; `log`, if given, is the lines before it (as the audience read them then)."""
    event = frame.event
    view = frame.view
    lines = [
        f"{view.title} ({view.ruleset}) — event {frame.seq} of {frame.last_seq}, "
        f"as {frame.audience}",
        "",
    ]
    earlier = [line for line in log if line.seq < frame.seq]
    if earlier:
        lines += ["  " + render_line(line) for line in earlier]
    lines.append("▶ " + render_line(frame.line))
    lines.append(f"  {humanize(event['type'])} by {event['actor']} at {event['at']}")
    if event.get("sealed") and event.get("secret") is None:
        lines.append(f"  (its secret part is not visible to {frame.audience})")
    if frame.explanation:
        lines.append(f"  roll: {frame.explanation}")
    lines += ["", f"status {view.status}" + (f"; {_words(view.rules)}" if view.rules else "")]
    seats = ", ".join(f"{s.seat}:{s.name}{'' if s.joined else ' (empty)'}" for s in view.seats)
    lines.append(f"seats: {seats}")
    if view.secrets:
        lines.append(f"secrets {frame.audience} can read:")
        for item in view.secrets:
            state = "revealed" if item.revealed else "sealed"
            lines.append(f"  #{item.seq} {humanize(item.type)} ({state}): {_words(item.body)}")
    changes = [c for c in frame.changes if c.path not in ("seq", "head")]
    if frame.seq > 1 and changes:
        lines.append("changed:")
        lines += [f"  {_change(change)}" for change in changes]
    return "\n".join(lines)


def _change(change: Change) -> str:
    path = change.path.replace("_", " ").replace(".", " › ")
    return f"{path}: {_words(change.before)} → {_words(change.after)}"


def _words(value: Any) -> str:
    text = "—" if value in (None, "", [], {}) else words(value)
    return text if len(text) <= MAX_VALUE else text[: MAX_VALUE - 1] + "…"
