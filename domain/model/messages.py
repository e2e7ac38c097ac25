"""Marks a string a person reads as a catalog key (gettext's `N_`, "no-op gettext").

The domain is pure: it names the message (English source text, `{name}` placeholders) and its
arguments; the catalogs under api/pages/i18n/ translate it where a reader's language is known
(Japanese by default). `tests/api/test_catalogs.py` extracts every `N_(...)` and fails on one
missing from a catalog.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """`message`, unchanged: the extractor finds it, the catalogs translate it."""
    return message
