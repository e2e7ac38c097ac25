"""Event bodies: small immutable pydantic models, registered by their `type` name.

An event's fields are its public part, except `secret`: a secret-bearing event declares
`secret: SomeModel | None`, which is sealed to an audience on append (only its commitment is in
the envelope) and comes back as None for anyone who may not see it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from domain.model.draws import draw_fields
from domain.model.errors import KirokuError

EVENT_TYPES: dict[str, type[Event]] = {}


class Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    type: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if isinstance(cls.__dict__.get("type"), str):
            register_event_type(cls)

    @classmethod
    def has_secret(cls) -> bool:
        cached = cls.__dict__.get("_has_secret")
        if cached is None:  # `model_fields` is slow to reach on every fold: asked once a class
            cached = "secret" in cls.model_fields
            cls._has_secret = cached  # type: ignore[attr-defined]
        return cached

    @classmethod
    def may_draw(cls) -> bool:
        """Can this event type carry a fair draw (a DrawTag model anywhere in its fields)?"""
        return bool(draw_fields(cls))

    def public_part(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"secret"})

    def secret_part(self) -> dict[str, Any] | None:
        if not self.has_secret():  # skips pydantic's slow attribute-miss path on hot folds
            return None
        secret = self.secret  # type: ignore[attr-defined]
        return None if secret is None else secret.model_dump(mode="json")


def register_event_type(cls: type[Event]) -> None:
    """Make stored events of `cls.type` read back as `cls` (a ruleset's kit calls this when
    it derives the type; lifecycle events register by defining `type`)."""
    name = cls.type
    if name in EVENT_TYPES:
        raise TypeError(f"event type {name!r} registered twice")
    EVENT_TYPES[name] = cls


def event_from_parts(
    type_name: str, public: dict[str, Any], secret: dict[str, Any] | None
) -> Event:
    cls = EVENT_TYPES.get(type_name)  # a ruleset's types register when it loads (bootstrap)
    if cls is None:
        raise KirokuError(
            "unknown_event_type",
            "No ruleset here knows events of type {type_name}.",
            params={"type_name": type_name},
        )
    if secret is not None and cls.has_secret():
        return cls.model_validate({**public, "secret": secret})
    return cls.model_validate(public)
