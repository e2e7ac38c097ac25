"""Shipped catalogs (JSON data beside this module)."""

from __future__ import annotations

from functools import cache
from importlib import resources

from domain.rulesets.chojin_locke.cards import Catalog


@cache
def sample() -> Catalog:
    text = resources.files(__name__).joinpath("sample.json").read_text(encoding="utf-8")
    return Catalog.model_validate_json(text)
