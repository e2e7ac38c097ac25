"""`ninja_slayer`: ニンジャスレイヤーTRPG 2nd edition, combat kept by the rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from domain.commands import Command
from domain.game import GameState
from domain.records import Draft, Recorded
from domain.ruleset import Ruleset

from . import abilities, attacks, characters, equipment, evasion, flow, movement
from . import commands as c
from .evolve import evolve
from .state import NinjaOptions, NinjaState
from .view import view

_DECIDERS: dict[type[Command], Callable[[GameState, Any, str], list[Draft]]] = {
    c.AddCharacter: characters.add,
    c.Adjust: characters.adjust,
    c.Check: characters.check,
    c.BeginCombat: flow.begin,
    c.Advance: flow.advance,
    c.Concentrate: flow.concentrate,
    c.Move: movement.move,
    c.Attack: attacks.attack,
    c.Act: flow.other_action,
    c.Evade: evasion.evade,
    c.TakeDamage: evasion.take,
    c.Counter: evasion.counter,
    c.Adrenaline: abilities.adrenaline,
    c.Reroll: abilities.sixth_sense,
    c.Wasshoi: flow.wasshoi,
    c.NextTurn: flow.next_turn,
    c.EndCombat: flow.end,
    c.SwitchWeapon: equipment.switch,
    c.EndScenario: equipment.end_scenario,
}


class NinjaSlayer(Ruleset[NinjaState]):
    id = "ninja_slayer"
    version = "1"
    State = NinjaState
    Options = NinjaOptions
    commands = c.COMMANDS

    def initial(self, options: BaseModel, seats: int) -> NinjaState:
        assert isinstance(options, NinjaOptions)
        return NinjaState(private_pc_sheets=options.private_pc_sheets)

    def decide(self, game: GameState, command: Command, actor: str) -> list[Draft]:
        return _DECIDERS[type(command)](game, command, actor)

    def evolve(self, state: NinjaState, recorded: Recorded) -> NinjaState:
        return evolve(state, recorded)

    def view(self, game: GameState, audience: str) -> dict[str, Any]:
        return view(game, audience)


NINJA_SLAYER = NinjaSlayer()
