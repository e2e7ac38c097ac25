"""A replay cursor: what did one audience see after event n, and what did event n change?"""

from __future__ import annotations

from typing import Any, Protocol
from weakref import WeakKeyDictionary

from pydantic import BaseModel, Field

from domain.model.audience import GM, PUBLIC, may_see
from domain.model.draws import find_objects
from domain.model.errors import Forbidden
from domain.model.game import GameState
from domain.model.lifecycle_events import Revealed
from domain.model.logline import LogLine, describe
from domain.model.records import Recorded
from domain.model.redaction import Disclosure, redact
from domain.rulesets import ruleset_for
from projections.views import AudienceView, ProjectionState, SecretItem, fold, render
from replay.history import History

LOG_WINDOW = 200  # lines of the log a replay shows up to its seq, unless asked for fewer


class Change(BaseModel):
    """One difference in the audience's view: a dotted path, and the value before and after."""

    path: str
    before: Any = None
    after: Any = None


class Frame(BaseModel):
    """The replay at one seq, for one audience."""

    game_id: str
    audience: str
    seq: int
    last_seq: int
    event: dict[str, Any]  # the event at `seq`, as this audience saw it then
    line: LogLine  # that event as the table read it (domain.model.logline.describe)
    explanation: str | None  # how a roll's result follows from its faces, if visible
    view: AudienceView
    changes: list[Change]
    secrets_total: int = Field(
        0, description="the secrets in this audience's view; `view.secrets` may hold fewer"
    )


def check_replay_permission(viewer: str, as_audience: str, *, ended: bool) -> None:
    """During a game you replay as yourself (the GM as anyone); after the end, as anyone."""
    if ended or as_audience == viewer or viewer == GM:
        return
    if as_audience == PUBLIC:
        return  # the public log is everyone's
    raise Forbidden(
        "replay_as_other",
        "Until the game ends you can replay only as yourself (or as a spectator).",
    )


class ReplayCursor:
    def __init__(self, history: History, audience: str, at: int | None = None) -> None:
        self.history = history
        self.audience = audience
        self.seq = history.last_seq if at is None else at
        self.history.state_at(self.seq)  # refuse an out-of-range start at once

    def at(self, seq: int, secrets: int | None = None) -> Frame:
        """The frame at `seq`; with `secrets`, its view holds only the latest `secrets` of them
        (what a page shows), so a seek's answer does not grow with the game."""
        recorded = self.history.record(seq)
        before = self.history.state_at(seq - 1) if seq > 1 else None
        state = fold(before, recorded)
        event, line = seen(state.game, recorded, self.audience, self.history)
        total, shown = self.history.visible(self.audience, state, secrets)
        view = render(state, self.audience, shown)
        if before is None:
            changes = [Change(path="", after=render(state, self.audience).model_dump(mode="json"))]
        else:
            was = render(before, self.audience, [])
            changes = _view_changes(was, view, before, state, recorded)
        return Frame(
            game_id=state.game.game_id,
            audience=self.audience,
            seq=seq,
            last_seq=self.history.last_seq,
            event=event,
            line=line,
            explanation=_explanation(event),
            view=view,
            changes=changes,
            secrets_total=total,
        )

    def log(self, seq: int, count: int = LOG_WINDOW) -> list[tuple[dict[str, Any], LogLine]]:
        """The last `count` events up to `seq` (itself included), each as this audience saw it
        right after `seq`, with its line: the table's log at that moment."""
        state = self.history.state_at(seq).game
        first = max(1, seq - count + 1)
        return [
            seen(state, self.history.record(n), self.audience, self.history)
            for n in range(first, seq + 1)
        ]

    def lines(self, seq: int, seqs: list[int]) -> dict[int, LogLine]:
        """The lines of the events `seqs`, as this audience read them right after `seq`."""
        state = self.history.state_at(seq).game
        return {
            n: seen(state, self.history.record(n), self.audience, self.history)[1] for n in seqs
        }

    def current(self) -> Frame:
        return self.at(self.seq)

    def seek(self, seq: int) -> Frame:
        frame = self.at(seq)
        self.seq = seq
        return frame

    def step(self) -> Frame:
        return self.seek(min(self.seq + 1, self.history.last_seq))

    def back(self) -> Frame:
        return self.seek(max(self.seq - 1, 1))

    def changes(self, seq: int) -> list[Change]:
        """What event `seq` changed in this audience's view."""
        return self.at(seq).changes

    def as_audience(self, audience: str) -> ReplayCursor:
        return ReplayCursor(self.history, audience, self.seq)


class Marks(BaseModel):
    """Where the events a replay jumps to are: rulings, amendments and declarations, by seq.
    Read from public parts only (an event's type and public part are everyone's)."""

    game_id: str
    last_seq: int
    rulings: list[int] = Field(description="GM (or host) rulings")
    amendments: list[int] = Field(description="amendments of earlier events")
    declarations: list[int] = Field(
        description="declarations, checked against the truth after the end (see /audit)"
    )


MARKED = {"ruling": "rulings", "amendment": "amendments", "declaration": "declarations"}
_marks: WeakKeyDictionary[History, Marks] = WeakKeyDictionary()


def marks(history: History) -> Marks:
    """The marks of a history, kept beside it and brought up to date as it grows."""
    known = _marks.get(history)
    if known is None:
        game = history.final.game
        known = Marks(game_id=game.game_id, last_seq=0, rulings=[], amendments=[], declarations=[])
    if known.last_seq < history.last_seq:
        describe_rules = ruleset_for(history.final.game.ruleset).describe
        found: dict[str, list[int]] = {name: [] for name in MARKED.values()}
        for recorded in history.records(after=known.last_seq):
            envelope = recorded.envelope
            event = {
                "seq": envelope.seq,
                "type": envelope.type,
                "actor": envelope.actor,
                "public": envelope.public,
                "sealed": None if envelope.sealed is None else {"audience": []},
            }
            line = describe(event, PUBLIC, {}, describe_rules)
            if line.kind in MARKED:
                found[MARKED[line.kind]].append(envelope.seq)
        known = Marks(
            game_id=known.game_id,
            last_seq=history.last_seq,
            rulings=known.rulings + found["rulings"],
            amendments=known.amendments + found["amendments"],
            declarations=known.declarations + found["declarations"],
        )
        _marks[history] = known
    return known


class Records(Protocol):
    """Where `seen` finds the event a reveal reveals: a `History`, or a store's records
    (api/present.py `RevealedRecords`)."""

    def record(self, seq: int) -> Recorded: ...


def seen(
    state: GameState, recorded: Recorded, audience: str, history: Records | None = None
) -> tuple[dict[str, Any], LogLine]:
    """An event as `audience` saw it when the game was at `state`, and the line it read (a
    reveal, given the `history`, as the line of the event it reveals, redacted for `audience`
    with the reveal's own disclosure: never more than it may read)."""
    disclosure = Disclosure.of(state)
    event = redact(recorded, audience, disclosure)
    revealing = None
    of_seq = revealed_seq(recorded)
    if history is not None and of_seq is not None:
        revealing = redact(history.record(of_seq), audience, disclosure)
    seat_names = {seat.seat: seat.name for seat in state.seats}
    rules = ruleset_for(state.ruleset)
    people = rules.people(state.rules, audience)
    return event, describe(event, audience, seat_names, rules.describe, revealing, people)


def revealed_seq(recorded: Recorded) -> int | None:
    """The seq of the event a reveal reads as (None: not a reveal, or the dice seed's, which
    is named rather than read as #1's line)."""
    if isinstance(recorded.event, Revealed) and 1 < recorded.event.of_seq < recorded.seq:
        return recorded.event.of_seq
    return None


def _view_changes(
    before: AudienceView,
    after: AudienceView,
    was: ProjectionState,
    now: ProjectionState,
    recorded: Recorded,
) -> list[Change]:
    """The view's differences. An event touches at most two sealed bodies (its own, the one it
    reveals), so only those are compared: never the whole list (a long game's view can hold
    thousands, and a seek would grow with the game)."""
    changes = list(
        _diff(
            before.model_dump(mode="json", exclude={"secrets"}),
            after.model_dump(mode="json", exclude={"secrets"}),
            "",
        )
    )
    touched = {recorded.seq} if recorded.envelope.sealed is not None else set()
    if isinstance(recorded.event, Revealed):
        touched.add(recorded.event.of_seq)
    audience = after.audience
    for number in sorted(touched):
        previous, item = _readable(was, number, audience), _readable(now, number, audience)
        if item is not None and previous is not item and previous != item:
            changes.append(
                Change(
                    path=f"secrets.#{number}",
                    before=None if previous is None else previous.model_dump(mode="json"),
                    after=item.model_dump(mode="json"),
                )
            )
    return changes


def _readable(state: ProjectionState, seq: int, audience: str) -> SecretItem | None:
    item = state.sealed.get(seq)
    if item is None or not may_see(audience, item.audience, revealed=item.revealed):
        return None
    return item


def _diff(before: Any, after: Any, path: str) -> Any:
    if before == after:  # C-speed equality first: most of a view does not change
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(before.keys() | after.keys(), key=str):
            yield from _diff(before.get(key), after.get(key), f"{path}.{key}" if path else key)
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (b, a) in enumerate(zip(before, after, strict=True)):
            yield from _diff(b, a, f"{path}[{i}]")
    elif isinstance(before, list) and isinstance(after, list) and _extends(before, after):
        # Items added at the end (or taken from it): name just those, not the whole list.
        for i in range(min(len(before), len(after)), max(len(before), len(after))):
            yield Change(
                path=f"{path}[{i}]",
                before=before[i] if i < len(before) else None,
                after=after[i] if i < len(after) else None,
            )
    else:
        yield Change(path=path, before=before, after=after)


def _extends(before: list[Any], after: list[Any]) -> bool:
    shorter, longer = (before, after) if len(before) < len(after) else (after, before)
    return longer[: len(shorter)] == shorter


def _explanation(event: dict[str, Any]) -> str | None:
    """The BCDice-style line of a roll the audience can see, wherever the event keeps it."""
    for part in (event.get("secret"), event.get("public")):
        for found in find_objects(part, "explanation"):
            if isinstance(found["explanation"], str):
                return found["explanation"]
    return None
