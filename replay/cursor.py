"""A replay cursor: what did one audience see after event n, and what did event n change?"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from domain.audience import GM, PUBLIC
from domain.errors import Forbidden
from domain.redaction import redact
from projections.views import AudienceView, render
from replay.history import History


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
    explanation: str | None  # how a roll's result follows from its faces, if visible
    view: AudienceView
    changes: list[Change]


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

    def at(self, seq: int) -> Frame:
        game = self.history.state_at(seq)
        recorded = self.history.record(seq)
        event = redact(game.game, recorded, self.audience)
        return Frame(
            game_id=game.game.game_id,
            audience=self.audience,
            seq=seq,
            last_seq=self.history.last_seq,
            event=event,
            explanation=_explanation(event),
            view=render(game, self.audience),
            changes=self.changes(seq),
        )

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
        after = render(self.history.state_at(seq), self.audience).model_dump(mode="json")
        if seq == 1:
            return [Change(path="", before=None, after=after)]
        before = render(self.history.state_at(seq - 1), self.audience).model_dump(mode="json")
        return list(_diff(before, after, ""))

    def as_audience(self, audience: str) -> ReplayCursor:
        return ReplayCursor(self.history, audience, self.seq)


def _diff(before: Any, after: Any, path: str) -> Any:
    if before == after:  # C-speed equality first: most of a view does not change
        return
    if isinstance(before, list) and isinstance(after, list) and _keyed(before + after):
        # Lists of items with a seq (the secrets) compare by seq: "#12 was added".
        before, after = _by_seq(before), _by_seq(after)
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(before.keys() | after.keys(), key=str):
            yield from _diff(before.get(key), after.get(key), f"{path}.{key}" if path else key)
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (b, a) in enumerate(zip(before, after, strict=True)):
            yield from _diff(b, a, f"{path}[{i}]")
    else:
        yield Change(path=path, before=before, after=after)


def _keyed(items: list[Any]) -> bool:
    return bool(items) and all(isinstance(item, dict) and "seq" in item for item in items)


def _by_seq(items: list[dict[str, Any]]) -> dict[str, Any]:
    return {f"#{item['seq']}": item for item in items}


def _explanation(event: dict[str, Any]) -> str | None:
    """The BCDice-style line of a roll the audience can see, wherever the event keeps it."""
    for part in (event.get("secret"), event.get("public")):
        found = _find_explanation(part)
        if found:
            return found
    return None


def _find_explanation(value: Any) -> str | None:
    if isinstance(value, dict):
        explanation = value.get("explanation")
        if isinstance(explanation, str):
            return explanation
        for item in value.values():
            found = _find_explanation(item)
            if found:
                return found
    elif isinstance(value, list):
        for item in value:
            found = _find_explanation(item)
            if found:
                return found
    return None
