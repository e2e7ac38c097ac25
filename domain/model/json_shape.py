"""Bounds on the free JSON a client may send (a ruling's effect, an amendment's correction,
ruleset options), so that every accepted byte can be stored, read back and folded.

JSON parsers stop at some nesting depth (pydantic-core's at about 200 levels, the standard
library's at about 1,000): a value nested deeper than the reader allows would be stored and
then could never be read again. The bounds here sit far below any reader's limit, and a
request outside them is refused with a stable code before anything is appended.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from domain.model.messages import N_, Message
from domain.model.text import forbidden_character, problem_text

MAX_DEPTH = 32  # nested objects and arrays in one free value
MAX_KEYS = 256  # keys in one object
MAX_VALUES = 10_000  # values (keys not counted) in one free value
MAX_BYTES = 64 * 1024  # its compact UTF-8 JSON
REQUEST_DEPTH = 64  # a whole request: its own structure plus any free value inside it


CODES = frozenset(("json_too_deep", "json_too_many_keys", "json_too_large"))


@dataclass(frozen=True)
class ShapeProblem:
    code: str  # json_too_deep, json_too_many_keys, json_too_large, forbidden_character
    message: str | Message


def shape_problem(
    value: Any,
    *,
    max_depth: int = MAX_DEPTH,
    max_bytes: int | None = MAX_BYTES,
    check_texts: bool = True,
) -> ShapeProblem | None:
    """The first bound `value` breaks, or None. Iterative: the value may be deeper than the
    interpreter's own recursion limit. `max_bytes=None` leaves the size to the caller."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    values = 0
    while stack:
        item, depth = stack.pop()
        values += 1
        if values > MAX_VALUES:
            return ShapeProblem(
                "json_too_large", f"The value holds more than {MAX_VALUES:,} items."
            )
        if isinstance(item, dict):
            if depth + 1 > max_depth:
                return _too_deep(max_depth)
            if len(item) > MAX_KEYS:
                return ShapeProblem(
                    "json_too_many_keys",
                    f"An object in the value has {len(item):,} keys; at most {MAX_KEYS} are "
                    "allowed.",
                )
            for key, child in item.items():
                if check_texts and isinstance(key, str):
                    problem = _text_problem(N_("キー"), key)
                    if problem is not None:
                        return problem
                stack.append((child, depth + 1))
        elif isinstance(item, list | tuple):
            if depth + 1 > max_depth:
                return _too_deep(max_depth)
            stack.extend((child, depth + 1) for child in item)
        elif check_texts and isinstance(item, str):
            problem = _text_problem(N_("文字列"), item)
            if problem is not None:
                return problem
    if max_bytes is None:
        return None
    try:
        size = len(json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass"))
    except (ValueError, TypeError):
        return None  # not JSON at all: the canonical encoding refuses it with its own code
    if size > max_bytes:
        return ShapeProblem(
            "json_too_large", f"The value is {size:,} bytes as JSON; at most {max_bytes:,}."
        )
    return None


def _too_deep(max_depth: int) -> ShapeProblem:
    return ShapeProblem(
        "json_too_deep",
        f"The value is nested more than {max_depth} levels deep (objects and arrays within "
        "each other); flatten it.",
    )


def _text_problem(where: str, text: str) -> ShapeProblem | None:
    found = forbidden_character(text)
    if found is None:
        return None
    return ShapeProblem("forbidden_character", problem_text(where, *found))
