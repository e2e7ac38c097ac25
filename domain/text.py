"""Texts players see — names, titles, messages — and the characters they may not hold.

A log is only as trustworthy as its rendering. Control characters (NUL, escape sequences, a
carriage return that rewinds a terminal line) and the Unicode bidirectional overrides and
isolates (U+202A–U+202E, U+2066–U+2069: "Trojan Source") make a text display as something
other than what it is, so a player could disguise who said or rolled what. Kiroku refuses
them when they arrive, with a 422 naming the character (docs/design.md, "Texts"): stored
texts are then safe to show anywhere, a terminal and the dispute report included, without
each renderer having to neutralise them.

Allowed: every printable character of every script, emoji (joiners included), and the
implicit direction marks LRM/RLM/ALM (U+200E, U+200F, U+061C), which right-to-left writing
needs and which reorder nothing beyond their neighbours. Messages may hold line breaks (LF)
and tabs; names and titles are one line.

Use `PlayerText` for any free text a command carries and `PlayerName` for names and titles.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

FORBIDDEN_CHARACTER = "forbidden_character"  # the refusal's stable code

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
ALLOWED_IN_MESSAGES = frozenset("\n\t")
# controls, lone surrogates, and the line and paragraph separators (line breaks in disguise)
_REFUSED_CATEGORIES = frozenset(("Cc", "Cs", "Zl", "Zp"))


def describe(character: str) -> str:
    """`U+202E RIGHT-TO-LEFT OVERRIDE`; control characters have no Unicode name."""
    name = unicodedata.name(character, "")
    code = f"U+{ord(character):04X}"
    if name:
        return f"{code} {name}"
    if unicodedata.category(character) == "Cs":
        return f"{code} (half of a surrogate pair, not a character)"
    return f"{code} (a control character)"


def forbidden_character(text: str, *, one_line: bool = False) -> tuple[int, str] | None:
    """The first character a player-visible text may not hold, with its 0-based index."""
    if text.isprintable():  # the common case, in C: no control, format or separator character
        return None
    allowed = frozenset() if one_line else ALLOWED_IN_MESSAGES
    for index, character in enumerate(text):
        if character in allowed:
            continue
        if character in BIDI_CONTROLS or unicodedata.category(character) in _REFUSED_CATEGORIES:
            return index, character
    return None


def problem_text(where: str, index: int, character: str) -> str:
    return (
        f"{where} holds {describe(character)} at character {index + 1}: control characters "
        "and bidirectional overrides or isolates are not allowed in texts others see, "
        "because they can make the log display something other than what it says."
    )


def _check(text: str, *, one_line: bool) -> str:
    found = forbidden_character(text, one_line=one_line)
    if found is not None:
        index, character = found
        raise PydanticCustomError(
            FORBIDDEN_CHARACTER,
            "{detail}",
            {"detail": problem_text("The text", index, character), "index": index},
        )
    return text


def _check_message(text: str) -> str:
    return _check(text, one_line=False)


def _check_line(text: str) -> str:
    return _check(text, one_line=True)


# The same rule for clients, as JSON Schema patterns (checked here by the validators, which
# name the character; surrogates cannot occur in the JSON a client sends as UTF-8).
_REFUSED_ALWAYS = r"\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
MESSAGE_PATTERN = f"^[^{_REFUSED_ALWAYS}]*$"
LINE_PATTERN = f"^[^\\t\\n{_REFUSED_ALWAYS}]*$"


@dataclass(frozen=True)
class _Documented:
    """Adds the pattern to the field's JSON schema, beside its own length bounds."""

    pattern: str

    def __get_pydantic_json_schema__(
        self, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        schema: dict[str, Any] = handler(core_schema)
        schema["pattern"] = self.pattern
        return schema


PlayerText = Annotated[str, AfterValidator(_check_message), _Documented(MESSAGE_PATTERN)]
"""Free text others will read (a declaration, a note, a ruling): line breaks and tabs allowed."""

PlayerName = Annotated[str, AfterValidator(_check_line), _Documented(LINE_PATTERN)]
"""A name, title or other one-line text others will read."""
