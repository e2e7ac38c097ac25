"""What the host applies by hand: damage and states from what Kiroku does not resolve yet."""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.game import GameState
from domain.records import Draft
from domain.rulesets.chojin_locke.commands import SetCondition
from domain.rulesets.chojin_locke.ending import end_game
from domain.rulesets.chojin_locke.events import ConditionSet, GameOver, PartyDissolved
from domain.rulesets.chojin_locke.evolve import apply
from domain.rulesets.chojin_locke.guards import host, living, playing, stage
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.turn import end_turn


def _nobody_acts(state: ChojinState) -> GameOver | None:
    """4.2: 「全てのプレイヤーが死亡する、あるいは永続的に行動不能になる」."""
    players = [p for p in state.players.values() if p.sheet is not None]
    if any(p.active for p in players):
        return None
    return GameOver(reason="all_out" if any(p.alive for p in players) else "all_dead")


def set_condition(game: GameState, command: SetCondition, actor: str) -> list[Draft]:
    host(actor, "set a character's condition")
    state = playing(game)
    stage(state, "planet", "base")
    living(state, command.seat)
    if state.victory is not None:
        # nothing happens to a character while the table answers a victory declaration
        raise RuleViolation("victory_pending", "Every living player must answer the victory.")
    party = state.party_of(command.seat)
    condition: str = command.condition
    if condition == "normal" and command.seat in party[1:]:
        condition = "partner"  # damage only: a partner stays one (4.4's パートナー状態)
    event = ConditionSet(
        seat=command.seat,
        condition=condition,
        endurance_damage=command.endurance_damage,
        willpower_damage=command.willpower_damage,
        reason=command.reason,
    )
    drafts = [Draft(event)]
    if len(party) > 1 and condition not in ("normal", "partner"):
        # 6.1: a party that can no longer act as one is dissolved (ruling 29)
        drafts.append(Draft(PartyDissolved(leader=party[0], forced=True)))
    after = state
    for draft in drafts:
        after = apply(after, draft.event)
    over = _nobody_acts(after)
    if over is not None:
        return drafts + end_game(game, over)
    turn = state.turn
    if turn is not None and turn.seat == command.seat and not after.players[command.seat].active:
        # the turn player can no longer act: the turn passes on at once
        return drafts + end_turn(game, after, turn)
    return drafts
