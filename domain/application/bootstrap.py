"""The one place that wires Kiroku together (Cosmic Python's bootstrap): the built-in rulesets
registered, then store → repository → writer → service, given the process's BCDice engine. The
app (api/app.py), the CLI and the tests all start here.

    service = bootstrap()                       # the environment's settings (KIROKU_*)
    service = bootstrap(Settings.load(db=path)) # or given ones
    service = bootstrap(env=store_env(...))     # or eventsourcing's store settings directly
"""

from __future__ import annotations

from domain.adapters.bcdice_engine import BCDiceEngine, shared_engine
from domain.adapters.repository import GameRepository
from domain.application.service import GameService
from domain.application.settings import Settings
from domain.application.writer import GroupWriter
from domain.rulesets import register, registered
from domain.rulesets.chojin_locke import CHOJIN_LOCKE
from domain.rulesets.freeform import FREEFORM
from domain.rulesets.mech_d20 import MECH_D20
from domain.rulesets.ninja_slayer import NINJA_SLAYER

BUILT_IN = (FREEFORM, CHOJIN_LOCKE, NINJA_SLAYER, MECH_D20)


def load_rulesets() -> None:
    """Register the built-in rulesets (once; their event types with them)."""
    for ruleset in BUILT_IN:
        if ruleset.id not in registered():
            register(ruleset)


def bootstrap(
    settings: Settings | None = None,
    *,
    env: dict[str, str] | None = None,
    bcdice: BCDiceEngine | None = None,
) -> GameService:
    """The service over the store `env` (eventsourcing's settings) or the one the settings
    name; chat rolls asked of `bcdice` (default: the process's one engine)."""
    load_rulesets()
    settings = settings if settings is not None else Settings.load()
    store = env if env is not None else settings.store_env()
    games = GameRepository.open(store, settings.cache_events)
    return GameService(games, GroupWriter(games), bcdice or shared_engine())
