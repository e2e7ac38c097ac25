"""カードゲーム「超人ロック」: hidden identities, declarations checked against the secret sheet."""

from __future__ import annotations

from domain.rulesets.chojin_locke.ruleset import CHOJIN_LOCKE

__all__ = ["CHOJIN_LOCKE"]
