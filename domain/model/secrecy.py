"""Secrecy declared in a ruleset's view, stripped for each audience in one place.

A ruleset's view is a `RulesView` model. Every part of it that not everyone may see is a
`Private` value that names its audience; `strip` is the only way from a view to what an
audience reads, so a field nobody marked cannot leak by being forgotten in one view function
(boardgame.io's playerView, run on every output). The audience rule is the sealed bodies' rule
(`domain.model.audience.may_see`): the GM reads what is addressed to anyone, nobody reads what is
addressed to no one, and `public` in the audience means everyone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, get_args, get_origin

from pydantic import BaseModel, ConfigDict
from pydantic_core import to_jsonable_python

from domain.model.audience import PUBLIC, may_see

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Private(Generic[T]):
    """A value only `to` (and the GM) may see; `public` in `to` shows it to everyone."""

    value: T
    to: tuple[str, ...]

    def visible_to(self, audience: str) -> bool:
        return may_see(audience, self.to, revealed=PUBLIC in self.to)


class NullWhenHidden:
    """Field marker (`Annotated[Private[X], NULL_WHEN_HIDDEN]`): a hidden value reads as null
    instead of the key being left out, for views whose shape always has the key."""


NULL_WHEN_HIDDEN = NullWhenHidden()


class RulesView(BaseModel):
    """What a ruleset's `view` returns: public fields, and `Private` ones that say who may see
    them. A field typed `Private[X] | None` holding None is left out (nothing private here).
    Parts with nothing private may be plain (frozen) models: they are dumped in one pass."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)


@dataclass(frozen=True, slots=True)
class _Layout:
    """Per view class, worked out once: which fields need walking, which read null hidden."""

    plain: set[str]  # dumped by pydantic in one pass: no view or Private inside (never changed)
    walked: tuple[str, ...]
    private: frozenset[str]  # fields whose type mentions Private (None there means: leave out)
    null_when_hidden: frozenset[str]


_LAYOUTS: dict[type[RulesView], _Layout] = {}


def _mentions(annotation: Any, seen: frozenset[type] = frozenset()) -> tuple[bool, bool]:
    """(mentions a RulesView or Private, mentions Private) for a field's annotation."""
    origin = get_origin(annotation)
    if annotation is Private or origin is Private:
        return True, True
    if isinstance(annotation, type) and issubclass(annotation, RulesView):
        return True, False
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation in seen:
            return False, False
        inner = [
            _mentions(f.annotation, seen | {annotation}) for f in annotation.model_fields.values()
        ]
        if any(walk for walk, _ in inner):
            raise TypeError(
                f"{annotation.__name__} holds a view or Private value: make it a RulesView"
            )
        return False, False
    found = [_mentions(arg, seen) for arg in get_args(annotation)]
    return any(w for w, _ in found), any(p for _, p in found)


def _layout(cls: type[RulesView]) -> _Layout:
    layout = _LAYOUTS.get(cls)
    if layout is None:
        walked: list[str] = []
        private: set[str] = set()
        null: set[str] = set()
        for name, field in cls.model_fields.items():
            walk, is_private = _mentions(field.annotation)
            if walk:
                walked.append(name)
            if is_private:
                private.add(name)
            if any(isinstance(m, NullWhenHidden) for m in field.metadata):
                null.add(name)
        plain = set(cls.model_fields) - set(walked)
        layout = _Layout(plain, tuple(walked), frozenset(private), frozenset(null))
        _LAYOUTS[cls] = layout
    return layout


_HIDDEN = object()


def strip(view: RulesView, audience: str) -> dict[str, Any]:
    """The view as JSON for `audience`: every Private value it may not see left out (or null)."""
    layout = _layout(type(view))
    dumped = view.model_dump(mode="json", include=layout.plain) if layout.plain else {}
    out: dict[str, Any] = {}
    for name in type(view).model_fields:
        if name in layout.plain:
            out[name] = dumped[name]
            continue
        value = getattr(view, name)
        if value is None and name in layout.private:
            continue
        shown = _walk(value, audience)
        if shown is _HIDDEN:
            if name in layout.null_when_hidden:
                out[name] = None
            continue
        out[name] = shown
    return out


_PLAIN = (str, int, float, bool, type(None))


def _walk(value: Any, audience: str) -> Any:
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, Private):
        return _walk(value.value, audience) if value.visible_to(audience) else _HIDDEN
    if isinstance(value, RulesView):
        return strip(value, audience)
    if isinstance(value, BaseModel):  # a model that holds nothing private (checked once)
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        items = ((str(k), _walk(v, audience)) for k, v in value.items())
        return {k: v for k, v in items if v is not _HIDDEN}
    if isinstance(value, list | tuple):
        return [v for v in (_walk(item, audience) for item in value) if v is not _HIDDEN]
    return to_jsonable_python(value)


def private_values(view: RulesView) -> list[Private[Any]]:
    """Every Private value inside a view (for tests that check what each audience gets)."""
    found: list[Private[Any]] = []

    def visit(value: Any) -> None:
        if isinstance(value, Private):
            found.append(value)
            visit(value.value)
        elif isinstance(value, RulesView):
            for name in type(value).model_fields:
                visit(getattr(value, name))
        elif isinstance(value, Mapping):
            for item in value.values():
                visit(item)
        elif isinstance(value, list | tuple):
            for item in value:
                visit(item)

    visit(view)
    return found
