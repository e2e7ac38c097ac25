"""超人ロック's log lines as the Japanese page reads them, for tests that read a line's words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.model.messages import read, source
from domain.rulesets.chojin_locke import CHOJIN_LOCKE


def described(
    type_name: str,
    public: dict[str, Any],
    secret: dict[str, Any] | None,
    seat_names: Mapping[int, str] | None = None,
) -> tuple[str, str] | None:
    """`CHOJIN_LOCKE.describe`, its words read in Japanese (a line is a `Message` whose keys
    are its Japanese; a seat without a name reads 「席N」)."""
    line = CHOJIN_LOCKE.describe(type_name, public, secret, seat_names)
    if line is None:
        return None
    kind, words = line
    return kind, words if isinstance(words, str) else read(words.key, words.params, source)
