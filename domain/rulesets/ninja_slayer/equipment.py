"""Weapons in hand (手番開始: 武器を切り替える) and the end of a scenario."""

from __future__ import annotations

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.messages import N_
from domain.model.records import Draft

from . import guards
from .campaign import stage
from .combat_events import WeaponSwitched
from .events import ScenarioEnded
from .rules import NINJA_SLAYER, NinjaTable
from .sheet import UNARMED
from .state import Character


def require_owned(character: Character, weapon: str) -> None:
    if weapon != UNARMED and weapon not in {w.name for w in character.sheet.weapons}:
        raise RuleViolation(
            "unknown_weapon",
            "{character} has no {weapon} ({UNARMED} is always there).",
            params={"character": character.name, "weapon": weapon, "UNARMED": UNARMED},
        )


@NINJA_SLAYER.command("switch_weapon")
class SwitchWeapon(Command):
    """手番開始: switch weapons (once until the next 手番)."""

    weapon: str = Field(min_length=1, max_length=60)


@NINJA_SLAYER.decides(SwitchWeapon)
def switch(t: NinjaTable, command: SwitchWeapon, actor: str) -> list[Draft]:
    _state, combat, holder = guards.acting(t, actor, "teban_start")
    if combat.switched:
        raise RuleViolation(
            "already_switched",
            "{holder} already switched weapons this 手番.",
            params={"holder": holder.name},
        )
    require_owned(holder, command.weapon)
    return [Draft(WeaponSwitched(character=holder.id, weapon=command.weapon))]


@NINJA_SLAYER.command("end_scenario")
class EndScenario(Command):
    """GM, outside combat: the scenario ends; once-per-scenario resources come back."""


@NINJA_SLAYER.decides(EndScenario)
def end_scenario(t: NinjaTable, command: EndScenario, actor: str) -> list[Draft]:
    state = t.started()
    t.referee_only(actor, "end the scenario")
    if state.combat is not None:
        raise RuleViolation("combat_in_progress", "End the combat first.")
    guards.nothing_pending(state)
    stage(state, "本編", what=N_("シナリオ本編の終了"))
    return [Draft(ScenarioEnded())]
