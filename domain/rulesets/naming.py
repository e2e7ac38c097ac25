"""A character's or unit's id when the player gives only its name.

The id is how commands and events refer to a character; people read its name. A form need not
ask for one: the decider derives it from the name (its letters and digits, 「フジキド・ケンジ」 →
「フジキドケンジ」), made unique in the game by a number (「ヤクザ」, 「ヤクザ-2」). It is derived
from the state the command is decided on, so it is the same on every replay, and the event
records it as before: no stored shape changes.
"""

from __future__ import annotations

import re
from collections.abc import Container

from pydantic import Field

MAX_ID = 40
# Optional: "" (the default) asks the decider to derive it from the name.
OptionalId = Field(
    default="",
    max_length=MAX_ID,
    pattern=r"^[^\s]*$",
    description="A short id with no spaces; empty or absent: derived from the name",
)
_NOT_IN_ID = re.compile(r"[^\w\-]")


def id_from_name(name: str, taken: Container[str], fallback: str) -> str:
    """The name's letters, digits, - and _ (at most 36 of them; `fallback` if none), with -2,
    -3 … after it while the id is taken."""
    stem = _NOT_IN_ID.sub("", name)[: MAX_ID - 4] or fallback
    candidate, number = stem, 2
    while candidate in taken:
        candidate, number = f"{stem}-{number}", number + 1
    return candidate
