"""Texts players see — names, titles, tabs, messages — and the characters they may not hold.

A log is only as trustworthy as its rendering. Control characters (NUL, escape sequences, a
carriage return that rewinds a terminal line), the Unicode bidirectional overrides and
isolates (U+202A–U+202E, U+2066–U+2069: "Trojan Source") and the other invisible format
characters (zero-width joiners and spaces, the BOM, the tag characters that hide text inside
a name) make a text display as something other than what it is, so a player could disguise
who said or rolled what, or pass a blank-looking name (U+3164 HANGUL FILLER) for another.
Kiroku refuses them when they arrive, with a 422 naming the character in words, in the
reader's language (docs/explanation/design/index.md, "Texts"): stored texts are then safe to
show anywhere, a terminal and the dispute report included, without each renderer having to
neutralise them.

Refused everywhere: control characters (Cc; a message may hold LF and TAB), every format
character (Cf) but the implicit direction marks, lone surrogates (Cs), the line and
paragraph separators (Zl, Zp), the 66 noncharacters (U+FDD0–U+FDEF and U+xFFFE/U+xFFFF of
every plane) and the fillers that look blank (U+115F, U+1160, U+3164, U+FFA0, U+2800, …).

Allowed: every printable character of every script, emoji, and the implicit direction marks
LRM/RLM/ALM (U+200E, U+200F, U+061C), which right-to-left writing needs and which reorder
nothing beyond their neighbours. A message (not a name) may join two emoji with U+200D ZERO
WIDTH JOINER (👨‍👩‍👧: one picture), and break lines (LF) and hold tabs; names, titles and
tabs are one line and not blank.

Use `PlayerText` for any free text a command carries and `PlayerName` for names and titles.
"""

from __future__ import annotations

import functools
import itertools
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

from domain.model.messages import N_, Message

FORBIDDEN_CHARACTER = "forbidden_character"  # the refusal's stable code
BLANK_TEXT = "blank_text"  # a name or title with nothing visible in it

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
ALLOWED_IN_MESSAGES = frozenset("\n\t")
DIRECTION_MARKS = frozenset("\u200e\u200f\u061c")  # LRM, RLM, ALM: allowed format characters
ZWJ = "\u200d"
# Letters and symbols that render as nothing at all (not spaces: a space is a space).
BLANK_FILLERS = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800\U0001d159\u17b4\u17b5\u034f\u180b\u180c\u180d\u180f"
)
NONCHARACTERS = frozenset(
    [chr(c) for c in range(0xFDD0, 0xFDF0)]
    + [chr(plane << 16 | low) for plane in range(17) for low in (0xFFFE, 0xFFFF)]
)
# controls, format characters, lone surrogates, and the line and paragraph separators (line
# breaks in disguise)
_REFUSED_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))


def _kind(character: str) -> str:
    """What sort of character it is, in words (a catalog key: Japanese source)."""
    if character in BIDI_CONTROLS:
        return N_("文字の向きを変える双方向制御文字")
    if character in NONCHARACTERS:
        return N_("文字として使えない非文字")
    if character in BLANK_FILLERS:
        return N_("空白に見える埋め草文字")
    category = unicodedata.category(character)
    if category == "Cf":
        return N_("目に見えない書式文字")
    if category in ("Zl", "Zp"):
        return N_("改行の代わりになる区切り文字")
    if category == "Cs":
        return N_("サロゲートの片割れ（文字ではありません）")
    return N_("制御文字")


def describe(character: str) -> str:
    """`U+202E RIGHT-TO-LEFT OVERRIDE`; control characters have no Unicode name."""
    name = unicodedata.name(character, "")
    code = f"U+{ord(character):04X}"
    if name:
        return f"{code} {name}"
    if unicodedata.category(character) == "Cs":
        return f"{code} (half of a surrogate pair, not a character)"
    if character in NONCHARACTERS:
        return f"{code} (a noncharacter)"
    return f"{code} (a control character)"


def _refused(character: str, allowed: frozenset[str]) -> bool:
    if character in allowed or character in DIRECTION_MARKS:
        return False
    return (
        unicodedata.category(character) in _REFUSED_CATEGORIES
        or character in BLANK_FILLERS
        or character in NONCHARACTERS
        or character in BIDI_CONTROLS
    )


def _pictograph(character: str) -> bool:
    """A character an emoji ZWJ sequence joins: a symbol (So) or what dresses one (a skin
    tone modifier, the emoji variation selector)."""
    return (
        unicodedata.category(character) == "So"
        or character == "\ufe0f"
        or (0x1F3FB <= ord(character) <= 0x1F3FF)
    )


def forbidden_character(text: str, *, one_line: bool = False) -> tuple[int, str] | None:
    """The first character a player-visible text may not hold, with its 0-based index."""
    if text.isprintable() and not _has_fillers(text):
        return None  # the common case, in C: no control, format or separator character
    allowed = frozenset() if one_line else ALLOWED_IN_MESSAGES
    for index, character in enumerate(text):
        if character == ZWJ and not one_line and _joins_emoji(text, index):
            continue
        if _refused(character, allowed):
            return index, character
    return None


def _has_fillers(text: str) -> bool:
    return not BLANK_FILLERS.isdisjoint(text) or not NONCHARACTERS.isdisjoint(text)


def _joins_emoji(text: str, index: int) -> bool:
    return (
        0 < index < len(text) - 1 and _pictograph(text[index - 1]) and _pictograph(text[index + 1])
    )


def blank(text: str) -> bool:
    """Nothing visible: empty, or only spaces."""
    return not text.strip()


FORBIDDEN_SENTENCE = N_(
    "{where}の{index}文字目に{kind} {character} があります。"
    "制御文字・見えない書式文字（ゼロ幅文字、BOM、タグ文字、文字の向きを変える制御文字など）・"
    "非文字・空白に見える埋め草文字は、ログを実際と違って見せられるため、ほかの人が読む文章には"
    "使えません。"
)
BLANK_SENTENCE = N_("{where}が空白だけです。見える文字で書いてください。")
THIS_TEXT = N_("この文章")
THIS_NAME = N_("この名前")


def problem_text(where: str, index: int, character: str) -> Message:
    """The refusal of a character, in words: `where` is a catalog key or a field's name."""
    return Message(
        FORBIDDEN_SENTENCE,
        {
            "where": where,
            "index": index + 1,
            "kind": _kind(character),
            "character": describe(character),
        },
    )


def blank_text(where: str) -> Message:
    return Message(BLANK_SENTENCE, {"where": where})


def detail(message: Message, **more: Any) -> dict[str, Any]:
    """A PydanticCustomError's context: the sentence in the source language (`detail`) and the
    message itself (`said`), which the API reads in the caller's language."""
    return {"detail": str(message), "said": message, **more}


def _check(text: str, *, one_line: bool) -> str:
    found = forbidden_character(text, one_line=one_line)
    if found is not None:
        index, character = found
        raise PydanticCustomError(
            FORBIDDEN_CHARACTER,
            "{detail}",
            detail(problem_text(THIS_TEXT, index, character), index=index),
        )
    if one_line and text and blank(text):
        raise PydanticCustomError(BLANK_TEXT, "{detail}", detail(blank_text(THIS_NAME)))
    return text


def _check_message(text: str) -> str:
    return _check(text, one_line=False)


def _check_line(text: str) -> str:
    return _check(text, one_line=True)


def _ranges(characters: frozenset[str]) -> str:
    """A regular-expression character class body for these characters, as ranges. BMP
    characters are written as \\uXXXX escapes; others as themselves (both JSON Schema's
    ECMA-262 regular expressions with the u flag and Python's read them)."""
    points = sorted(ord(c) for c in characters)
    out: list[str] = []
    start = previous = points[0]

    def put(low: int, high: int) -> None:
        def one(point: int) -> str:
            return f"\\u{point:04x}" if point <= 0xFFFF else chr(point)

        out.append(one(low) if low == high else f"{one(low)}-{one(high)}")

    for point in points[1:]:
        if point != previous + 1:
            put(start, previous)
            start = point
        previous = point
    put(start, previous)
    return "".join(out)


def _refused_always() -> frozenset[str]:
    # Control, format and separator characters are all in planes 0, 1 and 14.
    candidates = itertools.chain(range(0x20000), range(0xE0000, 0xE1000))
    return NONCHARACTERS | frozenset(
        chr(c)
        for c in candidates
        if not 0xD800 <= c <= 0xDFFF  # surrogates cannot occur in the JSON a client sends
        and chr(c) not in ALLOWED_IN_MESSAGES
        and c != ord(ZWJ)
        and _refused(chr(c), frozenset())
    )


# The same rule for clients, as JSON Schema patterns (checked here by the validators, which
# name the character). A message's pattern lets U+200D through: whether it joins two emoji is
# beyond a character class. Made when a schema is first asked for (a quarter of a second).


@functools.cache
def message_pattern() -> str:
    return f"^[^{_ranges(_refused_always())}]*$"


@functools.cache
def line_pattern() -> str:
    return f"^(?!\\s+$)[^\\t\\n\\u200d{_ranges(_refused_always())}]*$"


@dataclass(frozen=True)
class _Documented:
    """Adds the pattern to the field's JSON schema, beside its own length bounds."""

    pattern: Callable[[], str]

    def __get_pydantic_json_schema__(
        self, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        schema: dict[str, Any] = handler(core_schema)
        schema["pattern"] = self.pattern()
        return schema


PlayerText = Annotated[str, AfterValidator(_check_message), _Documented(message_pattern)]
"""Free text others will read (a declaration, a note, a ruling): line breaks and tabs allowed."""

PlayerName = Annotated[str, AfterValidator(_check_line), _Documented(line_pattern)]
"""A name, title or other one-line text others will read."""
