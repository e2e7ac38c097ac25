"""The registry of rulesets, by id."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.dice.words import DiceWords
from domain.model.errors import KirokuError

if TYPE_CHECKING:
    from domain.model.ruleset import Ruleset

_REGISTRY: dict[str, Ruleset[Any, Any]] = {}


def register(ruleset: Ruleset[Any, Any]) -> None:
    """Add a ruleset; one whose declarations do not add up is refused (RulesetIncomplete).
    The built-in ones are registered at bootstrap (domain/application/bootstrap.py)."""
    _REGISTRY[ruleset.complete().id] = ruleset


def registered() -> set[str]:
    return set(_REGISTRY)


def ruleset_for(ruleset_id: str) -> Ruleset[Any, Any]:
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none: the rulesets load at bootstrap"
        raise KirokuError(
            "unknown_ruleset",
            "There is no ruleset {ruleset_id} (known: {known}).",
            params={"ruleset_id": ruleset_id, "known": known},
        ) from None


def all_rulesets() -> list[Ruleset[Any, Any]]:
    return list(_REGISTRY.values())


def dice_words() -> tuple[DiceWords, ...]:
    """Every registered ruleset's dice words: what the typed dice read in any game before
    BCDice answered chat, so a roll recorded then is read again with them all
    (domain/model/verification.py)."""
    return tuple(w for ruleset in _REGISTRY.values() for w in ruleset.words)
