"""What the host applies by hand: damage and states from what Kiroku does not resolve yet."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.combat.flow import next_turn
from domain.rulesets.chojin_locke.combat.flow_events import CombatTurnEnded
from domain.rulesets.chojin_locke.ending import end_game
from domain.rulesets.chojin_locke.guards import living, playing, stage
from domain.rulesets.chojin_locke.party_events import PartyDissolved
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.state import ChojinState
from domain.rulesets.chojin_locke.turn import end_turn
from domain.rulesets.chojin_locke.turn_events import ConditionSet, GameOver


def nobody_acts(state: ChojinState) -> GameOver | None:
    """4.2: 「全てのプレイヤーが死亡する、あるいは永続的に行動不能になる」."""
    players = [p for p in state.players.values() if p.sheet is not None]
    if any(p.active for p in players):
        return None
    return GameOver(reason="all_out" if any(p.alive for p in players) else "all_dead")


@CHOJIN_LOCKE.command("set_condition")
class SetCondition(Command):
    """Host: apply damage or a state from something Kiroku does not resolve (combat, cards)."""

    seat: int = Field(ge=1, le=16)
    condition: Literal["normal", "bound", "arrested", "dead", "black_hole", "disabled"] = "normal"
    endurance_damage: int = Field(default=0, ge=0, le=99)
    willpower_damage: int = Field(default=0, ge=0, le=99)
    reason: str = Field(min_length=1, max_length=200)


@CHOJIN_LOCKE.decides(SetCondition)
def set_condition(t: ChojinTable, command: SetCondition, actor: str) -> list[Draft]:
    t.referee_only(actor, "set a character's condition")
    state = playing(t)
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
        # 6.1: a party that can no longer act as one is dissolved (ruling CL-029)
        drafts.append(Draft(PartyDissolved(leader=party[0], forced=True)))
    after = state
    for offset, draft in enumerate(drafts):  # look ahead through the ruleset's own folds
        after = CHOJIN_LOCKE.fold(after, draft.event, t.next_seq + offset)
    over = nobody_acts(after)
    if over is not None:
        return drafts + end_game(t, over)
    fight = after.combat
    if (
        fight is not None
        and fight.current == command.seat
        and not after.players[command.seat].alive
    ):
        # a death during a combat (ruling CL-058): its combat turn ends, the next fighter's begins
        ended = [Draft(CombatTurnEnded(fighter=command.seat))]
        after = CHOJIN_LOCKE.fold(after, ended[0].event, t.next_seq + len(drafts))
        return drafts + ended + next_turn(t, after, after=command.seat)
    turn = state.turn
    if turn is not None and turn.seat == command.seat and not after.players[command.seat].active:
        # the turn player can no longer act: the turn passes on at once
        return drafts + end_turn(t, after, turn)
    return drafts
