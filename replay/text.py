"""Plain-text rendering of a replay frame, for `kiroku replay --print` and the terminal viewer.

Everything reads as the table reads it: each event is its log line (domain.model.logline.describe,
as in the table page and the replay page), people by their names (never `seat:N`), values as
words (`logline.words`), never JSON. The frame's own texts are catalog keys read through `say`
(the reader's language: the `kiroku` command gives api/pages/i18n's `Reader`); a lifecycle line
is read in it too, as the pages do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from domain.model.audience import GM, HOST, PUBLIC, SYSTEM, seat_number
from domain.model.game import DEFAULT_TABS
from domain.model.logline import LogLine, Names
from domain.model.messages import N_, Message, read, read_encoded
from domain.rulesets import registered, ruleset_for
from replay.cursor import LOG_WINDOW, Change, Frame, ReplayCursor

RECENT = 6  # log lines shown before the current one
STATUS = {"setup": N_("waiting to start"), "started": N_("in play"), "ended": N_("ended")}
KINDS = {
    "roll": N_("roll"),
    "declaration": N_("declaration"),
    "note": N_("note"),
    "ruling": N_("ruling"),
    "amendment": N_("amendment"),
    "reveal": N_("reveal"),
    "phase": N_("phase"),
    "system": N_("system"),
}
OUTCOMES = {
    "success": N_("success"),
    "failure": N_("failure"),
    "critical": N_("critical"),
    "fumble": N_("fumble"),
}


class Say(Protocol):
    """A catalog key (English source, `{name}` placeholders) in the reader's language."""

    language: str

    def __call__(self, message: str, /, **arguments: Any) -> str: ...


class Source:
    """The keys as written, for a caller with no catalog at hand."""

    language = "en"

    def __call__(self, message: str, /, **arguments: Any) -> str:
        return message.format(**arguments) if arguments else message


def render_at(cursor: ReplayCursor, recent: int = RECENT, say: Say | None = None) -> str:
    """The cursor's frame, after the last `recent` lines of the log as they read then."""
    frame = cursor.current()
    window = [line for _, line in cursor.log(frame.seq, max(recent + 1, LOG_WINDOW))]
    earlier = window[-(recent + 1) :] if recent else window[-1:]
    told = {line.seq: line for line in window}
    # a secret older than the window is told by its own line all the same
    older = [item.seq for item in frame.view.secrets if item.seq not in told]
    told.update(cursor.lines(frame.seq, older))
    return render_frame(frame, earlier, say, told)


def line_text(line: LogLine, say: Say) -> str:
    """A line's words: a lifecycle line read in the reader's language (its key rides with it),
    a ruleset's line in the rulebook's words already."""
    if line.msg and say.language != "ja":
        return read_encoded(line.msg, line.args, say)
    return line.text


def tab_name(tab: str, say: Say) -> str:
    """A tab's name: a default tab's (「メイン」) in the reader's language, one a player opened
    as typed."""
    return say(tab) if tab in DEFAULT_TABS else tab


def render_line(line: LogLine, say: Say | None = None) -> str:
    """One log line: `#seq [tab] speaker: text`, then who may read it and what it concerns."""
    say = say or Source()
    text = f"#{line.seq} [{tab_name(line.tab, say)}] {line.speaker}: {line_text(line, say)}"
    marks: list[str] = []
    if line.kind in KINDS:
        marks.append(say(KINDS[line.kind]))
    if line.outcome:
        marks.append(say(OUTCOMES[line.outcome]))
    if line.sealed_to is not None:
        marks.append(f"→ {_audience(line, say)}")
    if line.revealed:
        marks.append(say(N_("公開")))
    if line.concerns:
        marks.append(f"↪ #{line.concerns}")
    return text + (f"  ({'; '.join(marks)})" if marks else "")


def _audience(line: LogLine, say: Say) -> str:
    """Who may read a sealed line: the server's words in Japanese, the names otherwise."""
    if say.language == "ja" or line.audience_names is None:
        return line.audience_text or say("sealed")
    if not line.audience_names:
        return say("nobody can read it until the end")
    return say("only {names}", names=", ".join(line.audience_names))


def person(actor: str, seats: Mapping[int, str], say: Say) -> str:
    """An actor or audience by name: a seat's name, GM, the host, the spectators."""
    number = seat_number(actor)
    if number is not None:
        return seats.get(number) or say("seat {seat}", seat=number)
    names = {
        GM: "GM",
        HOST: say("Host"),
        PUBLIC: say("spectator (public)"),
        SYSTEM: say("system"),
    }
    return names.get(actor, actor)


def render_frame(
    frame: Frame,
    log: Sequence[LogLine] = (),
    say: Say | None = None,
    lines: Mapping[int, LogLine] | None = None,
) -> str:
    """The frame; `log`, if given, is the lines before it (as the audience read them then);
    `lines` (by seq), the lines the secrets the view lists are told by."""
    say = say or Source()
    event = frame.event
    view = frame.view
    seats = {s.seat: s.name for s in view.seats}
    who = person(frame.audience, seats, say)
    heading = say(
        "{title} — event {seq} of {last}, as {audience}",
        title=view.title,
        seq=frame.seq,
        last=frame.last_seq,
        audience=who,
    )
    out = [heading, ""]
    out += ["  " + render_line(line, say) for line in log if line.seq < frame.seq]
    out.append("▶ " + render_line(frame.line, say))
    out.append(
        "  " + say("by {actor} at {at}", actor=person(event["actor"], seats, say), at=event["at"])
    )
    if event.get("sealed") and event.get("secret") is None:
        out.append("  " + say("(its secret part is not visible to {audience})", audience=who))
    if frame.explanation:
        out.append("  " + say("roll: {explanation}", explanation=frame.explanation))
    status = say(STATUS.get(view.status, view.status))
    out += ["", say("status: {status}", status=status)]
    listed = ", ".join(
        s.name if s.joined else say("{name} (empty)", name=s.name) for s in view.seats
    )
    out.append(say("seats: {seats}", seats=listed))
    out += ["  " + text for text in glance(view.ruleset, view.rules, seats, frame.audience, say)]
    if view.secrets:
        out.append(say("secrets {audience} can read:", audience=who))
        for item in view.secrets:
            state = say("revealed") if item.revealed else say("sealed")
            told = (lines or {}).get(item.seq)
            what = line_text(told, say) if told is not None else say("a sealed record")
            out.append(f"  #{item.seq} ({state}): {what}")
    # What the event changed in the game's status, in words; what it changed in the ruleset's
    # state its line says and the glance above shows as people read it (never a field's path
    # and its values: ids and fields are the engine's, not the table's).
    changes = [c for c in frame.changes if c.path == "status"]
    if frame.seq > 1 and changes:
        out.append(say("changed:"))
        out += [f"  {_status_change(change, say)}" for change in changes]
    return "\n".join(out)


def glance(
    ruleset: str, rules: Any, seats: Mapping[int, str], audience: str, say: Say
) -> list[str]:
    """The ruleset's state as its table's pane shows it (`Ruleset.glances`), in the reader's
    language; nothing for a ruleset that declares none (freeform)."""
    if ruleset not in registered() or not isinstance(rules, Mapping):
        return []
    lines = ruleset_for(ruleset).glance(rules, Names(seats), audience)
    return [_read(line, say) for line in lines]


def _read(line: object, say: Say) -> str:
    if isinstance(line, Message):
        return read(line.key, line.params, say)
    return say(str(line))


def _status_change(change: Change, say: Say) -> str:
    """The game's status before and after, in words, as the pages say it."""
    before, after = (say(STATUS.get(str(v), str(v))) for v in (change.before, change.after))
    return f"{say('status')}: {before} → {after}"
