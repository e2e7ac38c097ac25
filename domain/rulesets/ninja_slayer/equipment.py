"""Weapons in hand (手番開始: 武器を切り替える) and the end of a scenario."""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.game import GameState
from domain.records import Draft

from . import guards
from .commands import EndScenario, SwitchWeapon
from .events import ScenarioEnded, WeaponSwitched
from .sheet import UNARMED
from .state import Character


def require_owned(character: Character, weapon: str) -> None:
    if weapon != UNARMED and weapon not in {w.name for w in character.sheet.weapons}:
        raise RuleViolation(
            "unknown_weapon", f"{character.name} has no {weapon!r} ({UNARMED} is always there)."
        )


def switch(game: GameState, command: SwitchWeapon, actor: str) -> list[Draft]:
    _state, combat, holder = guards.acting(game, actor, "teban_start")
    if combat.switched:
        raise RuleViolation(
            "already_switched", f"{holder.name} already switched weapons this 手番."
        )
    require_owned(holder, command.weapon)
    return [Draft(WeaponSwitched(character=holder.id, weapon=command.weapon))]


def end_scenario(game: GameState, command: EndScenario, actor: str) -> list[Draft]:
    state = guards.rules(game)
    guards.require_gm(actor, "end the scenario")
    if state.combat is not None:
        raise RuleViolation("combat_in_progress", "End the combat first.")
    return [Draft(ScenarioEnded())]
