"""`chojin_locke`: カードゲーム「超人ロック」 (2020 basic rules) as a Ruleset."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from domain.commands import Command
from domain.game import GameState
from domain.lifecycle_events import GameCreated
from domain.records import Draft, Recorded
from domain.ruleset import DeclarationCheck, Ruleset
from domain.rulesets.chojin_locke import (
    abilities,
    actions,
    base,
    base_actions,
    party,
    planets,
    setup,
    silhouettes,
    support,
    turn,
)
from domain.rulesets.chojin_locke import commands as c
from domain.rulesets.chojin_locke.audit import audit
from domain.rulesets.chojin_locke.catalog import sample
from domain.rulesets.chojin_locke.counts import check_player_count
from domain.rulesets.chojin_locke.evolve import evolve
from domain.rulesets.chojin_locke.host import set_condition
from domain.rulesets.chojin_locke.options import ChojinOptions
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.view import view

_DECIDERS: dict[type[Command], Callable[[GameState, Any, str], list[Draft]]] = {
    c.Deal: setup.deal,
    c.Refuse: setup.refuse,
    c.FixCharacters: setup.fix_characters,
    c.ChooseSilhouette: silhouettes.choose,
    c.ChangeSilhouette: silhouettes.change,
    c.CloseRebalance: silhouettes.close,
    c.PlaceAmbush: planets.place_ambush,
    c.Enter: planets.enter,
    c.BeginPlanets: planets.begin,
    c.PlaceKey: base.place_key,
    c.EnterBase: base.enter_base,
    c.InspectSheet: base.inspect_sheet,
    c.BeginBase: base.begin_base,
    c.Intrude: base_actions.intrude,
    c.TeleportTo: base_actions.teleport_to,
    c.DeclareTeleport: actions.declare_teleport,
    c.NextPhase: turn.next_phase,
    c.Check: actions.check,
    c.Move: actions.move,
    c.Teleport: actions.teleport,
    c.Recover: actions.recover,
    c.Treat: actions.treat,
    c.Pass: actions.pass_,
    c.Escape: actions.escape,
    c.DestroyKey: base_actions.destroy_key,
    c.FormParty: party.form_party,
    c.AnswerParty: party.answer_party,
    c.DissolveParty: party.dissolve_party,
    c.UseAbility: abilities.use_ability,
    c.UseAbilityCard: abilities.use_card,
    c.OpenSheet: support.open_sheet,
    c.Convert: support.convert,
    c.DeclareVictory: support.declare_victory,
    c.AnswerVictory: support.answer_victory,
    c.SetCondition: set_condition,
}


class ChojinLocke(Ruleset[ChojinState]):
    id = "chojin_locke"
    version = "1"
    State = ChojinState
    Options = ChojinOptions
    commands = c.COMMANDS

    def check_seats(self, seats: int) -> None:
        check_player_count(seats)

    def initial(self, options: BaseModel, seats: int) -> ChojinState:
        assert isinstance(options, ChojinOptions)
        catalog = options.catalog or sample()
        return ChojinState(
            catalog=catalog,
            seats=seats,
            rules=options.rules,
            vigil_turns=options.evil_vigil_turns,
        )

    def decide(self, game: GameState, command: Command, actor: str) -> list[Draft]:
        return _DECIDERS[type(command)](game, command, actor)

    def evolve(self, state: ChojinState, recorded: Recorded) -> ChojinState:
        return evolve(state, recorded)

    def view(self, game: GameState, audience: str) -> dict[str, Any]:
        return view(game, audience)

    def audit_declarations(self, history: Sequence[Recorded]) -> list[DeclarationCheck]:
        def start(created: GameCreated) -> ChojinState:
            return self.initial(self.options(created.ruleset_options), len(created.seats))

        return audit(history, start, self.evolve)


CHOJIN_LOCKE = ChojinLocke()
