"""The registry of rulesets, by id."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.errors import KirokuError

if TYPE_CHECKING:
    from domain.ruleset import Ruleset

_REGISTRY: dict[str, Ruleset[Any, Any]] = {}
_builtin_loaded = False


def register(ruleset: Ruleset[Any, Any]) -> None:
    """Add a ruleset; one whose declarations do not add up is refused (RulesetIncomplete)."""
    _REGISTRY[ruleset.complete().id] = ruleset


def _ensure_builtin() -> None:
    # Lazily, because the built-in rulesets import the modules that import this one.
    global _builtin_loaded
    if not _builtin_loaded:
        _builtin_loaded = True
        _load_builtin()


def ruleset_for(ruleset_id: str) -> Ruleset[Any, Any]:
    _ensure_builtin()
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise KirokuError(
            "unknown_ruleset", f"There is no ruleset {ruleset_id!r} (known: {known})."
        ) from None


def all_rulesets() -> list[Ruleset[Any, Any]]:
    _ensure_builtin()
    return list(_REGISTRY.values())


def _load_builtin() -> None:
    from domain.rulesets.chojin_locke import CHOJIN_LOCKE
    from domain.rulesets.freeform import FREEFORM
    from domain.rulesets.mech_d20 import MECH_D20
    from domain.rulesets.ninja_slayer import NINJA_SLAYER

    for ruleset in (FREEFORM, CHOJIN_LOCKE, NINJA_SLAYER, MECH_D20):
        register(ruleset)
