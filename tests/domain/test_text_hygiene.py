"""Text hygiene over the Unicode categories (issue 34, item 3): whatever character of a
refused kind a text holds, wherever, it is refused and named; whatever text of visible
characters, it passes; and the JSON Schema patterns the document gives clients say the same
as the validators."""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.model.text import (
    BLANK_FILLERS,
    DIRECTION_MARKS,
    NONCHARACTERS,
    blank,
    forbidden_character,
    line_pattern,
    message_pattern,
    problem_text,
)

if TYPE_CHECKING:
    from hypothesis.internal.charmap import CategoryName

REFUSED_CATEGORIES: list[CategoryName] = ["Cc", "Cf", "Zl", "Zp"]
MESSAGE, LINE = message_pattern(), line_pattern()  # made once, not inside a timed example
VISIBLE: list[CategoryName] = ["L", "M", "N", "P", "S", "Zs"]
visible = st.characters(
    categories=VISIBLE,
    exclude_characters="".join(BLANK_FILLERS | NONCHARACTERS),
)
refused = st.one_of(
    st.characters(categories=REFUSED_CATEGORIES, exclude_characters="\n\t\u200d").filter(
        lambda c: c not in DIRECTION_MARKS
    ),
    st.sampled_from(sorted(BLANK_FILLERS | NONCHARACTERS)),
)


@settings(max_examples=300, deadline=None)
@given(st.text(visible, max_size=30), refused, st.text(visible, max_size=30))
def test_a_refused_character_is_found_wherever_it_is(before: str, bad: str, after: str) -> None:
    text = before + bad + after
    for one_line in (False, True):
        found = forbidden_character(text, one_line=one_line)
        assert found == (len(before), bad), (text, found)
    assert re.fullmatch(MESSAGE, text) is None
    assert re.fullmatch(LINE, text) is None
    detail = str(problem_text("名前", len(before), bad))
    assert f"U+{ord(bad):04X}" in detail and bad not in detail
    assert "文字目" in detail  # in words, in Japanese


@settings(max_examples=300, deadline=None)
@given(st.text(visible, min_size=1, max_size=60))
def test_visible_text_passes_and_the_patterns_agree(text: str) -> None:
    assert forbidden_character(text) is None
    assert forbidden_character(text, one_line=True) is None
    assert re.fullmatch(MESSAGE, text) is not None
    assert (re.fullmatch(LINE, text) is not None) is not blank(text)


@given(st.sampled_from(REFUSED_CATEGORIES).flatmap(lambda c: st.characters(categories=[c])))
def test_every_character_of_the_refused_categories_is_refused_in_names(character: str) -> None:
    expected = character not in DIRECTION_MARKS
    assert (forbidden_character(f"a{character}b", one_line=True) is not None) is expected
    assert unicodedata.category(character) in ("Cc", "Cf", "Zl", "Zp")


def test_a_zero_width_joiner_joins_emoji_in_messages_only() -> None:
    family = "👨\u200d👩\u200d👧"
    assert forbidden_character(f"家族 {family}") is None
    assert forbidden_character("👍\ufe0f\u200d🔥") is None
    assert forbidden_character(family, one_line=True) == (1, "\u200d")
    for hidden in ("a\u200db", "\u200d", "👨\u200d", "\u200d👨", "ア\u200dイ"):
        assert forbidden_character(hidden) is not None, hidden


def test_blank_looking_fillers_and_blank_names() -> None:
    for filler in ("\u3164", "\u115f", "\u1160", "\uffa0", "\u2800"):
        assert forbidden_character(filler, one_line=True) == (0, filler)
    assert blank("   ") and blank("\u3000") and not blank("a ")
    assert re.fullmatch(LINE, " \u3000 ") is None
